package io.thriftbq.local.progress;

import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.local.engine.FlinkMetrics;
import io.thriftbq.local.engine.PipelineControl;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * The pipelines' Beam metrics while they run: read from Flink's metric system on the embedded
 * cluster (whose {@code PipelineResult} has none until the job ends), else from the result.
 */
public final class PipelineMetrics {
  private PipelineMetrics() {}

  /** The ingestion pipeline's counters and distributions so far. */
  public static MetricQueryResults ingestion(PipelineResult ingestion) {
    if (PipelineControl.isFlink(ingestion)) {
      return FlinkMetrics.latestJob(IngestionMetrics.NAMESPACE);
    }
    return ingestion
        .metrics()
        .queryMetrics(
            MetricsFilter.builder()
                .addNameFilter(MetricNameFilter.inNamespace(IngestionMetrics.NAMESPACE))
                .build());
  }

  /** Events the generator pipeline has published so far; 0 when it cannot say. */
  public static long generatorPublished(PipelineResult datagen) {
    try {
      MetricQueryResults results =
          datagen
              .metrics()
              .queryMetrics(
                  MetricsFilter.builder()
                      .addNameFilter(MetricNameFilter.named("datagen", "events_generated"))
                      .build());
      long total = 0;
      for (MetricResult<Long> counter : results.getCounters()) {
        total += counter.getAttempted();
      }
      return total;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** Each counter, summed over the steps that report it. */
  public static Map<String, Long> counters(MetricQueryResults results) {
    Map<String, Long> totals = new HashMap<>();
    for (MetricResult<Long> counter : results.getCounters()) {
      totals.merge(counter.getName().getName(), counter.getAttempted(), Long::sum);
    }
    return totals;
  }

  /** The distribution {@code name}, merged over the steps that report it; null when none does. */
  public static DistributionResult distribution(MetricQueryResults results, String name) {
    DistributionResult merged = null;
    for (MetricResult<DistributionResult> d : results.getDistributions()) {
      if (!d.getName().getName().equals(name)) {
        continue;
      }
      DistributionResult value = d.getAttempted();
      merged =
          merged == null
              ? value
              : DistributionResult.create(
                  merged.getSum() + value.getSum(),
                  merged.getCount() + value.getCount(),
                  Math.min(merged.getMin(), value.getMin()),
                  Math.max(merged.getMax(), value.getMax()));
    }
    return merged;
  }
}
