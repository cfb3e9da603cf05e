package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a run spent: the JSON report's {@code costs} object, whose keys are written and read here
 * only. Figures are rounded to one decimal, as the JSON holds them; a figure the run could not
 * measure is null and left out of the JSON, and every figure says in the JSON how it was measured.
 *
 * @param source which server carried the events, and so the key of its CPU figure
 * @param bigqueryRequests the requests that carried rows to the emulator; null when there were none
 * @param cpuMeasured false when the pipeline's CPU could not be told apart (generator pipeline)
 * @param cpuWindow the steady window the CPU figures were taken over ({@link SteadyWindow}); null
 *     when the run was too short for one (and then every CPU figure is null)
 * @param sourceCpuPer100k the Pub/Sub emulator's or the Kafka broker's, as {@code source} says
 * @param exchangedBytesPerInputByte null when the engine does not count exchanged bytes
 * @param exchangedBytesByTask bytes each sending task serialized, with {@code
 *     exchangedBytesPerInputByte}
 */
public record CostFigures(
    SourceKind source,
    @Nullable Double encodedBytesPerElement,
    @Nullable BigQueryRequests bigqueryRequests,
    boolean cpuMeasured,
    @Nullable CpuWindow cpuWindow,
    @Nullable Double pipelineCpuPer100k,
    @Nullable Double sourceCpuPer100k,
    @Nullable Double bigqueryCpuPer100k,
    @Nullable Double exchangedBytesPerInputByte,
    Map<String, Long> exchangedBytesByTask) {
  static final String KEY = "costs";
  private static final String ENCODED_BYTES_PER_ELEMENT = "encoded_bytes_per_element";
  private static final String BIGQUERY_REQUESTS = "bigquery_requests";
  private static final String PIPELINE_CPU = "pipeline_cpu_sec_per_100k_events";
  private static final String BIGQUERY_EMULATOR_CPU = "bigquery_emulator_cpu_sec_per_100k_events";
  private static final String CPU_HOW = "cpu_how";
  private static final String CPU_WINDOW = "cpu_window";
  private static final String FROM_SEC = "from_sec";
  private static final String TO_SEC = "to_sec";
  private static final String EVENTS = "events";
  private static final String EXCHANGED_BYTES_PER_INPUT_BYTE = "exchanged_bytes_per_input_byte";
  private static final String EXCHANGED_BYTES_BY_SENDING_TASK = "exchanged_bytes_by_sending_task";
  private static final String REQUEST_COUNT = "count";
  private static final String ROWS_PER_REQUEST = "rows_per_request";

  /** The requests (appends or inserts) that carried rows to the emulator. */
  public record BigQueryRequests(long count, double rowsPerRequest) {}

  /**
   * The steady window, in seconds since the ingestion pipeline was started, and the events (rows
   * and dead letters) that became visible in it.
   */
  public record CpuWindow(double fromSec, double toSec, long events) {
    static CpuWindow of(SteadyWindow window) {
      return new CpuWindow(
          ReportFigures.round(window.first().elapsedMillis() / 1000.0),
          ReportFigures.round(window.last().elapsedMillis() / 1000.0),
          window.events());
    }
  }

  /** How the CPU figures were measured: the steady window, then what each process's CPU is. */
  static final String CPU_HOW_TEXT =
      "CPU seconds per 100,000 rows written or dead-lettered. "
          + SteadyWindow.DEFINITION
          + " Pipeline: this JVM's process CPU time less the publisher's and the poller's"
          + " threads (the engine, Beam, our code, GC and JIT); emulators and broker: each"
          + " process with its children, including the poller's queries.";

  public CostFigures {
    exchangedBytesByTask = Collections.unmodifiableMap(new TreeMap<>(exchangedBytesByTask));
  }

  /** The key of the CPU figure of the server that carried the run's events. */
  static String sourceCpuKey(SourceKind source) {
    return switch (source) {
      case KAFKA -> "kafka_broker_cpu_sec_per_100k_events";
      case PUBSUB -> "pubsub_emulator_cpu_sec_per_100k_events";
    };
  }

  /**
   * @param steady the run's steady window ({@link SteadyWindow#of(Progress)}); the CPU figures are
   *     taken over it when the run measured costs
   */
  static CostFigures of(RunResult result, Optional<SteadyWindow> steady) {
    Progress progress = result.progress();
    HandOffLatencyProbe.HandOffRequests requests = result.bigqueryRequests();
    Optional<SteadyWindow> window = progress.costsMeasured() ? steady : Optional.empty();
    boolean exchanged = result.exchangedBytes() != null && result.payloadBytesPublished() > 0;
    return new CostFigures(
        ReportFigures.sourceKind(result.source()),
        Double.isNaN(result.encodedBytesPerElement())
            ? null
            : ReportFigures.round(result.encodedBytesPerElement()),
        requests.requests() > 0
            ? new BigQueryRequests(
                requests.requests(), ReportFigures.round(requests.rowsPerRequest()))
            : null,
        progress.costsMeasured(),
        window.map(CpuWindow::of).orElse(null),
        per100k(window, RunCosts.Sample::pipelineCpu),
        per100k(window, RunCosts.Sample::sourceCpu),
        per100k(window, RunCosts.Sample::bigqueryCpu),
        exchanged
            ? ReportFigures.round((double) result.exchangedBytes() / result.payloadBytesPublished())
            : null,
        exchanged ? result.exchangedBytesByTask() : Map.of());
  }

  private static @Nullable Double per100k(
      Optional<SteadyWindow> window, ToDoubleFunction<RunCosts.Sample> cpu) {
    Double value = window.map(w -> w.perHundredThousandEvents(cpu)).orElse(null);
    return value == null ? null : ReportFigures.round(value);
  }

  /**
   * The text report's lines: the figures ({@code ?} when the run could not measure them, {@code -}
   * when it was too short for a steady window), the requests to BigQuery and the CPU window.
   */
  String format() {
    String noCpu = cpuMeasured ? "-" : "?";
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            "Cost              pipeline %s CPU-s, %s %s, BigQuery emulator %s"
                + " per 100k events; %s bytes per element; %s bytes exchanged per input byte%n",
            orElse(pipelineCpuPer100k, noCpu),
            source.serverName(),
            orElse(sourceCpuPer100k, noCpu),
            orElse(bigqueryCpuPer100k, noCpu),
            orElse(encodedBytesPerElement, "?"),
            orElse(exchangedBytesPerInputByte, "n/a")));
    if (bigqueryRequests != null) {
      s.append(
          String.format(
              "  to BigQuery: %d requests, %s rows per request%n",
              bigqueryRequests.count(), bigqueryRequests.rowsPerRequest()));
    }
    if (cpuMeasured) {
      s.append(
          cpuWindow == null
              ? "  CPU window: none, the run was too short for a steady window\n"
              : String.format(
                  "  CPU window: %s .. %s s after the pipeline started, %d events%n",
                  cpuWindow.fromSec(), cpuWindow.toSec(), cpuWindow.events()));
      s.append("  ").append(SteadyWindow.DEFINITION).append('\n');
    }
    return s.toString();
  }

  /** A figure as the JSON writes it, or {@code missing} when there is none. */
  private static String orElse(@Nullable Double figure, String missing) {
    return figure == null ? missing : figure.toString();
  }

  ObjectNode toJson() {
    ObjectNode json = LoopbackHttp.JSON.createObjectNode();
    ReportFigures.putIfMeasured(json, ENCODED_BYTES_PER_ELEMENT, encodedBytesPerElement);
    json.put(
        ENCODED_BYTES_PER_ELEMENT + "_how",
        "mean size of the first "
            + RunResult.ENCODED_SIZE_SAMPLE
            + " generated events converted by this run's plan and encoded with the coder the"
            + " pipeline gives the collection it hands to BigQueryIO (what a shuffle carries)");
    if (bigqueryRequests != null) {
      ObjectNode node = json.putObject(BIGQUERY_REQUESTS);
      node.put(REQUEST_COUNT, bigqueryRequests.count());
      node.put(ROWS_PER_REQUEST, bigqueryRequests.rowsPerRequest());
      node.put(
          "how",
          "the Storage Write appends or insertAll requests the pipeline sent the emulator, with the"
              + " rows they carried (retries count again); the emulator's cost per row falls"
              + " steeply with the rows per request");
    }
    if (cpuMeasured) {
      ReportFigures.putIfMeasured(json, PIPELINE_CPU, pipelineCpuPer100k);
      ReportFigures.putIfMeasured(json, sourceCpuKey(source), sourceCpuPer100k);
      ReportFigures.putIfMeasured(json, BIGQUERY_EMULATOR_CPU, bigqueryCpuPer100k);
      if (cpuWindow != null) {
        json.putObject(CPU_WINDOW)
            .put(FROM_SEC, cpuWindow.fromSec())
            .put(TO_SEC, cpuWindow.toSec())
            .put(EVENTS, cpuWindow.events());
      }
      json.put(CPU_HOW, CPU_HOW_TEXT);
    }
    if (exchangedBytesPerInputByte != null) {
      json.put(EXCHANGED_BYTES_PER_INPUT_BYTE, exchangedBytesPerInputByte);
      ObjectNode byTask = json.putObject(EXCHANGED_BYTES_BY_SENDING_TASK);
      exchangedBytesByTask.forEach(byTask::put);
      json.put(
          "exchanged_bytes_how",
          "bytes Flink's tasks serialized into data exchanges (numBytesOut of every task: the"
              + " shuffles before the exactly-once write's sharded streams, and any other"
              + " exchange) divided by the Thrift payload bytes published");
    }
    return json;
  }

  /** The figures of a report's {@code costs}, for a run through {@code source}. */
  static CostFigures fromJson(JsonNode json, SourceKind source) {
    JsonNode requests = json.path(BIGQUERY_REQUESTS);
    JsonNode window = json.path(CPU_WINDOW);
    Map<String, Long> byTask = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it =
            json.path(EXCHANGED_BYTES_BY_SENDING_TASK).fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> task = it.next();
      byTask.put(task.getKey(), task.getValue().asLong());
    }
    return new CostFigures(
        source,
        ReportFigures.number(json.path(ENCODED_BYTES_PER_ELEMENT)),
        requests.isObject()
            ? new BigQueryRequests(
                requests.path(REQUEST_COUNT).asLong(), requests.path(ROWS_PER_REQUEST).asDouble())
            : null,
        json.has(CPU_HOW),
        window.isObject()
            ? new CpuWindow(
                window.path(FROM_SEC).asDouble(),
                window.path(TO_SEC).asDouble(),
                window.path(EVENTS).asLong())
            : null,
        ReportFigures.number(json.path(PIPELINE_CPU)),
        ReportFigures.number(json.path(sourceCpuKey(source))),
        ReportFigures.number(json.path(BIGQUERY_EMULATOR_CPU)),
        ReportFigures.number(json.path(EXCHANGED_BYTES_PER_INPUT_BYTE)),
        byTask);
  }
}
