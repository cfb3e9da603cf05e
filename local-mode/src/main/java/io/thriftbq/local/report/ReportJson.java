package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.profile.ComponentTable;
import io.thriftbq.local.progress.Percentiles;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.ProgressSample;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.progress.Throughput;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/** The report as JSON ({@code --report FILE}); every measured figure says how it was measured. */
final class ReportJson {
  private ReportJson() {}

  static ObjectNode of(LocalReport report, RunResult result) {
    ObjectNode root = LoopbackHttp.JSON.createObjectNode();
    root.put("status", report.ok() ? "OK" : "FAILED");
    ArrayNode problemsNode = root.putArray("problems");
    report.problems.forEach(problemsNode::add);
    ArrayNode warningsNode = root.putArray("warnings");
    report.warnings.forEach(warningsNode::add);
    putConfiguration(root.putObject("configuration"), report, result);

    ObjectNode published = root.putObject("published");
    published.put("events", report.eventsPublished);
    published.put("malformed_messages", report.malformedPublished);

    ObjectNode written = root.putObject("table");
    written.put("rows", report.rowsInTable);
    written.put("distinct_event_ids", report.distinctEventIds);
    written.put("rows_without_event_id", report.rowsWithoutEventId);
    written.put("duplicate_ids", report.duplicates.size());
    written.put("duplicate_extra_rows", report.duplicateExtraRows());
    ArrayNode dupSample = written.putArray("duplicate_sample");
    report.duplicates.entrySet().stream()
        .limit(10)
        .forEach(e -> dupSample.addObject().put("event_id", e.getKey()).put("rows", e.getValue()));
    written.put("missing_ids", report.missingIds.size());
    ArrayNode missingSample = written.putArray("missing_sample");
    report.missingIds.stream().limit(20).forEach(missingSample::add);

    if (report.tables != null) {
      report.tables.putJson(root);
    }
    if (report.changeState != null) {
      FinalStateReport.putJson(root, report.changeState);
    }

    ObjectNode dead = root.putObject("dead_letters");
    dead.put("total", report.deadLetters);
    ObjectNode byStage = dead.putObject("by_stage");
    report.deadLettersByStage.forEach(byStage::put);
    dead.put("malformed_found", report.malformedStages.size());
    dead.put("malformed_missing", report.malformedMissing.size());
    ArrayNode wrong = dead.putArray("malformed_wrong_stage");
    report.malformedWrongStage.stream().limit(20).forEach(wrong::add);
    dead.put("valid_events_dead_lettered", report.validEventsDeadLettered.size());
    if (result.typeMix() != null) {
      ObjectNode byStruct = dead.putObject("by_struct");
      for (DeadLetterContents table : result.deadLetterTables()) {
        table
            .byStruct()
            .forEach((struct, n) -> byStruct.put(struct.isEmpty() ? "(none)" : struct, n));
      }
      ArrayNode wrongStruct = dead.putArray("malformed_wrong_struct");
      report.malformedWrongStruct.stream().limit(20).forEach(wrongStruct::add);
    }

    putThroughput(root.putObject("throughput"), report, result);
    putCosts(root.putObject("costs"), result);
    if (result.cpuByComponent() != null) {
      root.set(ComponentTable.REPORT_KEY, result.cpuByComponent().toJson());
    }
    putLatency(root.putObject("latency_ms"), report, result);

    ObjectNode counters = root.putObject("pipeline_counters");
    new TreeMap<>(result.pipelineCounters()).forEach(counters::put);

    // t_ms counts from this wall-clock time (epoch ms): lets a profile be cut to the same window.
    root.put("timeline_start_epoch_ms", result.progress().startedEpochMillis());
    ArrayNode timeline = root.putArray("timeline");
    for (ProgressSample point : result.progress().timeline()) {
      timeline
          .addObject()
          .put("t_ms", point.elapsedMillis())
          .put("rows", point.rows())
          .put("dead_letters", point.deadLetters());
    }

    ArrayNode samples = root.putArray("sample_rows");
    for (EventTableContents table : result.eventTables()) {
      table.sampleRows().forEach(samples::add);
    }
    if (report.deadLetters > 0) {
      ArrayNode deadSamples = root.putArray("sample_dead_letters");
      for (DeadLetterContents table : result.deadLetterTables()) {
        table.samples().forEach(deadSamples::add);
      }
    }
    return root;
  }

  private static void putConfiguration(
      ObjectNode configuration, LocalReport report, RunResult result) {
    LocalRunConfig config = result.config();
    configuration.put("step", report.step);
    configuration.put("write_method", config.step().writeMethod().name());
    configuration.put("format", config.format().name());
    configuration.put("extra_setting", config.step().extraSetting());
    ArrayNode replaced = configuration.putArray("step_settings_replaced_by_ingest_args");
    config.replacedStepFlags().forEach(replaced::add);
    Integer frequency =
        config.step().effectiveTriggeringFrequencySec(config.triggeringFrequencySec());
    if (frequency != null) {
      configuration.put("triggering_frequency_sec", frequency);
    }
    configuration.put("exactly_once", report.exactlyOnce);
    configuration.put("runner", config.engine().describe());
    configuration.put("direct_runner_checks", config.directRunnerChecks());
    configuration.put("events", config.events());
    configuration.put("rate_per_sec", config.rate());
    configuration.put("records_per_message", config.recordsPerMessage());
    configuration.put(
        "publisher",
        config.generatorPipeline()
            ? "generator pipeline (DirectRunner, bounded: publishes at its end)"
            : "paced in-process publisher using the generator's core");
    configuration.put("seed", config.seed());
    result.source().forEach(configuration::put);
    List<String> eventTables = result.tables().eventTables();
    if (eventTables.size() == 1) {
      configuration.put("table", result.tableNames().get(eventTables.get(0)));
    }
    ArrayNode tables = configuration.putArray("tables");
    for (RunTables.Table table : result.tables().all()) {
      tables
          .addObject()
          .put("name", result.tableNames().get(table.name()))
          .put("kind", table.kind().name());
    }
    ArrayNode args = configuration.putArray("ingestion_args");
    result.ingestionArgs().forEach(args::add);
  }

  private static void putThroughput(ObjectNode throughput, LocalReport report, RunResult result) {
    Progress progress = result.progress();
    if (result.generatorMillis() > 0) {
      throughput.put(
          "publish_events_per_sec",
          round(report.eventsPublished * 1000.0 / result.generatorMillis()));
      throughput.put("publish_wall_sec", round(result.generatorMillis() / 1000.0));
    }
    Throughput rates = Throughput.of(progress.timeline(), Throughput.PEAK_WINDOW_MILLIS);
    if (rates.sustainedRowsPerSec() > 0) {
      throughput.put("rows_per_sec_sustained", round(rates.sustainedRowsPerSec()));
    }
    throughput.put("rows_per_sec_peak_5s", round(rates.peakRowsPerSec()));
    throughput.put("writing_interval_sec", round(rates.writingMillis() / 1000.0));
    throughput.put(
        "peak_window",
        rates.windowLongerThanWriting()
            ? "whole writing interval, under 5 s"
            : "best window of >= 5 s");
    throughput.put("sustained_how", Throughput.SUSTAINED_HOW);
    throughput.put("peak_how", Throughput.PEAK_HOW);
    if (progress.accountedAtMillis() > 0) {
      throughput.put("all_accounted_after_sec", round(progress.accountedAtMillis() / 1000.0));
    }
  }

  private static void putLatency(ObjectNode latency, LocalReport report, RunResult result) {
    latency.put("interval", LocalReport.LATENCY_INTERVAL);
    putPercentiles(latency, report.latencySamples);
    ObjectNode steady = latency.putObject("after_warmup");
    steady.put(
        "meaning",
        "only events created at least "
            + RunResult.WARMUP_MILLIS / 1000
            + " s after the ingestion pipeline was started, leaving out the engine's"
            + " start-up");
    putPercentiles(steady, report.steadyLatencySamples);
    RunResult.LatencyDistribution pipelineLatency = result.pipelineLatency();
    if (pipelineLatency != null) {
      ObjectNode d = latency.putObject("pipeline_metric_" + IngestionMetrics.END_TO_END_LATENCY_MS);
      d.put("meaning", "event creation to the step just before BigQueryIO (Beam distribution)");
      d.put("count", pipelineLatency.count());
      d.put("mean", round(pipelineLatency.mean()));
      d.put("min", pipelineLatency.min());
      d.put("max", pipelineLatency.max());
    }
  }

  private static void putPercentiles(ObjectNode node, long[] samples) {
    node.put("samples", samples.length);
    if (samples.length > 0) {
      Percentiles p = new Percentiles(samples);
      node.put("p50", p.percentile(50));
      node.put("p95", p.percentile(95));
      node.put("p99", p.percentile(99));
      node.put("max", p.max());
      node.put("mean", round(p.mean()));
    }
  }

  /** What the run spent; every figure says how it was measured. */
  private static void putCosts(ObjectNode costs, RunResult result) {
    Progress progress = result.progress();
    if (!Double.isNaN(result.encodedBytesPerElement())) {
      costs.put("encoded_bytes_per_element", round(result.encodedBytesPerElement()));
    }
    costs.put(
        "encoded_bytes_per_element_how",
        "mean size of the first "
            + RunResult.ENCODED_SIZE_SAMPLE
            + " generated events converted by this run's plan and encoded with the coder the"
            + " pipeline gives the collection it hands to BigQueryIO (what a shuffle carries)");
    HandOffLatencyProbe.HandOffRequests requests = result.bigqueryRequests();
    if (requests.requests() > 0) {
      ObjectNode node = costs.putObject("bigquery_requests");
      node.put("count", requests.requests());
      node.put("rows_per_request", round(requests.rowsPerRequest()));
      node.put(
          "how",
          "the Storage Write appends or insertAll requests the pipeline sent the emulator, with the"
              + " rows they carried (retries count again); the emulator's cost per row falls"
              + " steeply with the rows per request");
    }
    if (progress.costsMeasured()) {
      List<RunCosts.Sample> samples = progress.costs();
      putPer100k(costs, "pipeline_cpu_sec_per_100k_events", samples, RunCosts.Sample::pipelineCpu);
      putPer100k(costs, sourceCpuKey(result.source()), samples, RunCosts.Sample::sourceCpu);
      putPer100k(
          costs,
          "bigquery_emulator_cpu_sec_per_100k_events",
          samples,
          RunCosts.Sample::bigqueryCpu);
      costs.put(
          "cpu_how",
          "CPU seconds per 100,000 rows written or dead-lettered, between the first once-a-second"
              + " poll that saw rows and the poll that saw every event (start-up left out);"
              + " pipeline: this JVM's process CPU time less the publisher's and the poller's"
              + " threads (the engine, Beam, our code, GC and JIT); emulators and broker: each"
              + " process with its children, including the poller's queries");
    }
    if (result.exchangedBytes() != null && result.payloadBytesPublished() > 0) {
      costs.put(
          "exchanged_bytes_per_input_byte",
          round((double) result.exchangedBytes() / result.payloadBytesPublished()));
      ObjectNode byTask = costs.putObject("exchanged_bytes_by_sending_task");
      new TreeMap<>(result.exchangedBytesByTask()).forEach(byTask::put);
      costs.put(
          "exchanged_bytes_how",
          "bytes Flink's tasks serialized into data exchanges (numBytesOut of every task: the"
              + " shuffles before the exactly-once write's sharded streams, and any other"
              + " exchange) divided by the Thrift payload bytes published");
    }
  }

  private static void putPer100k(
      ObjectNode costs,
      String name,
      List<RunCosts.Sample> samples,
      ToDoubleFunction<RunCosts.Sample> cpu) {
    Double value = samples.isEmpty() ? null : RunCosts.perHundredThousandRows(samples, cpu);
    if (value != null) {
      costs.put(name, round(value));
    }
  }

  /**
   * The costs key of the server that carried the run's events, from the run's source (as {@link
   * io.thriftbq.local.source.EventSource#describe()} names it) or its report's configuration.
   */
  static String sourceCpuKey(java.util.Map<String, String> source) {
    return sourceCpuKey("kafka".equals(source.get("source")));
  }

  static String sourceCpuKey(com.fasterxml.jackson.databind.JsonNode configuration) {
    return sourceCpuKey("kafka".equals(configuration.path("source").asText()));
  }

  private static String sourceCpuKey(boolean kafka) {
    return kafka
        ? "kafka_broker_cpu_sec_per_100k_events"
        : "pubsub_emulator_cpu_sec_per_100k_events";
  }

  /** What carried the run's events, for the report's text. */
  static String sourceServer(com.fasterxml.jackson.databind.JsonNode configuration) {
    return "kafka".equals(configuration.path("source").asText())
        ? "Kafka broker"
        : "Pub/Sub emulator";
  }

  static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }
}
