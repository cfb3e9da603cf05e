package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.stack.EmulatorStack;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** What the end-to-end tests read back from the BigQuery emulator's tables. */
final class EndToEndTables {
  /** Where a Pub/Sub run's rows keep their message attributes, {@code event_id} among them. */
  private static final String PUBSUB_ATTRIBUTES = MetadataColumn.ATTRIBUTES.columnName();

  private EndToEndTables() {}

  static long count(EmulatorStack stack, String table) throws Exception {
    return stack.bigquery().queryLong("SELECT COUNT(*) FROM " + TableQueries.qualified(table));
  }

  /** The row count, or 0 while the table does not exist yet or the emulator is restarting. */
  static long countOrZero(EmulatorStack stack, String table) {
    try {
      return count(stack, table);
    } catch (Exception e) {
      return 0;
    }
  }

  /**
   * The rows a killed job left in {@code table}: counted a second after the kill, when the emulator
   * has answered what the job sent before it died. A count taken just before the kill can be a
   * flush short: a job working off a backlog flushes hundreds of rows at a time.
   */
  static long rowsLeftByKilledJob(EmulatorStack stack, String table) throws Exception {
    Thread.sleep(1000);
    return count(stack, table);
  }

  /**
   * Rows per {@code event_id} once every event is in, read 3 s later: a late duplicate (a retried
   * append, a redelivered message) gets the chance to show before the test counts duplicates.
   */
  static Map<Long, Long> idCountsOnceSettled(EmulatorStack stack, String table) throws Exception {
    return idCountsOnceSettled(stack, table, PUBSUB_ATTRIBUTES);
  }

  /** As above, reading event ids from the attributes column {@code attributesColumn}. */
  static Map<Long, Long> idCountsOnceSettled(
      EmulatorStack stack, String table, String attributesColumn) throws Exception {
    Thread.sleep(3000);
    return idCounts(stack, table, attributesColumn);
  }

  /**
   * A job resumed from a killed job's checkpoint writes again at most what the dead job wrote: the
   * restored writer has its streams and offsets, so what the checkpoint covers is not written
   * again. Zero is not the bound: rows appended and flushed between that checkpoint and the crash
   * are written again, because Beam's Storage Write sink does not ask Flink for stable input
   * (RELIABILITY.md). A job working off a backlog flushes hundreds of rows at a time and its
   * checkpoints wait behind the backlog, so the bound is every row the dead job left, counted after
   * it died ({@link #rowsLeftByKilledJob}): a count taken just before the kill was exceeded once
   * (Kafka: 384 duplicates against 242 rows seen before the kill).
   */
  static void assertResumeReplaysAtMostTheDeadJob(long duplicates, long rowsByDeadJob) {
    assertThat(
        "duplicates after resuming: at most a replay of every row the dead job wrote",
        duplicates,
        lessThanOrEqualTo(rowsByDeadJob));
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
    return idCounts(stack, table, PUBSUB_ATTRIBUTES);
  }

  /** Rows per {@code event_id}, read from the attributes column {@code attributesColumn}. */
  static Map<Long, Long> idCounts(EmulatorStack stack, String table, String attributesColumn)
      throws Exception {
    Map<Long, Long> ids = new HashMap<>();
    rowsPerAttribute(stack, table, EventAttributes.EVENT_ID, attributesColumn)
        .forEach((id, rows) -> ids.put(Long.parseLong(id), rows));
    return ids;
  }

  /** Rows per value of the attribute {@code key} (rows without it are not counted). */
  static Map<String, Long> rowsPerAttribute(EmulatorStack stack, String table, String key)
      throws Exception {
    return rowsPerAttribute(stack, table, key, PUBSUB_ATTRIBUTES);
  }

  /** Rows per value of {@code key} in the attributes column {@code attributesColumn}. */
  static Map<String, Long> rowsPerAttribute(
      EmulatorStack stack, String table, String key, String attributesColumn) throws Exception {
    Map<String, Long> rows = new HashMap<>();
    for (Map<String, JsonNode> row :
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id, COUNT(*) AS n FROM "
                    + TableQueries.qualified(table)
                    + " AS t, UNNEST(t."
                    + attributesColumn
                    + ") AS a WHERE a.key = '"
                    + key
                    + "' GROUP BY a.value")) {
      rows.put(row.get("id").asText(), row.get("n").asLong());
    }
    return rows;
  }

  /** The event ids in [{@code from}, {@code to}) that have no row in {@code ids}. */
  static List<Long> missing(Map<Long, Long> ids, long from, long to) {
    List<Long> missing = new ArrayList<>();
    for (long id = from; id < to; id++) {
      if (!ids.containsKey(id)) {
        missing.add(id);
      }
    }
    return missing;
  }

  /** Rows beyond the first of each event id. */
  static long duplicates(Map<Long, Long> ids) {
    return ids.values().stream().mapToLong(n -> n - 1).sum();
  }

  /**
   * Polls once a second until {@code published} is true and every event id in [{@code from}, {@code
   * to}) has a row; returns {@link System#nanoTime()} then, or -1 at {@code deadlineNanos}.
   */
  static long waitUntilWritten(
      EmulatorStack stack,
      String table,
      long from,
      long to,
      BooleanSupplier published,
      long deadlineNanos)
      throws Exception {
    return waitUntilWritten(stack, table, PUBSUB_ATTRIBUTES, from, to, published, deadlineNanos);
  }

  /** As above, reading event ids from the attributes column {@code attributesColumn}. */
  static long waitUntilWritten(
      EmulatorStack stack,
      String table,
      String attributesColumn,
      long from,
      long to,
      BooleanSupplier published,
      long deadlineNanos)
      throws Exception {
    while (System.nanoTime() < deadlineNanos) {
      if (published.getAsBoolean()
          && missing(idCounts(stack, table, attributesColumn), from, to).isEmpty()) {
        return System.nanoTime();
      }
      Thread.sleep(1000);
    }
    return -1;
  }

  /** {@code at - since} in seconds for a report line, or "never" when {@code at} is -1. */
  static String seconds(long at, long since) {
    return at < 0 ? "never" : String.format("%.1f s", (at - since) / 1e9);
  }
}
