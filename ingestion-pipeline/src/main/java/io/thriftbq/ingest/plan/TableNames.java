package io.thriftbq.ingest.plan;

import com.google.api.services.bigquery.model.TableReference;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The table of each event type and the dead-letter table, from {@code --outputTable} (with {@code
 * {struct}} for several types), {@code --tableForStruct} and {@code --deadLetterTable}, each
 * checked so a mistake fails the launch naming the flag to change.
 *
 * @param eventTables one table per type, in the types' order
 * @param deadLetterTable the one dead-letter table of the job
 */
record TableNames(List<String> eventTables, String deadLetterTable) {

  /**
   * The tables, or null when they cannot be known (the problems say why).
   *
   * @param types the job's event types, or null when they could not be chosen (the problem is
   *     reported already; the tables are then checked as for one type)
   */
  static @Nullable TableNames resolve(
      IngestionOptions options, @Nullable EventTypes types, List<String> problems) {
    String output = options.getOutputTable();
    if (!isSet(output)) {
      problems.add("--outputTable is empty: set it to PROJECT:DATASET.TABLE or DATASET.TABLE");
      return null;
    }
    output = output.trim();
    boolean several = types != null && !types.isSingle();
    Map<String, String> overrides = overrides(options, types, several, problems);
    if (overrides == null) {
      return null;
    }
    List<String> tables = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<EventTypes.EventType> list = types == null ? List.of() : types.types();
    if (list.isEmpty()) {
      tables.add(output);
    }
    for (EventTypes.EventType type : list) {
      String table = overrides.get(type.name());
      if (table == null) {
        if (several && !output.contains(DeadLetterTables.STRUCT_PLACEHOLDER)) {
          missing.add(type.name());
          continue;
        }
        table = output.replace(DeadLetterTables.STRUCT_PLACEHOLDER, type.tableName());
      }
      tables.add(table);
    }
    if (!missing.isEmpty()) {
      problems.add(
          "--outputTable="
              + output
              + " has no "
              + DeadLetterTables.STRUCT_PLACEHOLDER
              + ", but each of the structs "
              + String.join(", ", missing)
              + " needs its own table: write for example PROJECT:DATASET.events_"
              + DeadLetterTables.STRUCT_PLACEHOLDER
              + ", or give each a table with --tableForStruct=STRUCT=TABLE,...");
      return null;
    }
    List<TableReference> parsed = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      String option =
          overrides.containsKey(list.isEmpty() ? "" : list.get(i).name())
              ? "--tableForStruct"
              : "--outputTable";
      parsed.add(parse(tables.get(i), option, problems));
    }
    String deadLetterTable =
        Objects.requireNonNull(DeadLetterTables.resolve(options.getDeadLetterTable(), output));
    TableReference deadLetter = parse(deadLetterTable, "--deadLetterTable", problems);
    if (parsed.contains(null) || deadLetter == null) {
      return null;
    }
    Map<String, String> byTable = new LinkedHashMap<>();
    for (int i = 0; i < parsed.size(); i++) {
      String key = key(options, parsed.get(i));
      String name = list.isEmpty() ? output : list.get(i).name();
      String other = byTable.put(key, name);
      if (other != null) {
        problems.add(
            "The structs "
                + other
                + " and "
                + name
                + " would both write to "
                + tables.get(i)
                + ": give each its own table (--outputTable with "
                + DeadLetterTables.STRUCT_PLACEHOLDER
                + ", or --tableForStruct)");
      }
      if (key.equals(key(options, deadLetter))) {
        problems.add(
            "--deadLetterTable is the output table "
                + tables.get(i)
                + ": dead letters have their own schema; name another table or leave"
                + " --deadLetterTable unset for "
                + DeadLetterTables.resolve(null, output));
      }
    }
    return new TableNames(tables, deadLetterTable);
  }

  /** {@code --tableForStruct} as struct name → table; null after a problem. */
  private static @Nullable Map<String, String> overrides(
      IngestionOptions options,
      @Nullable EventTypes types,
      boolean several,
      List<String> problems) {
    Map<String, String> overrides = new LinkedHashMap<>();
    if (!isSet(options.getTableForStruct())) {
      return overrides;
    }
    if (!several) {
      problems.add(
          "--tableForStruct names tables for several structs, but this job ingests one: set its"
              + " table with --outputTable, or list the structs with --thriftStructs or"
              + " --thriftUnion");
      return null;
    }
    for (String pair : ThriftSources.splitList(options.getTableForStruct())) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? "" : pair.substring(0, equals).trim();
      String table = equals < 0 ? "" : pair.substring(equals + 1).trim();
      if (name.isEmpty() || table.isEmpty()) {
        problems.add(
            "--tableForStruct: "
                + pair
                + " is not STRUCT=TABLE (for example Order=my-project:shop.orders)");
        return null;
      }
      EventTypes.EventType type = types.byName(name);
      if (type == null) {
        problems.add(
            "--tableForStruct: "
                + name
                + " is not a struct of this job; it ingests "
                + types.allowedNames());
        return null;
      }
      if (overrides.put(type.name(), table) != null) {
        problems.add("--tableForStruct names " + type.name() + " twice: give each struct once");
        return null;
      }
    }
    return overrides;
  }

  private static @Nullable TableReference parse(String spec, String option, List<String> problems) {
    try {
      return BigQueryHelpers.parseTableSpec(spec);
    } catch (IllegalArgumentException e) {
      problems.add(
          option
              + "="
              + spec
              + " is not a table: use PROJECT:DATASET.TABLE, PROJECT.DATASET.TABLE or"
              + " DATASET.TABLE");
      return null;
    }
  }

  /** The table's full name, with the default project where the spec has none. */
  private static String key(IngestionOptions options, TableReference table) {
    String defaultProject =
        isSet(options.getBigQueryProject()) ? options.getBigQueryProject() : options.getProject();
    String project = isSet(table.getProjectId()) ? table.getProjectId() : defaultProject;
    return project + ":" + table.getDatasetId() + "." + table.getTableId();
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
