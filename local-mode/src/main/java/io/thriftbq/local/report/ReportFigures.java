package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.source.EventSource;
import java.util.Map;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A run's measured figures, as values: what the JSON report's {@code throughput}, {@code costs},
 * {@code latency_ms} and {@code pipeline_cpu_by_component} objects are written from, and what the
 * text report and the step comparison read. Each part owns its JSON keys ({@link
 * ThroughputFigures}, {@link CostFigures}, {@link LatencyFigures}, {@link PipelineProfile}), so
 * each key is spelled once.
 *
 * @param profile the pipeline's CPU by component; null when the run was not profiled
 */
public record ReportFigures(
    ThroughputFigures throughput,
    CostFigures costs,
    LatencyFigures latency,
    @Nullable PipelineProfile profile) {

  static ReportFigures of(RunResult result) {
    // One window for the steady rate and the CPU figures, which RESULTS and the docs read together.
    Optional<SteadyWindow> steady = SteadyWindow.of(result.progress());
    return new ReportFigures(
        ThroughputFigures.of(result, steady),
        CostFigures.of(result, steady),
        LatencyFigures.of(result),
        result.cpuByComponent());
  }

  /** The figures of a JSON report (as {@code --report} writes it), for tools that read one back. */
  public static ReportFigures fromJson(JsonNode report) {
    return new ReportFigures(
        ThroughputFigures.fromJson(report.path(ThroughputFigures.KEY)),
        CostFigures.fromJson(
            report.path(CostFigures.KEY),
            RunConfiguration.fromJson(report.path(RunConfiguration.KEY)).sourceKind()),
        LatencyFigures.fromJson(report.path(LatencyFigures.KEY)),
        PipelineProfile.fromJson(report.path(PipelineProfile.KEY)));
  }

  /**
   * Which server carried a run's events, from its source's names ({@link EventSource#describe()}):
   * anything but Kafka is Pub/Sub, as in reports written before the source was named.
   */
  static SourceKind sourceKind(Map<String, String> source) {
    return SourceKind.KAFKA.flagValue().equals(source.get(EventSource.SOURCE))
        ? SourceKind.KAFKA
        : SourceKind.PUBSUB;
  }

  /** The same, from a JSON report's {@code configuration}. */
  static SourceKind sourceKind(JsonNode configuration) {
    return RunConfiguration.fromJson(configuration).sourceKind();
  }

  /** One decimal: every figure the report writes is rounded so. */
  static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }

  static void putIfMeasured(ObjectNode json, String key, @Nullable Double value) {
    if (value != null) {
      json.put(key, value);
    }
  }

  static @Nullable Double number(JsonNode node) {
    return node.isNumber() ? node.asDouble() : null;
  }
}
