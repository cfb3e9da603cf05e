package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
  private static final String EXCHANGED_BYTES_PER_INPUT_BYTE = "exchanged_bytes_per_input_byte";
  private static final String EXCHANGED_BYTES_BY_SENDING_TASK = "exchanged_bytes_by_sending_task";
  private static final String REQUEST_COUNT = "count";
  private static final String ROWS_PER_REQUEST = "rows_per_request";

  /** The requests (appends or inserts) that carried rows to the emulator. */
  public record BigQueryRequests(long count, double rowsPerRequest) {}

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

  static CostFigures of(RunResult result) {
    Progress progress = result.progress();
    HandOffLatencyProbe.HandOffRequests requests = result.bigqueryRequests();
    List<RunCosts.Sample> samples = progress.costsMeasured() ? progress.costs() : List.of();
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
        per100k(samples, RunCosts.Sample::pipelineCpu),
        per100k(samples, RunCosts.Sample::sourceCpu),
        per100k(samples, RunCosts.Sample::bigqueryCpu),
        exchanged
            ? ReportFigures.round((double) result.exchangedBytes() / result.payloadBytesPublished())
            : null,
        exchanged ? result.exchangedBytesByTask() : Map.of());
  }

  private static @Nullable Double per100k(
      List<RunCosts.Sample> samples, ToDoubleFunction<RunCosts.Sample> cpu) {
    Double value = samples.isEmpty() ? null : RunCosts.perHundredThousandRows(samples, cpu);
    return value == null ? null : ReportFigures.round(value);
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
      json.put(
          "cpu_how",
          "CPU seconds per 100,000 rows written or dead-lettered, between the first once-a-second"
              + " poll that saw rows and the poll that saw every event (start-up left out);"
              + " pipeline: this JVM's process CPU time less the publisher's and the poller's"
              + " threads (the engine, Beam, our code, GC and JIT); emulators and broker: each"
              + " process with its children, including the poller's queries");
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
        json.has("cpu_how"),
        ReportFigures.number(json.path(PIPELINE_CPU)),
        ReportFigures.number(json.path(sourceCpuKey(source))),
        ReportFigures.number(json.path(BIGQUERY_EMULATOR_CPU)),
        ReportFigures.number(json.path(EXCHANGED_BYTES_PER_INPUT_BYTE)),
        byTask);
  }
}
