package io.thriftbq.local;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/** What the end-to-end tests read back from the BigQuery emulator's tables. */
final class EndToEndTables {
  private EndToEndTables() {}

  static long count(EmulatorStack stack, String table) throws Exception {
    return stack.bigquery().queryLong("SELECT COUNT(*) FROM " + LocalReport.qualified(table));
  }

  /** The row count, or 0 while the table does not exist yet or the emulator is restarting. */
  static long countOrZero(EmulatorStack stack, String table) {
    try {
      return count(stack, table);
    } catch (Exception e) {
      return 0;
    }
  }

  /** Waits until {@code table} holds at least {@code atLeast} rows; fails after {@code seconds}. */
  static long waitForRows(EmulatorStack stack, String table, long atLeast, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long rows = 0;
    while (System.nanoTime() < deadline) {
      rows = countOrZero(stack, table);
      if (rows >= atLeast) {
        return rows;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("only " + rows + " rows after " + seconds + " s");
  }

  /** Rows per {@code event_id} attribute (the sequence number the publisher gave the event). */
  static Map<Long, Long> idCounts(EmulatorStack stack, String table) throws Exception {
    Map<Long, Long> ids = new HashMap<>();
    for (Map<String, JsonNode> row :
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id, COUNT(*) AS n FROM "
                    + LocalReport.qualified(table)
                    + " AS t, UNNEST(t._attributes) AS a WHERE a.key = 'event_id'"
                    + " GROUP BY a.value")) {
      ids.put(Long.parseLong(row.get("id").asText()), Long.parseLong(row.get("n").asText()));
    }
    return ids;
  }
}
