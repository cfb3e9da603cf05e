package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.profile.ComponentTable;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.progress.Throughput;
import io.thriftbq.local.result.ChangeStateCheck;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.IdFieldCheck;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.LoopbackHttp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a local run published, what arrived in the emulator's tables, and how fast: built from the
 * run's {@link RunResult} alone. Everything about rows was queried from the BigQuery emulator after
 * the run, not taken from the pipeline's own counters (which are reported next to it as a
 * cross-check).
 */
public final class LocalReport {
  /** The latency interval, in words, as printed and written to JSON. */
  public static final String LATENCY_INTERVAL =
      "from the event's creation (event_time_ms attribute, set just before the event is"
          + " serialized for publishing) to the moment its row is sent to the BigQuery emulator"
          + " (Storage Write AppendRows or insertAll request, recorded in this JVM). It includes"
          + " BigQueryIO's batching before the append (for exactly-once steps up to one"
          + " triggering period); it excludes the emulator's processing of the request and, for"
          + " exactly-once steps, the flush/commit that follows the append";

  // Public, final-after-build fields: the tests assert on them directly.
  public int step;
  public boolean exactlyOnce;
  public long eventsRequested;
  public long eventsPublished;
  public int malformedPublished;
  public long rowsInTable;
  public long distinctEventIds;
  public long rowsWithoutEventId;

  /** Event id → number of rows with it, for ids seen more than once. */
  public final Map<Long, Long> duplicates = new TreeMap<>();

  public final List<Long> missingIds = new ArrayList<>();

  /**
   * With {@code --id-field}: generated values absent from the table, and table values not
   * generated.
   */
  public final List<String> idFieldMissing = new ArrayList<>();

  public final List<String> idFieldUnexpected = new ArrayList<>();

  boolean idFieldChecked;
  public long deadLetters;
  public final Map<String, Long> deadLettersByStage = new TreeMap<>();

  /** Malformed message id → stage found in the dead-letter table. */
  public final Map<String, String> malformedStages = new TreeMap<>();

  public final List<String> malformedMissing = new ArrayList<>();
  public final List<String> malformedWrongStage = new ArrayList<>();

  /** With many types: malformed messages whose dead letter names another struct than expected. */
  public final List<String> malformedWrongStruct = new ArrayList<>();

  /** With many types: each event table's figures and the total; else null. */
  TableReport tables;

  /** Valid generated events that were dead-lettered: id → stage. */
  public final Map<Long, String> validEventsDeadLettered = new TreeMap<>();

  public final List<String> problems = new ArrayList<>();
  public final List<String> warnings = new ArrayList<>();

  /** With {@code --changes}: the table's final state against the expected one; else null. */
  public ChangeStateCheck changeState;

  public long[] latencySamples = new long[0];

  /** Latencies of events created after the warm-up ({@link SteadyWindow#LATENCY_WARM_UP}). */
  public long[] steadyLatencySamples = new long[0];

  /** What the run was configured to do, as the report's {@code configuration} holds it. */
  public RunConfiguration configuration;

  /** The measured figures: throughput, costs, latency, the profile. */
  public ReportFigures figures;

  public ObjectNode json;

  /** The report on {@code result}: totals over the run's tables, what is missing, the verdict. */
  public static LocalReport of(RunResult result) {
    LocalReport report = new LocalReport();
    LocalRunConfig config = result.config();
    report.step = config.step().number();
    report.exactlyOnce = config.step().exactlyOnce();
    report.eventsRequested = config.events();
    report.eventsPublished = result.eventsPublished();
    report.malformedPublished = result.malformed().size();
    report.latencySamples = result.latencySamples();
    report.steadyLatencySamples = result.steadyLatencySamples();
    report.problems.addAll(result.problems());
    report.changeState = result.changeState();
    if (result.waitedForPipelineMillis() == RunResult.GAVE_UP_WAITING) {
      report.warnings.add(
          "the pipeline had written nothing when the publisher, after its first event, stopped"
              + " waiting for it: the other events were published anyway, and queued behind the"
              + " pipeline's start-up");
    }

    Set<Long> seen = new HashSet<>();
    for (EventTableContents table : result.eventTables()) {
      report.rowsInTable += table.rows();
      report.rowsWithoutEventId += table.rowsWithoutEventId();
      seen.addAll(table.eventIds());
      table.duplicates().forEach((id, n) -> report.duplicates.merge(id, n, Long::sum));
    }
    report.distinctEventIds = seen.size();
    Map<String, String> malformedStructs = new TreeMap<>();
    for (DeadLetterContents table : result.deadLetterTables()) {
      malformedStructs.putAll(table.malformedStructs());
      report.deadLetters += table.rows();
      table.byStage().forEach((stage, n) -> report.deadLettersByStage.merge(stage, n, Long::sum));
      table
          .malformedStages()
          .forEach((id, stage) -> report.malformedStages.merge(id, stage, (x, y) -> x + "," + y));
      report.validEventsDeadLettered.putAll(table.validEvents());
      table
          .unreadableEventIds()
          .forEach(id -> report.warnings.add("dead letter with event_id " + id));
    }
    for (MalformedMessages.Malformed bad : result.malformed()) {
      String stage = report.malformedStages.get(bad.id());
      if (stage == null) {
        report.malformedMissing.add(bad.id());
      } else if (!stage.equals(bad.expectedStage().name())) {
        report.malformedWrongStage.add(
            bad.id() + " (" + bad.kind() + "): " + stage + ", expected " + bad.expectedStage());
      }
      if (stage != null && result.typeMix() != null) {
        String want = bad.expectedStruct() == null ? "" : bad.expectedStruct();
        String got = malformedStructs.getOrDefault(bad.id(), "");
        if (!want.equals(got)) {
          report.malformedWrongStruct.add(
              bad.id() + " (" + bad.kind() + "): struct '" + got + "', expected '" + want + "'");
        }
      }
    }
    // A change stream's later changes replace earlier rows: the final state is its check.
    for (long id = 0; report.changeState == null && id < config.events(); id++) {
      if (!seen.contains(id) && !report.validEventsDeadLettered.containsKey(id)) {
        report.missingIds.add(id);
      }
    }
    IdFieldCheck idField = result.idField();
    if (idField != null) {
      report.idFieldChecked = true;
      report.idFieldMissing.addAll(idField.missing());
      report.idFieldUnexpected.addAll(idField.unexpected());
    }
    report.tables = TableReport.of(result, report);
    report.judge(idField);
    report.configuration = RunConfiguration.of(result);
    report.figures = ReportFigures.of(result);
    report.json = ReportJson.of(report, result);
    return report;
  }

  /** The verdict: problems fail the run, warnings do not. */
  private void judge(@Nullable IdFieldCheck idField) {
    if (!missingIds.isEmpty()) {
      problems.add(missingIds.size() + " generated event(s) neither written nor dead-lettered");
    }
    if (!malformedMissing.isEmpty()) {
      problems.add(
          malformedMissing.size() + " malformed message(s) missing from the dead-letter table");
    }
    if (idField != null && !idFieldMissing.isEmpty()) {
      problems.add(
          idFieldMissing.size()
              + " generated value(s) of "
              + idField.field()
              + " missing from the table, e.g. "
              + idFieldMissing.subList(0, Math.min(5, idFieldMissing.size())));
    }
    if (idField != null && !idFieldUnexpected.isEmpty()) {
      problems.add(
          idFieldUnexpected.size()
              + " value(s) of "
              + idField.field()
              + " in the table that no generated event has, e.g. "
              + idFieldUnexpected.subList(0, Math.min(5, idFieldUnexpected.size())));
    }
    if (!duplicates.isEmpty()) {
      String text =
          duplicates.size()
              + " event id(s) written more than once ("
              + duplicateExtraRows()
              + " extra row(s))";
      if (exactlyOnce) {
        problems.add(text + " by an exactly-once step");
      } else {
        warnings.add(text + "; allowed at least once (change mode keeps one row per key)");
      }
    }
    if (changeState != null && !changeState.matches())
      problems.add(FinalStateReport.problem(changeState));
    if (tables != null && !tables.misplaced().isEmpty()) {
      problems.add(
          tables.misplaced().size()
              + " event(s) written to another struct's table, e.g. "
              + tables.misplaced().subList(0, Math.min(5, tables.misplaced().size())));
    }
    if (!malformedWrongStruct.isEmpty()) {
      warnings.add(
          malformedWrongStruct.size()
              + " malformed message(s) dead-lettered with an unexpected struct, e.g. "
              + malformedWrongStruct.get(0));
    }
    if (!malformedWrongStage.isEmpty()) {
      warnings.add(
          malformedWrongStage.size()
              + " malformed message(s) dead-lettered at an unexpected stage");
    }
    if (!validEventsDeadLettered.isEmpty()) {
      warnings.add(validEventsDeadLettered.size() + " valid generated event(s) were dead-lettered");
    }
    if (latencySamples.length == 0) {
      warnings.add("no latency samples were recorded");
    }
  }

  long duplicateExtraRows() {
    return rowsInTable - rowsWithoutEventId - distinctEventIds;
  }

  /** With many types: each event table's figures and the total; else null. */
  public TableReport tables() {
    return tables;
  }

  public boolean ok() {
    return problems.isEmpty();
  }

  public void writeJson(Path file) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    Files.writeString(
        file,
        LoopbackHttp.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json)
            + "\n");
  }

  /** What the events went through, from the source's names. */
  private static String sourceLine(RunConfiguration configuration) {
    Map<String, String> source = configuration.source();
    if (configuration.sourceKind() == SourceKind.KAFKA) {
      return String.format(
          "Kafka topic %s (%s partitions) at %s, consumer group %s",
          source.get(EventSource.TOPIC),
          source.get(EventSource.PARTITIONS),
          source.get(EventSource.BOOTSTRAP_SERVERS),
          source.get(EventSource.CONSUMER_GROUP));
    }
    return String.format(
        "Pub/Sub topic %s, subscription %s",
        source.get(EventSource.TOPIC), source.get(EventSource.SUBSCRIPTION));
  }

  /** The human-readable report. */
  public String format() {
    StringBuilder s = new StringBuilder();
    RunConfiguration c = configuration;
    s.append("\n=== Local run report: step ")
        .append(c.step())
        .append(" (")
        .append(c.writeMethod())
        .append(" + ")
        .append(c.format())
        .append(", ")
        .append(c.extraSetting())
        .append(") ===\n");
    s.append(String.format("Engine            %s%n", c.runner()));
    if (!c.build().isEmpty()) {
      s.append(String.format("Build             %s%n", new BuildIdentity(c.build()).describe()));
    }
    s.append(String.format("Source            %s%n", sourceLine(c)));
    s.append(
        String.format(
            "Published         %d events + %d malformed messages%n",
            eventsPublished, malformedPublished));
    s.append(
        String.format(
            "Rows in table     %d (%d distinct event ids)%n", rowsInTable, distinctEventIds));
    s.append(
        String.format(
            "Missing ids       %d%s%n",
            missingIds.size(),
            missingIds.isEmpty()
                ? ""
                : " e.g. " + missingIds.subList(0, Math.min(10, missingIds.size()))));
    if (idFieldChecked) {
      s.append(
          String.format(
              "Id field values   %d missing, %d unexpected%n",
              idFieldMissing.size(), idFieldUnexpected.size()));
    }
    s.append(FinalStateReport.line(changeState));
    s.append(
        String.format(
            "Duplicates        %d ids, %d extra rows%s%n",
            duplicates.size(),
            rowsInTable - rowsWithoutEventId - distinctEventIds,
            exactlyOnce ? " (exactly-once step: must be 0)" : " (at-least-once step: allowed)"));
    s.append(
        String.format(
            "Dead letters      %d %s; malformed found %d/%d%n",
            deadLetters, deadLettersByStage, malformedStages.size(), malformedPublished));
    if (tables != null) {
      s.append(tables.format());
    }
    ThroughputFigures t = figures.throughput();
    s.append(
        String.format(
            "Throughput        published %s events/s; ingestion %s rows/s sustained, %s rows/s"
                + " peak (%s), %s rows/s steady%n",
            orElse(t.publishEventsPerSec(), "?"),
            orElse(t.rowsPerSecSustained(), "?"),
            t.rowsPerSecPeak5s(),
            t.peakWindow(),
            orElse(t.rowsPerSecSteady(), "-")));
    if (t.publishWaitedForPipelineSec() != null) {
      s.append(
          String.format(
              "  publishing paced from the pipeline's first row, %s s after its first event%s%n",
              t.publishWaitedForPipelineSec(), configuration.rampUpPhrase()));
    } else if (!configuration.rampUpPhrase().isEmpty()) {
      s.append(String.format("  publishing paced%s%n", configuration.rampUpPhrase()));
    }
    s.append("  sustained: ").append(Throughput.SUSTAINED_HOW).append('\n');
    s.append("  peak: ").append(Throughput.PEAK_HOW).append('\n');
    s.append("  steady: ").append(SteadyWindow.RATE_HOW).append('\n');
    s.append(figures.costs().format());
    PipelineProfile profile = figures.profile();
    if (profile != null) {
      s.append(
          String.format(
              "Pipeline CPU      %s µs per event by component (%d execution samples; details in"
                  + " the JSON report, %s):%n",
              profile.window().usPerEvent(),
              profile.window().executionSamples(),
              PipelineProfile.KEY));
      s.append(ComponentTable.byGroup(profile.window()));
    }
    if (latencySamples.length > 0) {
      s.append(figures.latency().text(latencySamples.length, steadyLatencySamples.length));
    }
    s.append("  measured ").append(LATENCY_INTERVAL).append('\n');
    JsonNode rows = json.path("sample_rows");
    for (int i = 0; i < Math.min(3, rows.size()); i++) {
      String text = rows.get(i).toString();
      s.append("Sample row        ")
          .append(text.length() > 240 ? text.substring(0, 240) + "…" : text)
          .append('\n');
    }
    for (String w : warnings) {
      s.append("WARNING           ").append(w).append('\n');
    }
    for (String p : problems) {
      s.append("PROBLEM           ").append(p).append('\n');
    }
    s.append(ok() ? "Result            OK\n" : "Result            FAILED\n");
    return s.toString();
  }

  /** A figure as the JSON writes it, or {@code missing} when the run could not measure it. */
  private static String orElse(@Nullable Double figure, String missing) {
    return figure == null ? missing : figure.toString();
  }
}
