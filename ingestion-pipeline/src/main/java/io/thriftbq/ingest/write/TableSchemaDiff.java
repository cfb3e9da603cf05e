package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The column-by-column difference between an existing table and the schema the IDL gives, split by
 * what BigQuery allows on a live table: adding NULLABLE or REPEATED columns (nested ones too) and
 * relaxing REQUIRED to NULLABLE. Anything else (a type change, a new REQUIRED column, a REQUIRED
 * column the IDL dropped, a mode change to or from REPEATED) is incompatible.
 *
 * @param changes what ADD_COLUMNS applies, one line per column
 * @param incompatible what no update can fix, one line per column
 * @param merged the existing schema with the changes applied (existing columns keep their order)
 */
public record TableSchemaDiff(List<String> changes, List<String> incompatible, TableSchema merged) {

  public static TableSchemaDiff between(TableSchema existing, TableSchema wanted) {
    List<String> changes = new ArrayList<>();
    List<String> incompatible = new ArrayList<>();
    List<TableFieldSchema> merged =
        mergeFields(fieldsOf(existing), fieldsOf(wanted), "", changes, incompatible);
    return new TableSchemaDiff(
        List.copyOf(changes), List.copyOf(incompatible), new TableSchema().setFields(merged));
  }

  public boolean identical() {
    return changes.isEmpty() && incompatible.isEmpty();
  }

  private static List<TableFieldSchema> fieldsOf(TableSchema schema) {
    return schema == null || schema.getFields() == null ? List.of() : schema.getFields();
  }

  private static List<TableFieldSchema> mergeFields(
      List<TableFieldSchema> existing,
      List<TableFieldSchema> wanted,
      String prefix,
      List<String> changes,
      List<String> incompatible) {
    Map<String, TableFieldSchema> wantedByName = new LinkedHashMap<>();
    for (TableFieldSchema field : wanted) {
      wantedByName.put(field.getName().toLowerCase(java.util.Locale.ROOT), field);
    }
    List<TableFieldSchema> merged = new ArrayList<>();
    for (TableFieldSchema old : existing) {
      String path = prefix + old.getName();
      TableFieldSchema now = wantedByName.remove(old.getName().toLowerCase(java.util.Locale.ROOT));
      if (now == null) {
        if ("REQUIRED".equals(mode(old))) {
          incompatible.add(
              path + ": REQUIRED in the table but not in the IDL; every write would lack it");
        }
        merged.add(old); // a NULLABLE or REPEATED column the IDL no longer has stays, unfilled
        continue;
      }
      merged.add(mergeField(old, now, path, changes, incompatible));
    }
    for (TableFieldSchema added : wantedByName.values()) {
      String path = prefix + added.getName();
      if ("REQUIRED".equals(mode(added))) {
        incompatible.add(
            path
                + ": new REQUIRED column; BigQuery adds only NULLABLE or REPEATED columns to a"
                + " table (make the field optional in the IDL, or write to a new table)");
        continue;
      }
      changes.add(path + ": add " + mode(added) + " " + type(added));
      merged.add(added);
    }
    return merged;
  }

  private static TableFieldSchema mergeField(
      TableFieldSchema old,
      TableFieldSchema now,
      String path,
      List<String> changes,
      List<String> incompatible) {
    if (!sameType(type(old), type(now))) {
      incompatible.add(
          path + ": type " + type(old) + " in the table, " + type(now) + " in the IDL");
      return old;
    }
    String oldMode = mode(old);
    String newMode = mode(now);
    // A shallow copy: clone() fails on the immutable lists a derived schema holds.
    TableFieldSchema result = new TableFieldSchema();
    result.putAll(old);
    if (!oldMode.equals(newMode)) {
      if (oldMode.equals("REQUIRED") && newMode.equals("NULLABLE")) {
        changes.add(path + ": relax REQUIRED to NULLABLE");
        result.setMode("NULLABLE");
      } else if (oldMode.equals("NULLABLE") && newMode.equals("REQUIRED")) {
        // Writing an always-present value into a NULLABLE column is fine: nothing to change.
      } else {
        incompatible.add(path + ": mode " + oldMode + " in the table, " + newMode + " in the IDL");
      }
    }
    if ("RECORD".equals(type(old))) {
      result.setFields(
          mergeFields(
              old.getFields() == null ? List.of() : old.getFields(),
              now.getFields() == null ? List.of() : now.getFields(),
              path + ".",
              changes,
              incompatible));
    }
    return result;
  }

  private static String mode(TableFieldSchema field) {
    return field.getMode() == null ? "NULLABLE" : field.getMode();
  }

  private static String type(TableFieldSchema field) {
    return field.getType();
  }

  /** BigQuery reports legacy and standard names for the same types. */
  private static boolean sameType(String a, String b) {
    return Objects.equals(canonical(a), canonical(b));
  }

  private static String canonical(String type) {
    if (type == null) {
      return null;
    }
    return switch (type) {
      case "INT64" -> "INTEGER";
      case "FLOAT64" -> "FLOAT";
      case "BOOL" -> "BOOLEAN";
      case "STRUCT" -> "RECORD";
      default -> type;
    };
  }
}
