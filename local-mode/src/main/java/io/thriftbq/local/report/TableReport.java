package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.progress.Percentiles;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.result.TypeMix;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * With many event types: the report's figures per event table and their total. Published counts
 * come from the generator's (deterministic) choice of each event's struct; written, missing and
 * duplicates from the {@code event_id} values read back from each table; dead letters from the
 * dead-letter table's {@code struct} column; p99 from the hand-off latency probe, per table.
 *
 * @param misplaced generated event ids found in a table other than their struct's
 */
public record TableReport(List<Row> rows, Row total, List<Long> misplaced) {

  /**
   * One table's figures.
   *
   * @param deadLetters rows of the dead-letter table naming this struct (DECODE, CONVERT, WRITE);
   *     for the total, every dead letter (UNPACK and ROUTE too)
   * @param p99Millis hand-off latency p99 (after the warm-up when it has samples), null if none
   */
  public record Row(
      String struct,
      String table,
      long published,
      long written,
      long rows,
      long missing,
      long duplicateIds,
      long duplicateExtraRows,
      long deadLetters,
      @Nullable Long p99Millis) {}

  /** Null unless the run had many event types. */
  static @Nullable TableReport of(RunResult result, LocalReport report) {
    TypeMix mix = result.typeMix();
    if (mix == null) {
      return null;
    }
    List<Row> rows = new ArrayList<>();
    List<Long> misplaced = new ArrayList<>();
    Set<Long> missing = Set.copyOf(report.missingIds);
    long[] totals = new long[7];
    for (String struct : mix.structs()) {
      String table = mix.tables().get(struct);
      EventTableContents contents =
          result.eventTables().stream()
              .filter(t -> t.table().equals(table))
              .findFirst()
              .orElse(EventTableContents.missing(table));
      long published = 0;
      long missingHere = 0;
      for (long id = 0; id < report.eventsPublished; id++) {
        if (mix.structOf(id).equals(struct)) {
          published++;
          if (missing.contains(id)) {
            missingHere++;
          }
        }
      }
      for (long id : contents.eventIds()) {
        if (id < 0 || id >= mix.typeOfEvent().length || !mix.structOf(id).equals(struct)) {
          misplaced.add(id);
        }
      }
      long extra = contents.rows() - contents.rowsWithoutEventId() - contents.eventIds().size();
      long dead = 0;
      for (DeadLetterContents d : result.deadLetterTables()) {
        dead += d.byStruct().getOrDefault(struct, 0L);
      }
      Row row =
          new Row(
              struct,
              table,
              published,
              contents.eventIds().size(),
              contents.rows(),
              missingHere,
              contents.duplicates().size(),
              extra,
              dead,
              p99(result, table));
      rows.add(row);
      long[] add = {
        published, row.written(), row.rows(), missingHere, row.duplicateIds(), extra, dead
      };
      for (int i = 0; i < totals.length; i++) {
        totals[i] += add[i];
      }
    }
    Row total =
        new Row(
            "",
            "total",
            totals[0],
            totals[1],
            totals[2],
            totals[3],
            totals[4],
            totals[5],
            report.deadLetters,
            p99(
                report.steadyLatencySamples.length > 0
                    ? report.steadyLatencySamples
                    : report.latencySamples));
    return new TableReport(rows, total, misplaced);
  }

  private static @Nullable Long p99(RunResult result, String table) {
    long[] steady = result.steadyLatencyByTable().getOrDefault(table, new long[0]);
    return p99(steady.length > 0 ? steady : result.latencyByTable().getOrDefault(table, null));
  }

  private static @Nullable Long p99(long @Nullable [] samples) {
    return samples == null || samples.length == 0 ? null : new Percentiles(samples).percentile(99);
  }

  /** The per-table lines of the text report. */
  String format() {
    StringBuilder s = new StringBuilder();
    String totalName = "total (dead letters: all stages)";
    int width =
        Math.max(totalName.length(), rows.stream().mapToInt(r -> name(r).length()).max().orElse(0));
    s.append(
        String.format(
            "Per table         %-" + width + "s %9s %9s %8s %10s %12s %7s%n",
            "table (struct)",
            "published",
            "written",
            "missing",
            "duplicates",
            "dead letters",
            "p99 ms"));
    for (Row row : rows) {
      s.append(line(row, width, name(row)));
    }
    s.append(line(total, width, totalName));
    return s.toString();
  }

  private static String name(Row row) {
    return row.table() + " (" + row.struct() + ")";
  }

  private static String line(Row row, int width, String name) {
    return String.format(
        "                  %-" + width + "s %9d %9d %8d %10s %12d %7s%n",
        name,
        row.published(),
        row.written(),
        row.missing(),
        row.duplicateIds() + "/" + row.duplicateExtraRows(),
        row.deadLetters(),
        row.p99Millis() == null ? "-" : row.p99Millis().toString());
  }

  /** The {@code tables} array and {@code tables_total} of the JSON report. */
  void putJson(ObjectNode root) {
    ArrayNode array = root.putArray("tables");
    for (Row row : rows) {
      put(array.addObject(), row);
    }
    put(root.putObject("tables_total"), total);
    root.put("tables_how", HOW);
    ArrayNode wrong = root.putArray("misplaced_event_ids");
    misplaced.stream().limit(20).forEach(wrong::add);
  }

  private static void put(ObjectNode node, Row row) {
    if (!row.struct().isEmpty()) {
      node.put("struct", row.struct());
    }
    node.put("table", row.table());
    node.put("published", row.published());
    node.put("written_distinct_event_ids", row.written());
    node.put("rows", row.rows());
    node.put("missing", row.missing());
    node.put("duplicate_ids", row.duplicateIds());
    node.put("duplicate_extra_rows", row.duplicateExtraRows());
    node.put("dead_letters", row.deadLetters());
    if (row.p99Millis() != null) {
      node.put("latency_p99_ms", row.p99Millis());
    }
  }

  static final String HOW =
      "published: events the generator chose this struct for (deterministic by seed); written:"
          + " distinct event_id attribute values in the struct's table; missing: events of the"
          + " struct neither in any table nor dead-lettered; duplicates: ids in more than one row"
          + " / extra rows; dead letters: rows of the dead-letter table whose struct column names"
          + " it (the total counts every dead letter, UNPACK and ROUTE included); p99: hand-off"
          + " latency of the table's rows, after the warm-up when there are such samples";
}
