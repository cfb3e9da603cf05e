package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.Clustering;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.api.services.bigquery.model.TimePartitioning;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Time partitioning and clustering of a created output table, parsed from the options and checked
 * against the table schema, so a typo fails the launch instead of the table creation hours later.
 *
 * @param timePartitioning null for an unpartitioned table
 * @param clustering null for an unclustered table
 */
public record TableLayout(
    @Nullable TimePartitioning timePartitioning, @Nullable Clustering clustering) {

  public static final TableLayout NONE = new TableLayout(null, null);

  static final Set<String> PARTITION_TYPES = Set.of("DAY", "HOUR", "MONTH", "YEAR");
  static final int MAX_CLUSTERING_FIELDS = 4;

  // BigQuery clusters only on top-level, non-repeated columns of these types.
  private static final Set<String> CLUSTERABLE_TYPES =
      Set.of(
          "STRING",
          "INTEGER",
          "INT64",
          "BOOLEAN",
          "BOOL",
          "TIMESTAMP",
          "DATE",
          "DATETIME",
          "NUMERIC",
          "BIGNUMERIC",
          "GEOGRAPHY");

  private static final Set<String> PARTITIONABLE_TYPES = Set.of("TIMESTAMP", "DATE", "DATETIME");

  public boolean isEmpty() {
    return timePartitioning == null && clustering == null;
  }

  /**
   * Parses {@code --partitionType}, {@code --partitionField} and {@code --clusteringFields}.
   *
   * @throws IllegalArgumentException naming the option to change when a value is malformed or names
   *     a column the table does not have or cannot be partitioned or clustered by
   */
  public static TableLayout parse(
      @Nullable String partitionType,
      @Nullable String partitionField,
      @Nullable String clusteringFields,
      TableSchema schema) {
    TimePartitioning partitioning = null;
    String type = blankToNull(partitionType);
    String field = blankToNull(partitionField);
    if (type == null && field != null) {
      throw new IllegalArgumentException(
          "--partitionField="
              + field
              + " needs --partitionType (one of "
              + String.join(", ", sorted(PARTITION_TYPES))
              + ")");
    }
    if (type != null) {
      String normalized = type.toUpperCase(Locale.ROOT);
      if (!PARTITION_TYPES.contains(normalized)) {
        throw new IllegalArgumentException(
            "--partitionType="
                + type
                + " is not one of "
                + String.join(", ", sorted(PARTITION_TYPES)));
      }
      partitioning = new TimePartitioning().setType(normalized);
      if (field != null) {
        TableFieldSchema column = topLevelColumn(schema, field, "--partitionField");
        String columnType = column.getType().toUpperCase(Locale.ROOT);
        if (!PARTITIONABLE_TYPES.contains(columnType) || isRepeated(column)) {
          throw new IllegalArgumentException(
              "--partitionField="
                  + field
                  + " is a "
                  + describe(column)
                  + " column; BigQuery partitions only by a TIMESTAMP, DATE or DATETIME column"
                  + " (enable --includePublishTime and use "
                  + "_publish_time, or leave --partitionField empty to partition by ingestion"
                  + " time)");
        }
        partitioning.setField(column.getName());
      }
    }

    Clustering clustering = null;
    String fields = blankToNull(clusteringFields);
    if (fields != null) {
      Set<String> names = new LinkedHashSet<>();
      for (String name : fields.split(",", -1)) {
        String trimmed = name.trim();
        if (trimmed.isEmpty()) {
          throw new IllegalArgumentException(
              "--clusteringFields=" + fields + " has an empty name: list columns like a,b,c");
        }
        if (!names.add(trimmed)) {
          throw new IllegalArgumentException(
              "--clusteringFields=" + fields + " names " + trimmed + " twice");
        }
      }
      if (names.size() > MAX_CLUSTERING_FIELDS) {
        throw new IllegalArgumentException(
            "--clusteringFields="
                + fields
                + " names "
                + names.size()
                + " columns; BigQuery allows at most "
                + MAX_CLUSTERING_FIELDS);
      }
      List<String> resolved = new ArrayList<>();
      for (String name : names) {
        TableFieldSchema column = topLevelColumn(schema, name, "--clusteringFields");
        if (isRepeated(column)
            || !CLUSTERABLE_TYPES.contains(column.getType().toUpperCase(Locale.ROOT))) {
          throw new IllegalArgumentException(
              "--clusteringFields: column "
                  + name
                  + " is a "
                  + describe(column)
                  + " column; BigQuery clusters only by top-level, non-repeated STRING, INTEGER,"
                  + " BOOLEAN, TIMESTAMP, DATE, DATETIME, NUMERIC or GEOGRAPHY columns");
        }
        resolved.add(column.getName());
      }
      clustering = new Clustering().setFields(resolved);
    }
    return new TableLayout(partitioning, clustering);
  }

  private static TableFieldSchema topLevelColumn(TableSchema schema, String name, String option) {
    for (TableFieldSchema column : schema.getFields()) {
      if (column.getName().equals(name)) {
        return column;
      }
    }
    List<String> names = new ArrayList<>();
    for (TableFieldSchema column : schema.getFields()) {
      names.add(column.getName());
    }
    throw new IllegalArgumentException(
        option
            + " names "
            + name
            + ", which is not a top-level column of the output table (columns: "
            + String.join(", ", names)
            + "); metadata columns such as _publish_time exist only when their --include option"
            + " is true");
  }

  private static boolean isRepeated(TableFieldSchema column) {
    return "REPEATED".equalsIgnoreCase(column.getMode());
  }

  private static String describe(TableFieldSchema column) {
    return (isRepeated(column) ? "REPEATED " : "") + column.getType();
  }

  private static List<String> sorted(Set<String> values) {
    List<String> list = new ArrayList<>(values);
    list.sort(null);
    return list;
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
