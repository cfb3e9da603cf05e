package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.progress.Percentiles;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.run.LocalRun;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.BigQueryEmulator;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.LoopbackHttp;
import io.thriftbq.local.stack.QueryRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricQueryResults;

/**
 * What a local run published, what arrived in the emulator's tables, and how fast. Everything about
 * rows is queried from the BigQuery emulator after the run, not taken from the pipeline's own
 * counters (which are reported next to it as a cross-check).
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

  /** Valid generated events that were dead-lettered: id → stage. */
  public final Map<Long, String> validEventsDeadLettered = new TreeMap<>();

  public final List<String> problems = new ArrayList<>();
  public final List<String> warnings = new ArrayList<>();
  public long[] latencySamples = new long[0];

  /** Latencies of events created after the warm-up ({@link LocalRun#WARMUP_MILLIS}). */
  public long[] steadyLatencySamples = new long[0];

  public ObjectNode json;

  static String idColumnSql(String alias) {
    return alias + ".value";
  }

  public static String qualified(String table) {
    return "`" + LocalRunConfig.DATASET + "." + table + "`";
  }

  /** Distinct {@code event_id} attribute values in the event table. */
  public static String distinctIdsSql(String table) {
    return "SELECT COUNT(DISTINCT a.value) FROM "
        + qualified(table)
        + " AS t, UNNEST(t._attributes) AS a WHERE a.key = 'event_id'";
  }

  public static LocalReport build(
      LocalRunConfig config,
      EmulatorStack stack,
      String table,
      LocalRun.Channel channel,
      List<String> ingestionArgs,
      List<MalformedMessages.Malformed> malformed,
      LocalRun.Progress progress,
      MetricQueryResults metrics,
      long[] latencySamples,
      long[] steadyLatencySamples,
      long eventsPublished,
      java.util.function.@org.checkerframework.checker.nullness.qual.Nullable LongFunction<String>
          idFieldOf)
      throws IOException {
    LocalReport report = new LocalReport();
    BigQueryEmulator bq = stack.bigquery();
    String deadLetterTable = table + DeadLetterTables.DEFAULT_SUFFIX;
    boolean eventTableExists = bq.tableExists(LocalRunConfig.DATASET, table);
    boolean deadLetterTableExists = bq.tableExists(LocalRunConfig.DATASET, deadLetterTable);

    report.step = config.step().number();
    report.exactlyOnce = config.step().exactlyOnce();
    report.eventsRequested = config.events();
    report.eventsPublished = eventsPublished;
    report.malformedPublished = malformed.size();
    report.latencySamples = latencySamples;
    report.steadyLatencySamples = steadyLatencySamples;
    report.problems.addAll(progress.problems);

    // Rows and ids in the event table.
    java.util.Set<Long> seen = new java.util.HashSet<>();
    if (eventTableExists) {
      report.rowsInTable = bq.queryLong("SELECT COUNT(*) FROM " + qualified(table));
      long rowsWithId = 0;
      for (Map<String, JsonNode> row :
          bq.query(
              "SELECT a.value AS id, COUNT(*) AS n FROM "
                  + qualified(table)
                  + " AS t, UNNEST(t._attributes) AS a WHERE a.key = 'event_id' GROUP BY a.value")) {
        long id = Long.parseLong(row.get("id").asText());
        long n = Long.parseLong(row.get("n").asText());
        rowsWithId += n;
        seen.add(id);
        if (n > 1) {
          report.duplicates.put(id, n);
        }
      }
      report.distinctEventIds = seen.size();
      report.rowsWithoutEventId = report.rowsInTable - rowsWithId;
    }

    // Dead letters: by stage, the malformed ones by id, and any valid event among them.
    if (deadLetterTableExists) {
      report.deadLetters = bq.queryLong("SELECT COUNT(*) FROM " + qualified(deadLetterTable));
      for (Map<String, JsonNode> row :
          bq.query(
              "SELECT stage, COUNT(*) AS n FROM "
                  + qualified(deadLetterTable)
                  + " GROUP BY stage")) {
        report.deadLettersByStage.put(
            row.get("stage").asText(), Long.parseLong(row.get("n").asText()));
      }
      for (Map<String, JsonNode> row :
          bq.query(
              "SELECT a.value AS id, d.stage AS stage FROM "
                  + qualified(deadLetterTable)
                  + " AS d, UNNEST(d.attributes) AS a WHERE a.key = '"
                  + MalformedMessages.ID_ATTRIBUTE
                  + "'")) {
        report.malformedStages.merge(
            row.get("id").asText(), row.get("stage").asText(), (x, y) -> x + "," + y);
      }
      for (Map<String, JsonNode> row :
          bq.query(
              "SELECT a.value AS id, d.stage AS stage FROM "
                  + qualified(deadLetterTable)
                  + " AS d, UNNEST(d.attributes) AS a WHERE a.key = 'event_id'")) {
        try {
          report.validEventsDeadLettered.put(
              Long.parseLong(row.get("id").asText()), row.get("stage").asText());
        } catch (NumberFormatException notAnId) {
          report.warnings.add("dead letter with event_id " + row.get("id"));
        }
      }
    }
    for (MalformedMessages.Malformed bad : malformed) {
      String stage = report.malformedStages.get(bad.id());
      if (stage == null) {
        report.malformedMissing.add(bad.id());
      } else if (!stage.equals(bad.kind().expectedStage().name())) {
        report.malformedWrongStage.add(
            bad.id()
                + " ("
                + bad.kind()
                + "): "
                + stage
                + ", expected "
                + bad.kind().expectedStage());
      }
    }
    for (long id = 0; id < config.events(); id++) {
      if (!seen.contains(id) && !report.validEventsDeadLettered.containsKey(id)) {
        report.missingIds.add(id);
      }
    }

    if (idFieldOf != null && eventTableExists) {
      report.idFieldChecked = true;
      checkIdField(report, config, bq, table, idFieldOf);
    }

    // Verdict.
    if (!report.missingIds.isEmpty()) {
      report.problems.add(
          report.missingIds.size() + " generated event(s) neither written nor dead-lettered");
    }
    if (!report.malformedMissing.isEmpty()) {
      report.problems.add(
          report.malformedMissing.size()
              + " malformed message(s) missing from the dead-letter table");
    }
    if (!report.duplicates.isEmpty()) {
      String text =
          report.duplicates.size()
              + " event id(s) written more than once ("
              + (report.rowsInTable - report.rowsWithoutEventId - report.distinctEventIds)
              + " extra row(s))";
      if (report.exactlyOnce) {
        report.problems.add(text + " by an exactly-once step");
      } else {
        report.warnings.add(text + "; allowed for at-least-once writes");
      }
    }
    if (!report.malformedWrongStage.isEmpty()) {
      report.warnings.add(
          report.malformedWrongStage.size()
              + " malformed message(s) dead-lettered at an unexpected stage");
    }
    if (!report.validEventsDeadLettered.isEmpty()) {
      report.warnings.add(
          report.validEventsDeadLettered.size() + " valid generated event(s) were dead-lettered");
    }
    if (latencySamples.length == 0) {
      report.warnings.add("no latency samples were recorded");
    }

    report.json =
        report.toJson(
            config, stack, table, channel, ingestionArgs, progress, metrics, deadLetterTableExists);
    return report;
  }

  /**
   * The values of {@code --id-field} in the table against those of the generated events that were
   * not dead-lettered: each generated value present, and nothing else.
   */
  private static void checkIdField(
      LocalReport report,
      LocalRunConfig config,
      BigQueryEmulator bq,
      String table,
      java.util.function.LongFunction<String> idFieldOf)
      throws IOException {
    java.util.Map<String, Long> expected = new java.util.HashMap<>();
    for (long id = 0; id < config.events(); id++) {
      if (!report.validEventsDeadLettered.containsKey(id)) {
        expected.merge(idFieldOf.apply(id), 1L, Long::sum);
      }
    }
    java.util.Map<String, Long> actual = new java.util.HashMap<>();
    for (Map<String, JsonNode> row :
        bq.query(
            "SELECT t."
                + config.idField()
                + " AS v FROM "
                + qualified(table)
                + " AS t WHERE t."
                + config.idField()
                + " IS NOT NULL")) {
      actual.merge(row.get("v").asText(), 1L, Long::sum);
    }
    expected.forEach(
        (value, n) -> {
          if (!actual.containsKey(value)) {
            report.idFieldMissing.add(value);
          }
        });
    actual.forEach(
        (value, n) -> {
          if (!expected.containsKey(value)) {
            report.idFieldUnexpected.add(value);
          }
        });
    if (!report.idFieldMissing.isEmpty()) {
      report.problems.add(
          report.idFieldMissing.size()
              + " generated value(s) of "
              + config.idField()
              + " missing from the table, e.g. "
              + report.idFieldMissing.subList(0, Math.min(5, report.idFieldMissing.size())));
    }
    if (!report.idFieldUnexpected.isEmpty()) {
      report.problems.add(
          report.idFieldUnexpected.size()
              + " value(s) of "
              + config.idField()
              + " in the table that no generated event has, e.g. "
              + report.idFieldUnexpected.subList(0, Math.min(5, report.idFieldUnexpected.size())));
    }
  }

  public boolean ok() {
    return problems.isEmpty();
  }

  private ObjectNode toJson(
      LocalRunConfig config,
      EmulatorStack stack,
      String table,
      LocalRun.Channel channel,
      List<String> ingestionArgs,
      LocalRun.Progress progress,
      MetricQueryResults metrics,
      boolean deadLetterTableExists)
      throws IOException {
    ObjectNode root = LoopbackHttp.JSON.createObjectNode();
    root.put("status", ok() ? "OK" : "FAILED");
    ArrayNode problemsNode = root.putArray("problems");
    problems.forEach(problemsNode::add);
    ArrayNode warningsNode = root.putArray("warnings");
    warnings.forEach(warningsNode::add);

    ObjectNode configuration = root.putObject("configuration");
    configuration.put("step", step);
    configuration.put("write_method", config.step().writeMethod().name());
    configuration.put("format", config.format().name());
    configuration.put("extra_setting", config.step().extraSetting());
    Integer frequency =
        config.step().effectiveTriggeringFrequencySec(config.triggeringFrequencySec());
    if (frequency != null) {
      configuration.put("triggering_frequency_sec", frequency);
    }
    configuration.put("exactly_once", exactlyOnce);
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
    configuration.put("topic", stack.pubsub().topicPath(channel.topic()));
    configuration.put("subscription", stack.pubsub().subscriptionPath(channel.subscription()));
    configuration.put(
        "table", stack.bigquery().project() + ":" + LocalRunConfig.DATASET + "." + table);
    ArrayNode args = configuration.putArray("ingestion_args");
    ingestionArgs.forEach(args::add);

    ObjectNode published = root.putObject("published");
    published.put("events", eventsPublished);
    published.put("malformed_messages", malformedPublished);

    ObjectNode written = root.putObject("table");
    written.put("rows", rowsInTable);
    written.put("distinct_event_ids", distinctEventIds);
    written.put("rows_without_event_id", rowsWithoutEventId);
    written.put("duplicate_ids", duplicates.size());
    written.put("duplicate_extra_rows", rowsInTable - rowsWithoutEventId - distinctEventIds);
    ArrayNode dupSample = written.putArray("duplicate_sample");
    duplicates.entrySet().stream()
        .limit(10)
        .forEach(e -> dupSample.addObject().put("event_id", e.getKey()).put("rows", e.getValue()));
    written.put("missing_ids", missingIds.size());
    ArrayNode missingSample = written.putArray("missing_sample");
    missingIds.stream().limit(20).forEach(missingSample::add);

    ObjectNode dead = root.putObject("dead_letters");
    dead.put("total", deadLetters);
    ObjectNode byStage = dead.putObject("by_stage");
    deadLettersByStage.forEach(byStage::put);
    dead.put("malformed_found", malformedStages.size());
    dead.put("malformed_missing", malformedMissing.size());
    ArrayNode wrong = dead.putArray("malformed_wrong_stage");
    malformedWrongStage.stream().limit(20).forEach(wrong::add);
    dead.put("valid_events_dead_lettered", validEventsDeadLettered.size());

    ObjectNode throughput = root.putObject("throughput");
    if (progress.generatorMillis > 0) {
      throughput.put(
          "publish_events_per_sec", round(eventsPublished * 1000.0 / progress.generatorMillis));
      throughput.put("publish_wall_sec", round(progress.generatorMillis / 1000.0));
    }
    double sustained = sustainedRowsPerSec(progress);
    if (sustained > 0) {
      throughput.put("rows_per_sec_sustained", round(sustained));
    }
    throughput.put("rows_per_sec_peak_5s", round(peakRate(progress, 5000)));
    if (progress.accountedAtMillis > 0) {
      throughput.put("all_accounted_after_sec", round(progress.accountedAtMillis / 1000.0));
    }
    throughput.put(
        "note",
        "rows/s from the emulator's row count polled once per second, between the first poll that"
            + " saw rows and the poll that saw every event; it includes the engine's start-up"
            + " lag only at the start.");

    putCosts(root.putObject("costs"), progress);

    ObjectNode latency = root.putObject("latency_ms");
    latency.put("interval", LATENCY_INTERVAL);
    putPercentiles(latency, latencySamples);
    ObjectNode steady = latency.putObject("after_warmup");
    steady.put(
        "meaning",
        "only events created at least "
            + LocalRun.WARMUP_MILLIS / 1000
            + " s after the ingestion pipeline was started, leaving out the engine's"
            + " start-up");
    putPercentiles(steady, steadyLatencySamples);
    DistributionResult pipelineLatency =
        LocalRun.distribution(metrics, IngestionMetrics.END_TO_END_LATENCY_MS);
    if (pipelineLatency != null && pipelineLatency.getCount() > 0) {
      ObjectNode d = latency.putObject("pipeline_metric_" + IngestionMetrics.END_TO_END_LATENCY_MS);
      d.put("meaning", "event creation to the step just before BigQueryIO (Beam distribution)");
      d.put("count", pipelineLatency.getCount());
      d.put("mean", round(pipelineLatency.getMean()));
      d.put("min", pipelineLatency.getMin());
      d.put("max", pipelineLatency.getMax());
    }

    ObjectNode counters = root.putObject("pipeline_counters");
    new TreeMap<>(LocalRun.counters(metrics)).forEach(counters::put);

    ArrayNode timeline = root.putArray("timeline");
    for (long[] point : progress.timeline) {
      timeline
          .addObject()
          .put("t_ms", point[0])
          .put("rows", point[1])
          .put("dead_letters", point[2]);
    }

    ArrayNode samples = root.putArray("sample_rows");
    if (rowsInTable > 0) {
      JsonNode result =
          stack
              .bigquery()
              .rawQuery("SELECT * FROM " + qualified(table) + " LIMIT " + config.sampleRows());
      for (JsonNode row : result.path("rows")) {
        samples.add(QueryRows.toObject(result.path("schema").path("fields"), row));
      }
    }
    if (deadLetterTableExists && deadLetters > 0) {
      ArrayNode deadSamples = root.putArray("sample_dead_letters");
      JsonNode result =
          stack
              .bigquery()
              .rawQuery(
                  "SELECT stage, error_message, payload_format, message_id FROM "
                      + qualified(table + DeadLetterTables.DEFAULT_SUFFIX)
                      + " LIMIT 3");
      for (JsonNode row : result.path("rows")) {
        deadSamples.add(QueryRows.toObject(result.path("schema").path("fields"), row));
      }
    }
    return root;
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
  private static void putCosts(ObjectNode costs, LocalRun.Progress progress) {
    if (!Double.isNaN(progress.encodedBytesPerElement)) {
      costs.put("encoded_bytes_per_element", round(progress.encodedBytesPerElement));
    }
    costs.put(
        "encoded_bytes_per_element_how",
        "mean size of the first "
            + LocalRun.ENCODED_SIZE_SAMPLE
            + " generated events converted by this run's plan and encoded with the coder the"
            + " pipeline gives the collection it hands to BigQueryIO (what a shuffle carries)");
    if (progress.costsMeasured) {
      putPerHundredThousand(
          costs, "pipeline_cpu_sec_per_100k_events", progress.costs, RunCosts.Sample::pipelineCpu);
      putPerHundredThousand(
          costs,
          "pubsub_emulator_cpu_sec_per_100k_events",
          progress.costs,
          RunCosts.Sample::pubsubCpu);
      putPerHundredThousand(
          costs,
          "bigquery_emulator_cpu_sec_per_100k_events",
          progress.costs,
          RunCosts.Sample::bigqueryCpu);
      costs.put(
          "cpu_how",
          "CPU seconds per 100,000 rows written or dead-lettered, between the first once-a-second"
              + " poll that saw rows and the poll that saw every event (start-up left out);"
              + " pipeline: this JVM's process CPU time less the publisher's and the poller's"
              + " threads (the engine, Beam, our code, GC and JIT); emulators: each emulator"
              + " process with its children, including the poller's queries");
    }
    if (progress.exchangedBytes != null && progress.payloadBytesPublished > 0) {
      costs.put(
          "exchanged_bytes_per_input_byte",
          round((double) progress.exchangedBytes / progress.payloadBytesPublished));
      ObjectNode byTask = costs.putObject("exchanged_bytes_by_sending_task");
      progress.exchangedBytesByTask.forEach(byTask::put);
      costs.put(
          "exchanged_bytes_how",
          "bytes Flink's tasks serialized into data exchanges (numBytesOut of every task: the"
              + " shuffles before the exactly-once write's sharded streams, and any other"
              + " exchange) divided by the Thrift payload bytes published");
    }
  }

  private static void putPerHundredThousand(
      ObjectNode costs,
      String name,
      List<RunCosts.Sample> samples,
      java.util.function.ToDoubleFunction<RunCosts.Sample> cpu) {
    Double value = samples.isEmpty() ? null : RunCosts.perHundredThousandRows(samples, cpu);
    if (value != null) {
      costs.put(name, round(value));
    }
  }

  public static double sustainedRowsPerSec(LocalRun.Progress progress) {
    long[] first = null;
    long[] last = null;
    for (long[] point : progress.timeline) {
      if (point[1] > 0 && first == null) {
        first = point;
      }
      if (first != null) {
        last = point;
      }
      if (progress.accountedAtMillis > 0 && point[0] >= progress.accountedAtMillis) {
        break;
      }
    }
    if (first == null || last == null || last[0] <= first[0]) {
      return 0;
    }
    return (last[1] - first[1]) * 1000.0 / (last[0] - first[0]);
  }

  public static double peakRate(LocalRun.Progress progress, long windowMillis) {
    double best = 0;
    List<long[]> t = progress.timeline;
    for (int i = 0; i < t.size(); i++) {
      for (int j = i + 1; j < t.size(); j++) {
        long span = t.get(j)[0] - t.get(i)[0];
        if (span >= windowMillis) {
          best = Math.max(best, (t.get(j)[1] - t.get(i)[1]) * 1000.0 / span);
          break;
        }
      }
    }
    return best;
  }

  private static double round(double value) {
    return Math.round(value * 10) / 10.0;
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

  /** The human-readable report. */
  public String format() {
    StringBuilder s = new StringBuilder();
    JsonNode c = json.path("configuration");
    s.append("\n=== Local run report: step ")
        .append(step)
        .append(" (")
        .append(c.path("write_method").asText())
        .append(" + ")
        .append(c.path("format").asText())
        .append(", ")
        .append(c.path("extra_setting").asText())
        .append(") ===\n");
    s.append(String.format("Engine            %s%n", c.path("runner").asText()));
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
    JsonNode t = json.path("throughput");
    s.append(
        String.format(
            "Throughput        published %s events/s; ingestion %s rows/s sustained, %s rows/s peak (5 s)%n",
            t.path("publish_events_per_sec").asText("?"),
            t.path("rows_per_sec_sustained").asText("?"),
            t.path("rows_per_sec_peak_5s").asText("?")));
    JsonNode cost = json.path("costs");
    s.append(
        String.format(
            "Cost              pipeline %s CPU-s, Pub/Sub emulator %s, BigQuery emulator %s"
                + " per 100k events; %s bytes per element; %s bytes exchanged per input byte%n",
            cost.path("pipeline_cpu_sec_per_100k_events").asText("?"),
            cost.path("pubsub_emulator_cpu_sec_per_100k_events").asText("?"),
            cost.path("bigquery_emulator_cpu_sec_per_100k_events").asText("?"),
            cost.path("encoded_bytes_per_element").asText("?"),
            cost.path("exchanged_bytes_per_input_byte").asText("n/a")));
    JsonNode l = json.path("latency_ms");
    if (latencySamples.length > 0) {
      s.append(
          String.format(
              "Latency (ms)      p50 %d  p95 %d  p99 %d  max %d  (%d samples)%n",
              l.path("p50").asLong(),
              l.path("p95").asLong(),
              l.path("p99").asLong(),
              l.path("max").asLong(),
              latencySamples.length));
    }
    JsonNode warm = l.path("after_warmup");
    if (steadyLatencySamples.length > 0) {
      s.append(
          String.format(
              "  after warm-up    p50 %d  p95 %d  p99 %d  max %d  (%d samples created >= %d s"
                  + " after start)%n",
              warm.path("p50").asLong(),
              warm.path("p95").asLong(),
              warm.path("p99").asLong(),
              warm.path("max").asLong(),
              steadyLatencySamples.length,
              LocalRun.WARMUP_MILLIS / 1000));
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
}
