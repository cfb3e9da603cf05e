package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.local.progress.Percentiles;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How long events took to reach BigQuery: the JSON report's {@code latency_ms} object, whose keys
 * are written and read here only.
 *
 * @param all the hand-off latency of every row
 * @param afterWarmup the same, for events created after the warm-up ({@link
 *     SteadyWindow#LATENCY_WARM_UP})
 * @param byCreationTime the same by when the events were created, one spread per {@link
 *     RunResult#LATENCY_WINDOW_MILLIS} from the pipeline's start: shows the warm-up and any stall
 * @param pipelineMetric the pipeline's own end-to-end latency distribution, its mean rounded to one
 *     decimal; null when it reported none
 */
public record LatencyFigures(
    Spread all,
    Spread afterWarmup,
    List<Spread> byCreationTime,
    RunResult.@Nullable LatencyDistribution pipelineMetric) {
  static final String KEY = "latency_ms";
  private static final String AFTER_WARMUP = "after_warmup";
  private static final String BY_CREATION_TIME = "by_creation_time";
  private static final String WINDOW_FROM_SEC = "created_from_sec";
  private static final String PIPELINE_METRIC =
      "pipeline_metric_" + IngestionMetrics.END_TO_END_LATENCY_MS;
  private static final String METRIC_COUNT = "count";
  private static final String METRIC_MEAN = "mean";
  private static final String METRIC_MIN = "min";
  private static final String METRIC_MAX = "max";

  /**
   * Percentiles of a set of latencies in ms; with no samples, only {@code samples} (0) means
   * anything and the JSON holds nothing else.
   *
   * @param mean rounded to one decimal, as the JSON holds it
   */
  public record Spread(int samples, long p50, long p95, long p99, long max, double mean) {
    private static final String SAMPLES = "samples";
    private static final String P50 = "p50";
    private static final String P95 = "p95";
    private static final String P99 = "p99";
    private static final String MAX = "max";
    private static final String MEAN = "mean";

    static Spread of(long[] latencies) {
      if (latencies.length == 0) {
        return new Spread(0, 0, 0, 0, 0, 0);
      }
      Percentiles p = new Percentiles(latencies);
      return new Spread(
          latencies.length,
          p.percentile(50),
          p.percentile(95),
          p.percentile(99),
          p.max(),
          ReportFigures.round(p.mean()));
    }

    public boolean measured() {
      return samples > 0;
    }

    /** The text report's line: {@code label}, the percentiles, then {@code samples} in words. */
    String line(String label, String samples) {
      return String.format(
          "%s p50 %d  p95 %d  p99 %d  max %d  (%s)%n", label, p50, p95, p99, max, samples);
    }

    void putJson(ObjectNode json) {
      json.put(SAMPLES, samples);
      if (measured()) {
        json.put(P50, p50);
        json.put(P95, p95);
        json.put(P99, p99);
        json.put(MAX, max);
        json.put(MEAN, mean);
      }
    }

    static Spread fromJson(JsonNode json) {
      return new Spread(
          json.path(SAMPLES).asInt(),
          json.path(P50).asLong(),
          json.path(P95).asLong(),
          json.path(P99).asLong(),
          json.path(MAX).asLong(),
          json.path(MEAN).asDouble());
    }
  }

  public LatencyFigures {
    byCreationTime = List.copyOf(byCreationTime);
  }

  static LatencyFigures of(RunResult result) {
    return new LatencyFigures(
        Spread.of(result.latencySamples()),
        Spread.of(result.steadyLatencySamples()),
        result.latencyByCreationWindow().stream().map(Spread::of).toList(),
        rounded(result.pipelineLatency()));
  }

  /**
   * The text report's latency lines: every row, after the warm-up and the p99 by creation time,
   * over {@code samples} and {@code steadySamples} latencies.
   */
  String text(int samples, int steadySamples) {
    String warmUp = " created >= " + SteadyWindow.WARMUP_MILLIS / 1000 + " s after the first rows";
    return all.line("Latency (ms)     ", samples + " samples")
        + (steadySamples > 0
            ? afterWarmup.line("  after warm-up   ", steadySamples + " samples" + warmUp)
            : "  after warm-up    none: no event was" + warmUp + "\n")
        + "  p99 by creation "
        + p99ByCreationTime()
        + " (s after the pipeline started)\n";
  }

  /**
   * The p99s by creation time, in seconds: {@code "0-5 s 2.61, 5-10 s 0.41, ..."}; windows without
   * events are left out.
   */
  String p99ByCreationTime() {
    StringBuilder line = new StringBuilder();
    long windowSec = RunResult.LATENCY_WINDOW_MILLIS / 1000;
    for (int i = 0; i < byCreationTime.size(); i++) {
      Spread spread = byCreationTime.get(i);
      if (spread.measured()) {
        line.append(line.length() == 0 ? "" : ", ")
            .append(
                String.format(
                    "%d-%d s %.2f", i * windowSec, (i + 1) * windowSec, spread.p99 / 1000.0));
      }
    }
    return line.toString();
  }

  private static RunResult.@Nullable LatencyDistribution rounded(
      RunResult.@Nullable LatencyDistribution metric) {
    return metric == null
        ? null
        : new RunResult.LatencyDistribution(
            metric.count(), ReportFigures.round(metric.mean()), metric.min(), metric.max());
  }

  ObjectNode toJson() {
    ObjectNode json = LoopbackHttp.JSON.createObjectNode();
    json.put("interval", LocalReport.LATENCY_INTERVAL);
    all.putJson(json);
    ObjectNode steady = json.putObject(AFTER_WARMUP);
    steady.put(
        "meaning",
        "only "
            + SteadyWindow.LATENCY_WARM_UP
            + ", leaving out the engine's start-up and first seconds, however long they take on"
            + " the machine (the CPU figures' warm-up too)");
    afterWarmup.putJson(steady);
    ArrayNode windows = json.putArray(BY_CREATION_TIME);
    for (int i = 0; i < byCreationTime.size(); i++) {
      ObjectNode window = windows.addObject();
      window.put(WINDOW_FROM_SEC, i * RunResult.LATENCY_WINDOW_MILLIS / 1000);
      byCreationTime.get(i).putJson(window);
    }
    if (pipelineMetric != null) {
      ObjectNode d = json.putObject(PIPELINE_METRIC);
      d.put("meaning", "event creation to the step just before BigQueryIO (Beam distribution)");
      d.put(METRIC_COUNT, pipelineMetric.count());
      d.put(METRIC_MEAN, pipelineMetric.mean());
      d.put(METRIC_MIN, pipelineMetric.min());
      d.put(METRIC_MAX, pipelineMetric.max());
    }
    return json;
  }

  static LatencyFigures fromJson(JsonNode json) {
    JsonNode metric = json.path(PIPELINE_METRIC);
    List<Spread> windows = new ArrayList<>();
    json.path(BY_CREATION_TIME).forEach(window -> windows.add(Spread.fromJson(window)));
    return new LatencyFigures(
        Spread.fromJson(json),
        Spread.fromJson(json.path(AFTER_WARMUP)),
        windows,
        metric.isObject()
            ? new RunResult.LatencyDistribution(
                metric.path(METRIC_COUNT).asLong(),
                metric.path(METRIC_MEAN).asDouble(),
                metric.path(METRIC_MIN).asLong(),
                metric.path(METRIC_MAX).asLong())
            : null);
  }
}
