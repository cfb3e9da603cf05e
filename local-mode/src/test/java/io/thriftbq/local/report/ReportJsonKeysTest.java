package io.thriftbq.local.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.profile.SplitFigures;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.ProgressSample;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.Test;

/**
 * The JSON report's keys and figures, pinned: {@code benchmarks/local-ab.sh}, {@code
 * benchmarks/sizing/collect.py} and {@code benchmarks/profile-local.sh} parse them by name, so a
 * renamed or dropped key breaks them silently.
 */
public class ReportJsonKeysTest {
  private static final String TABLE = "p:d.events";

  /** Every key path of the report of a run that measured everything; arrays as {@code []}. */
  private static final List<String> EVERY_KEY =
      List.of(
          "configuration",
          "configuration.build",
          "configuration.build.datagen-pipeline",
          "configuration.build.ingestion-pipeline",
          "configuration.build.local-mode",
          "configuration.build.thrift-common",
          "configuration.direct_runner_checks",
          "configuration.events",
          "configuration.exactly_once",
          "configuration.extra_setting",
          "configuration.format",
          "configuration.ingestion_args",
          "configuration.ingestion_args[]",
          "configuration.publisher",
          "configuration.ramp_up_sec",
          "configuration.rate_per_sec",
          "configuration.records_per_message",
          "configuration.runner",
          "configuration.seed",
          "configuration.source",
          "configuration.step",
          "configuration.step_settings_replaced_by_ingest_args",
          "configuration.subscription",
          "configuration.table",
          "configuration.tables",
          "configuration.tables[]",
          "configuration.tables[].kind",
          "configuration.tables[].name",
          "configuration.topic",
          "configuration.write_method",
          "costs",
          "costs.bigquery_emulator_cpu_sec_per_100k_events",
          "costs.bigquery_requests",
          "costs.bigquery_requests.count",
          "costs.bigquery_requests.how",
          "costs.bigquery_requests.rows_per_request",
          "costs.cpu_how",
          "costs.cpu_window",
          "costs.cpu_window.events",
          "costs.cpu_window.from_sec",
          "costs.cpu_window.to_sec",
          "costs.encoded_bytes_per_element",
          "costs.encoded_bytes_per_element_how",
          "costs.exchanged_bytes_by_sending_task",
          "costs.exchanged_bytes_by_sending_task.write",
          "costs.exchanged_bytes_how",
          "costs.exchanged_bytes_per_input_byte",
          "costs.pipeline_cpu_sec_per_100k_events",
          "costs.pubsub_emulator_cpu_sec_per_100k_events",
          "dead_letters",
          "dead_letters.by_stage",
          "dead_letters.by_stage.DECODE",
          "dead_letters.malformed_found",
          "dead_letters.malformed_missing",
          "dead_letters.malformed_wrong_stage",
          "dead_letters.total",
          "dead_letters.valid_events_dead_lettered",
          "latency_ms",
          "latency_ms.after_warmup",
          "latency_ms.after_warmup.max",
          "latency_ms.after_warmup.mean",
          "latency_ms.after_warmup.meaning",
          "latency_ms.after_warmup.p50",
          "latency_ms.after_warmup.p95",
          "latency_ms.after_warmup.p99",
          "latency_ms.after_warmup.samples",
          "latency_ms.by_creation_time",
          "latency_ms.by_creation_time[]",
          "latency_ms.by_creation_time[].created_from_sec",
          "latency_ms.by_creation_time[].max",
          "latency_ms.by_creation_time[].mean",
          "latency_ms.by_creation_time[].p50",
          "latency_ms.by_creation_time[].p95",
          "latency_ms.by_creation_time[].p99",
          "latency_ms.by_creation_time[].samples",
          "latency_ms.interval",
          "latency_ms.max",
          "latency_ms.mean",
          "latency_ms.p50",
          "latency_ms.p95",
          "latency_ms.p99",
          "latency_ms.pipeline_metric_end_to_end_latency_ms",
          "latency_ms.pipeline_metric_end_to_end_latency_ms.count",
          "latency_ms.pipeline_metric_end_to_end_latency_ms.max",
          "latency_ms.pipeline_metric_end_to_end_latency_ms.mean",
          "latency_ms.pipeline_metric_end_to_end_latency_ms.meaning",
          "latency_ms.pipeline_metric_end_to_end_latency_ms.min",
          "latency_ms.samples",
          "pipeline_counters",
          "pipeline_counters.rows_written",
          "problems",
          "published",
          "published.events",
          "published.malformed_messages",
          "sample_dead_letters",
          "sample_dead_letters[]",
          "sample_dead_letters[].stage",
          "sample_rows",
          "sample_rows[]",
          "sample_rows[].id",
          "status",
          "table",
          "table.distinct_event_ids",
          "table.duplicate_extra_rows",
          "table.duplicate_ids",
          "table.duplicate_sample",
          "table.missing_ids",
          "table.missing_sample",
          "table.rows",
          "table.rows_without_event_id",
          "throughput",
          "throughput.all_accounted_after_sec",
          "throughput.peak_how",
          "throughput.peak_window",
          "throughput.publish_events_per_sec",
          "throughput.publish_waited_for_pipeline_sec",
          "throughput.publish_wall_sec",
          "throughput.rows_per_sec_peak_5s",
          "throughput.rows_per_sec_steady",
          "throughput.rows_per_sec_sustained",
          "throughput.steady_how",
          "throughput.sustained_how",
          "throughput.writing_interval_sec",
          "timeline",
          "timeline[]",
          "timeline[].dead_letters",
          "timeline[].rows",
          "timeline[].t_ms",
          "timeline_start_epoch_ms",
          "warnings");

  @Test
  public void theReportKeepsEveryKeyTheBenchmarksRead() {
    assertEquals(EVERY_KEY, keyPaths(LocalReport.of(result("pubsub")).json));
  }

  @Test
  public void theFiguresAreWrittenUnderTheirKeys() {
    JsonNode json = LocalReport.of(result("pubsub")).json;
    JsonNode throughput = json.path("throughput");
    assertEquals(200.0, throughput.path("publish_events_per_sec").asDouble(), 0);
    assertEquals(5.0, throughput.path("publish_wall_sec").asDouble(), 0);
    assertEquals(6.5, throughput.path("publish_waited_for_pipeline_sec").asDouble(), 0);
    assertEquals(
        LocalRunConfig.DEFAULT_RAMP_UP_SEC,
        json.path("configuration").path("ramp_up_sec").asLong());
    assertEquals(40.0, throughput.path("rows_per_sec_sustained").asDouble(), 0);
    // the CPU window's 320 events over its 8 s
    assertEquals(40.0, throughput.path("rows_per_sec_steady").asDouble(), 0);
    assertEquals(27.0, throughput.path("all_accounted_after_sec").asDouble(), 0);
    JsonNode costs = json.path("costs");
    assertEquals(200.0, costs.path("pipeline_cpu_sec_per_100k_events").asDouble(), 0);
    assertEquals(50.0, costs.path("pubsub_emulator_cpu_sec_per_100k_events").asDouble(), 0);
    assertEquals(300.0, costs.path("bigquery_emulator_cpu_sec_per_100k_events").asDouble(), 0);
    assertEquals(13.0, costs.path("cpu_window").path("from_sec").asDouble(), 0);
    assertEquals(21.0, costs.path("cpu_window").path("to_sec").asDouble(), 0);
    assertEquals(320, costs.path("cpu_window").path("events").asLong());
    assertEquals(123.5, costs.path("encoded_bytes_per_element").asDouble(), 0);
    assertEquals(2.5, costs.path("exchanged_bytes_per_input_byte").asDouble(), 0);
    assertEquals(4, costs.path("bigquery_requests").path("count").asLong());
    assertEquals(250.0, costs.path("bigquery_requests").path("rows_per_request").asDouble(), 0);
    JsonNode latency = json.path("latency_ms");
    assertEquals(1000, latency.path("samples").asLong());
    assertEquals(500, latency.path("p50").asLong());
    assertEquals(990, latency.path("p99").asLong());
    assertEquals(1000, latency.path("max").asLong());
    assertEquals(500, latency.path("after_warmup").path("samples").asLong());
    assertEquals(750, latency.path("after_warmup").path("p50").asLong());
    assertEquals(995, latency.path("after_warmup").path("p99").asLong());
    JsonNode windows = latency.path("by_creation_time");
    assertEquals(3, windows.size());
    assertEquals(
        List.of(0L, 5L, 10L),
        List.of(
            windows.get(0).path("created_from_sec").asLong(),
            windows.get(1).path("created_from_sec").asLong(),
            windows.get(2).path("created_from_sec").asLong()));
    assertEquals(2, windows.get(0).path("samples").asLong());
    assertEquals(1000, windows.get(0).path("p99").asLong());
    assertEquals(0, windows.get(1).path("samples").asLong());
    assertFalse(windows.get(1).has("p99"));
    assertEquals(995, windows.get(2).path("p99").asLong());
    assertEquals(
        42.5, latency.path("pipeline_metric_end_to_end_latency_ms").path("mean").asDouble(), 0);
  }

  @Test
  public void aKafkaRunNamesTheBrokersCpu() {
    JsonNode costs = LocalReport.of(result("kafka")).json.path("costs");
    assertEquals(50.0, costs.path("kafka_broker_cpu_sec_per_100k_events").asDouble(), 0);
    assertFalse(costs.has("pubsub_emulator_cpu_sec_per_100k_events"));
  }

  @Test
  public void theTextReportShowsTheFigures() {
    String text = LocalReport.of(result("pubsub")).format();
    assertContains(text, "published 200.0 events/s; ingestion 40.0 rows/s sustained");
    assertContains(
        text,
        "publishing paced from the pipeline's first row, 6.5 s after its first event, rising to"
            + " 200/s over the first "
            + LocalRunConfig.DEFAULT_RAMP_UP_SEC
            + " s");
    assertContains(text, "40.0 rows/s steady");
    assertContains(text, "steady: " + SteadyWindow.RATE_HOW);
    assertContains(text, "pipeline 200.0 CPU-s, Pub/Sub emulator 50.0, BigQuery emulator 300.0");
    assertContains(text, "123.5 bytes per element; 2.5 bytes exchanged per input byte");
    assertContains(text, "to BigQuery: 4 requests, 250.0 rows per request");
    assertContains(text, "CPU window: 13.0 .. 21.0 s after the pipeline started, 320 events");
    assertContains(text, SteadyWindow.DEFINITION);
    assertContains(text, "p50 500  p95 950  p99 990  max 1000  (1000 samples)");
    assertContains(text, "p50 750  p95 975  p99 995  max 1000  (500 samples created >= 10 s");
    assertContains(text, "p99 by creation 0-5 s 1.00, 10-15 s 1.00 (s after the pipeline started)");
  }

  @Test
  public void figuresNotMeasuredAreLeftOut() {
    LocalReport report = LocalReport.of(result("pubsub", false));
    assertEquals(List.of("encoded_bytes_per_element_how"), keyPaths(report.json.path("costs")));
    assertEquals(
        List.of(
            "peak_how",
            "peak_window",
            "rows_per_sec_peak_5s",
            "rows_per_sec_sustained",
            "steady_how",
            "sustained_how",
            "writing_interval_sec"),
        keyPaths(report.json.path("throughput")));
    assertEquals(
        List.of(
            "after_warmup",
            "after_warmup.meaning",
            "after_warmup.samples",
            "by_creation_time",
            "interval",
            "samples"),
        keyPaths(report.json.path("latency_ms")));
    String text = report.format();
    assertContains(text, "published ? events/s; ingestion 40.0 rows/s sustained");
    assertContains(text, "pipeline ? CPU-s, Pub/Sub emulator ?, BigQuery emulator ?");
    assertContains(text, "? bytes per element; n/a bytes exchanged per input byte");
    StepFigures figures = StepFigures.of(LocalRunConfig.defaults().step(), report);
    assertEquals(0.0, figures.publishedPerSec(), 0);
    assertEquals(null, figures.pipelineCpuPer100k());
    assertEquals(null, figures.sourceCpuPer100k());
    assertEquals(null, figures.encodedBytesPerElement());
    assertEquals(null, figures.latencyP50Millis());
  }

  @Test
  public void aRunTooShortForASteadyWindowHasNoCpuFigures() {
    LocalReport report = LocalReport.of(result("pubsub", true, 100));
    JsonNode costs = report.json.path("costs");
    assertFalse(costs.has("pipeline_cpu_sec_per_100k_events"));
    assertFalse(costs.has("cpu_window"));
    assertEquals(CostFigures.CPU_HOW_TEXT, costs.path("cpu_how").asText());
    String text = report.format();
    assertContains(text, "pipeline - CPU-s, Pub/Sub emulator -, BigQuery emulator -");
    assertContains(text, "CPU window: none, the run was too short for a steady window");
    assertEquals(
        null, StepFigures.of(LocalRunConfig.defaults().step(), report).pipelineCpuPer100k());
  }

  /** The profile section's keys, which benchmarks/profile-local.sh's tables read. */
  private static final List<String> PROFILE_KEYS =
      List.of(
          "how",
          "jvm_setup",
          "second_half",
          "window",
          "window.components",
          "window.components[]",
          "window.components[].by_thread_name",
          "window.components[].component",
          "window.components[].group",
          "window.components[].samples",
          "window.components[].share",
          "window.components[].us_per_event",
          "window.cpu_sec",
          "window.deciding_frames",
          "window.deciding_frames.pubsub",
          "window.deciding_frames.pubsub[]",
          "window.deciding_frames.pubsub[].frame",
          "window.deciding_frames.pubsub[].share",
          "window.events",
          "window.excluded_cpu_sec",
          "window.execution_samples",
          "window.from_epoch_ms",
          "window.groups",
          "window.groups[]",
          "window.groups[].group",
          "window.groups[].share",
          "window.groups[].us_per_event",
          "window.seconds",
          "window.to_epoch_ms",
          "window.top_threads",
          "window.top_threads[]",
          "window.top_threads[].component",
          "window.top_threads[].cpu_sec",
          "window.top_threads[].name",
          "window.truncated_samples",
          "window.truncated_samples.pubsub",
          "window.us_per_event");

  @Test
  public void aProfiledRunWritesItsProfileUnderItsKeysAndReadsItBack() {
    LocalReport report = LocalReport.of(result("pubsub", true, 40, profile()));
    JsonNode json = report.json.path("pipeline_cpu_by_component");
    List<String> keys = keyPaths(json);
    keys.removeIf(k -> k.startsWith("second_half."));
    assertEquals(PROFILE_KEYS, keys);
    assertEquals(2000.0, json.path("window").path("us_per_event").asDouble(), 0);
    assertEquals(PipelineProfile.HOW, json.path("how").asText());
    assertEquals(report.figures.profile(), ReportFigures.fromJson(report.json).profile());
    String text = report.format();
    assertContains(
        text, "Pipeline CPU      2000.0 µs per event by component (450 execution samples;");
    assertContains(text, "     500.0 µs  25.0%  source client");
    assertEquals(
        List.of("source client", "engine"),
        List.copyOf(
            StepFigures.of(LocalRunConfig.defaults().step(), report)
                .pipelineShareByGroup()
                .keySet()));
    assertEquals(
        0.75,
        StepFigures.of(LocalRunConfig.defaults().step(), report)
            .pipelineShareByGroup()
            .get("engine"),
        0);
  }

  @Test
  public void theConfigurationReadBackFromTheJsonIsTheOneWritten() {
    for (String source : List.of("pubsub", "kafka")) {
      LocalReport report = LocalReport.of(result(source));
      RunConfiguration read = RunConfiguration.fromJson(report.json.path("configuration"));
      assertEquals(report.configuration, read);
      assertEquals(Map.of("source", source, "topic", "t", "subscription", "s"), read.source());
      assertEquals(TABLE, read.table());
    }
    String text = LocalReport.of(result("pubsub")).format();
    assertContains(text, "Source            Pub/Sub topic t, subscription s");
  }

  @Test
  public void theFiguresReadBackFromTheJsonAreTheOnesWritten() {
    for (RunResult result :
        List.of(
            result("pubsub"),
            result("kafka"),
            result("pubsub", false),
            result("kafka", false),
            result("pubsub", true, 100),
            result("pubsub", true, 40, profile()))) {
      LocalReport report = LocalReport.of(result);
      assertEquals(report.figures, ReportFigures.fromJson(report.json));
    }
  }

  @Test
  public void theStepComparisonReadsTheSameFigures() {
    LocalReport report = LocalReport.of(result("kafka"));
    StepFigures figures = StepFigures.of(LocalRunConfig.defaults().step(), report);
    assertEquals(200.0, figures.publishedPerSec(), 0);
    assertEquals(40.0, figures.sustainedEventsPerSec(), 0);
    assertEquals(200.0, figures.pipelineCpuPer100k(), 0);
    assertEquals(50.0, figures.sourceCpuPer100k(), 0);
    assertEquals(300.0, figures.bigqueryCpuPer100k(), 0);
    assertEquals(123.5, figures.encodedBytesPerElement(), 0);
    assertEquals(2.5, figures.exchangedBytesPerInputByte(), 0);
    assertEquals(Long.valueOf(750), figures.latencyP50Millis());
    assertEquals(Long.valueOf(995), figures.latencyP99Millis());
  }

  private static void assertContains(String text, String expected) {
    if (!text.contains(expected)) {
      throw new AssertionError("expected <" + expected + "> in\n" + text);
    }
  }

  /**
   * A run of 1,000 events that measured everything: 1,000 rows at 40 a second after 2 s of
   * start-up, to 27 s (its steady window: 13..21 s, the publisher was done at 5 s), CPU over those
   * rows, latencies 1..1000 ms of which the last 500 after the warm-up.
   */
  static RunResult result(String source) {
    return result(source, true);
  }

  /** With {@code measured} false: the same run, but nothing measured beyond the rows. */
  static RunResult result(String source, boolean measured) {
    return result(source, measured, 40);
  }

  /**
   * The same run, its rows visible at {@code rowsPerSecond}: at 100 a second it takes 10 s, too
   * short for a steady window.
   */
  static RunResult result(String source, boolean measured, int rowsPerSecond) {
    return result(source, measured, rowsPerSecond, null);
  }

  /** The same run, profiled when {@code profile} is given. */
  static RunResult result(
      String source, boolean measured, int rowsPerSecond, PipelineProfile profile) {
    LocalRunConfig config = LocalRunConfig.defaults().events(1000).table(TABLE);
    List<ProgressSample> timeline = new ArrayList<>();
    List<RunCosts.Sample> costs = new ArrayList<>();
    long rows = 0;
    int second = 0;
    for (; rows < 1000; second++) {
      rows = second < 2 ? 0 : Math.min(1000, (second - 2L) * rowsPerSecond);
      timeline.add(new ProgressSample(second * 1000L, rows, 0));
      // After start-up: 0.2 s of pipeline CPU, 0.05 of the source's, 0.3 of BigQuery's per 100
      // rows.
      double perRow = Math.max(0, rows);
      costs.add(
          new RunCosts.Sample(
              second * 1000L, rows, 7 + perRow * 0.002, 3 + perRow * 0.0005, 5 + perRow * 0.003));
    }
    Progress progress =
        new Progress(
            timeline,
            measured ? costs : List.of(),
            measured,
            5000,
            measured ? (second - 1) * 1000L : -1,
            false,
            List.of(),
            1_700_000_000_000L);
    long[] latencies = LongStream.rangeClosed(1, 1000).toArray();
    long[] steady = LongStream.rangeClosed(501, 1000).toArray();
    Map<String, String> names = new LinkedHashMap<>();
    names.put("source", source);
    names.put("topic", "t");
    names.put("subscription", "s");
    RunTables tables = RunTables.forOutputTable(TABLE);
    Map<String, String> tableNames = new LinkedHashMap<>();
    tables.all().forEach(t -> tableNames.put(t.name(), t.name()));
    EventTableContents events =
        new EventTableContents(
            TABLE,
            true,
            1000,
            0,
            Set.copyOf(LongStream.range(0, 1000).boxed().toList()),
            Map.of(),
            List.of(LoopbackHttp.JSON.createObjectNode().put("id", 1)));
    DeadLetterContents deadLetters =
        new DeadLetterContents(
            tables.deadLetterTables().get(0),
            true,
            1,
            Map.of("DECODE", 1L),
            Map.of(),
            Map.of(),
            List.of(),
            List.of(LoopbackHttp.JSON.createObjectNode().put("stage", "DECODE")),
            Map.of(),
            Map.of());
    return new RunResult(
        config,
        tables,
        names,
        tableNames,
        List.of("--runner=DirectRunner"),
        List.of(),
        1000,
        measured ? 5000 : -1,
        measured ? 6500 : -1,
        4000,
        progress,
        Map.of("rows_written", 1000L),
        measured ? new RunResult.LatencyDistribution(1000, 42.5, 1, 1000) : null,
        measured ? latencies : new long[0],
        measured ? steady : new long[0],
        measured ? List.of(new long[] {900, 1000}, new long[0], steady) : List.of(),
        measured ? 123.45 : Double.NaN,
        new HandOffLatencyProbe.HandOffRequests(measured ? 4 : 0, 1000),
        measured ? 10_000L : null,
        Map.of("write", 10_000L),
        List.of(events),
        List.of(deadLetters),
        null,
        List.of(),
        null,
        Map.of(),
        Map.of(),
        profile,
        null);
  }

  /** A profile of the steady window: two groups, two components, a thread, a frame. */
  static PipelineProfile profile() {
    SplitFigures window =
        new SplitFigures(
            1_700_000_013_000L,
            1_700_000_021_000L,
            8.0,
            320,
            450,
            0.64,
            0.05,
            2000.0,
            List.of(
                new SplitFigures.Group("source client", 500.0, 0.25),
                new SplitFigures.Group("engine", 1500.0, 0.75)),
            List.of(
                new SplitFigures.Component("pubsub", "source client", 100, false, 500.0, 0.25),
                new SplitFigures.Component("jit", "engine", 0, true, 1500.0, 0.75)),
            List.of(new SplitFigures.TopThread("worker", 0.5, "pubsub")),
            Map.of("pubsub", List.of(new SplitFigures.Frame("com.google.Pull.call", 1.0))),
            Map.of("pubsub", 2L));
    return new PipelineProfile("-XX:+DebugNonSafepoints", window, window);
  }

  private static List<String> keyPaths(JsonNode json) {
    Set<String> paths = new TreeSet<>();
    collect(json, "", paths);
    return new ArrayList<>(paths);
  }

  private static void collect(JsonNode node, String path, Set<String> paths) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        paths.add(child);
        collect(field.getValue(), child, paths);
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        paths.add(path + "[]");
        collect(element, path + "[]", paths);
      }
    }
  }
}
