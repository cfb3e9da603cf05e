package io.thriftbq.local.run;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.progress.LandedRows;
import io.thriftbq.local.stack.BigQueryEmulator;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.IOException;

/** The queries that count a run's rows in the BigQuery emulator, over all its tables. */
public final class TableQueries implements LandedRows {
  // The stack, not its emulator: a test may restart the emulator mid-run.
  private final EmulatorStack stack;
  private final RunTables tables;
  private final String attributesColumn;

  /**
   * @param attributesColumn the column holding each row's attributes, {@code event_id} among them
   */
  public TableQueries(EmulatorStack stack, RunTables tables, String attributesColumn) {
    this.stack = stack;
    this.tables = tables;
    this.attributesColumn = attributesColumn;
  }

  /** {@code table} in the local dataset, quoted for SQL. */
  public static String qualified(String table) {
    return "`" + LocalRunConfig.DATASET + "." + table + "`";
  }

  /** Distinct {@code event_id} attribute values in an event table. */
  static String distinctIdsSql(String table, String attributesColumn) {
    return "SELECT COUNT(DISTINCT a.value) FROM "
        + qualified(table)
        + " AS t, UNNEST(t."
        + attributesColumn
        + ") AS a WHERE a.key = 'event_id'";
  }

  /** Rows in {@code table}, 0 when it does not exist yet: the once-a-second progress poll. */
  static long countRows(BigQueryEmulator bigquery, String table) throws IOException {
    return bigquery.tableRows(LocalRunConfig.DATASET, table);
  }

  @Override
  public long rows() throws IOException {
    long total = 0;
    for (String table : tables.eventTables()) {
      total += countRows(stack.bigquery(), table);
    }
    return total;
  }

  @Override
  public long deadLetters() throws IOException {
    long total = 0;
    for (String table : tables.deadLetterTables()) {
      total += countRows(stack.bigquery(), table);
    }
    return total;
  }

  @Override
  public long eventIdSum() throws IOException {
    long total = 0;
    for (String table : tables.eventTables()) {
      total +=
          stack
              .bigquery()
              .queryLong(
                  "SELECT COALESCE(SUM(CAST(a.value AS INT64)), 0) FROM "
                      + qualified(table)
                      + " AS t, UNNEST(t."
                      + attributesColumn
                      + ") AS a WHERE a.key = 'event_id'");
    }
    return total;
  }

  @Override
  public long distinctEventIds() throws IOException {
    long total = 0;
    for (String table : tables.eventTables()) {
      total += stack.bigquery().queryLong(distinctIdsSql(table, attributesColumn));
    }
    return total;
  }
}
