package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.result.RunResult;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A run's measured figures, as values: what the JSON report's {@code throughput}, {@code costs} and
 * {@code latency_ms} objects are written from, and what the text report and the step comparison
 * read. Each part owns its JSON keys ({@link ThroughputFigures}, {@link CostFigures}, {@link
 * LatencyFigures}), so each key is spelled once.
 */
public record ReportFigures(
    ThroughputFigures throughput, CostFigures costs, LatencyFigures latency) {

  static ReportFigures of(RunResult result) {
    return new ReportFigures(
        ThroughputFigures.of(result), CostFigures.of(result), LatencyFigures.of(result));
  }

  /** The figures of a JSON report (as {@code --report} writes it), for tools that read one back. */
  public static ReportFigures fromJson(JsonNode report) {
    return new ReportFigures(
        ThroughputFigures.fromJson(report.path(ThroughputFigures.KEY)),
        CostFigures.fromJson(
            report.path(CostFigures.KEY), sourceKind(report.path("configuration"))),
        LatencyFigures.fromJson(report.path(LatencyFigures.KEY)));
  }

  /**
   * Which server carried a run's events, from its source's names ({@link
   * io.thriftbq.local.source.EventSource#describe()}): anything but Kafka is Pub/Sub, as in reports
   * written before the source was named.
   */
  static SourceKind sourceKind(Map<String, String> source) {
    return "kafka".equals(source.get("source")) ? SourceKind.KAFKA : SourceKind.PUBSUB;
  }

  /** The same, from a JSON report's {@code configuration}. */
  static SourceKind sourceKind(JsonNode configuration) {
    return "kafka".equals(configuration.path("source").asText())
        ? SourceKind.KAFKA
        : SourceKind.PUBSUB;
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
