package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * BigQuery's rules for the columns an IDL becomes, checked where the schema is derived. Why: an IDL
 * that breaks them derives a schema that BigQuery refuses only when the table is created (or a
 * Terraform apply of the exported schema fails), far from the field to rename; checked here, launch
 * and {@code export-schema.sh} fail at once and name it. The rules are BigQuery's documented ones
 * for column names ("Specify a schema": letters, digits and underscores, not starting with a digit;
 * at most 300 characters; no two names in one record that differ only in case; no top-level name
 * starting with a reserved prefix) and for records (at most 15 levels of RECORD, and a table has a
 * column; a struct with no fields is a BOOLEAN column, {@link ColumnShape#isFieldlessStruct}, so no
 * RECORD is without fields).
 */
final class ColumnRules {
  static final int MAX_NAME_LENGTH = 300;
  static final int MAX_RECORD_DEPTH = 15;

  /** Prefixes BigQuery keeps for its pseudo-columns; compared ignoring case, as names are. */
  static final List<String> RESERVED_PREFIXES =
      List.of("_TABLE_", "_FILE_", "_PARTITION", "_ROW_TIMESTAMP", "__ROOT__", "_COLIDENTIFIER");

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private ColumnRules() {}

  /**
   * Every way {@code struct}'s table breaks BigQuery's rules, one sentence each saying what to
   * change; empty when BigQuery can hold it.
   *
   * @param columns the table's columns: the struct's, then the metadata columns
   * @param metadata the metadata columns among them, to name the flag that adds each
   */
  static List<String> problems(
      ThriftStruct struct, List<TableFieldSchema> columns, List<MetadataColumn> metadata) {
    List<String> problems = new ArrayList<>();
    fieldNames(struct, problems, new HashSet<>());
    Map<String, MetadataColumn> metadataByName = new HashMap<>();
    for (MetadataColumn column : metadata) {
      metadataByName.put(column.columnName().toLowerCase(Locale.ROOT), column);
    }
    for (ThriftField field : struct.fields()) {
      String name = field.name();
      String upper = name.toUpperCase(Locale.ROOT);
      for (String prefix : RESERVED_PREFIXES) {
        if (upper.startsWith(prefix)) {
          problems.add(
              "Field "
                  + name
                  + " of "
                  + describe(struct)
                  + " starts with "
                  + prefix
                  + ", which BigQuery reserves for its own columns: rename the field in the IDL");
        }
      }
      MetadataColumn same = metadataByName.get(name.toLowerCase(Locale.ROOT));
      if (same != null) {
        problems.add(
            "Field "
                + name
                + " of "
                + describe(struct)
                + " and the column "
                + same.columnName()
                + " that "
                + same.flag()
                + " adds would be one column: rename the field in the IDL or leave "
                + same.flag()
                + " off");
      }
    }
    for (TableFieldSchema column : columns) {
      String deepest = deepestRecord(column, 1, column.getName());
      if (deepest != null) {
        problems.add(
            "Column "
                + deepest
                + " of "
                + describe(struct)
                + " nests more than "
                + MAX_RECORD_DEPTH
                + " levels of RECORD, BigQuery's limit (nested structs, unions and maps, and a"
                + " list, set or map inside another, each add one): flatten a level in the IDL");
      }
    }
    if (columns.isEmpty()) {
      problems.add(
          "The "
              + describe(struct)
              + " has no fields and no metadata column is on, and a BigQuery table needs a"
              + " column: give the struct a field, or add a metadata column (for example"
              + " --includePublishTime)");
    }
    return problems;
  }

  /** Names within each struct, at every depth; {@code seen} stops at a struct met before. */
  private static void fieldNames(ThriftStruct struct, List<String> problems, Set<String> seen) {
    if (!seen.add(struct.qualifiedName())) {
      return;
    }
    Map<String, String> byFoldedName = new HashMap<>();
    for (ThriftField field : struct.fields()) {
      String name = field.name();
      if (!NAME.matcher(name).matches()) {
        problems.add(
            "Field "
                + name
                + " of "
                + describe(struct)
                + " is not a BigQuery column name (letters, digits and underscores, not starting"
                + " with a digit): rename the field in the IDL");
      } else if (name.length() > MAX_NAME_LENGTH) {
        problems.add(
            "Field "
                + name.substring(0, 40)
                + "... of "
                + describe(struct)
                + " has a name of "
                + name.length()
                + " characters; BigQuery allows "
                + MAX_NAME_LENGTH
                + ": rename the field in the IDL");
      }
      String other = byFoldedName.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
      if (other != null) {
        problems.add(
            "Fields "
                + other
                + " and "
                + name
                + " of "
                + describe(struct)
                + " differ only in case, and BigQuery column names ignore case: rename one in"
                + " the IDL");
      }
      nestedStructs(field.type(), problems, seen);
    }
  }

  private static void nestedStructs(ThriftType type, List<String> problems, Set<String> seen) {
    if (type instanceof ThriftType.StructRef ref) {
      fieldNames(ref.struct(), problems, seen);
    } else if (type instanceof ThriftType.MapOf map) {
      nestedStructs(map.key(), problems, seen);
      nestedStructs(map.value(), problems, seen);
    } else if (type instanceof ThriftType.ListOf list) {
      nestedStructs(list.element(), problems, seen);
    } else if (type instanceof ThriftType.SetOf set) {
      nestedStructs(set.element(), problems, seen);
    }
  }

  /**
   * The path of the first column below {@code column} that lies deeper than {@link
   * #MAX_RECORD_DEPTH} RECORDs, or null.
   */
  private static @Nullable String deepestRecord(TableFieldSchema column, int depth, String path) {
    if (!ColumnShape.isRecord(column)) {
      return null;
    }
    if (depth > MAX_RECORD_DEPTH) {
      return path;
    }
    for (TableFieldSchema child : column.getFields()) {
      String deeper = deepestRecord(child, depth + 1, path + "." + child.getName());
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }

  private static String describe(ThriftStruct struct) {
    return (struct.isUnion() ? "union " : "struct ") + struct.qualifiedName();
  }
}
