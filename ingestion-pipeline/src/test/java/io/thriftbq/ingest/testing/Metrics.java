package io.thriftbq.ingest.testing;

import static org.junit.Assert.assertEquals;

import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** Reads the pipeline's counters after a run. */
public final class Metrics {
  private final PipelineResult result;

  public Metrics(PipelineResult result) {
    this.result = result;
  }

  public long counter(String name) {
    long total = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(IngestionMetrics.NAMESPACE, name))
                    .build())
            .getCounters()) {
      total += counter.getAttempted();
    }
    return total;
  }

  public long failed(Stage stage) {
    return counter(IngestionMetrics.failedName(stage));
  }

  public long deadLettered(Stage stage) {
    return counter(IngestionMetrics.deadLetteredName(stage));
  }

  /** failed_* summed over the stages before the sink (not WRITE, which rows_to_bigquery counts). */
  public long failedBeforeSink() {
    return failed(Stage.UNPACK)
        + failed(Stage.DECODE)
        + failed(Stage.TRANSFORM)
        + failed(Stage.CONVERT);
  }

  /**
   * The two reconciliations the pipeline promises: every event read is handed to BigQuery, failed
   * before the sink or filtered; and the rows written are those handed over minus those BigQuery
   * rejected.
   */
  public void assertCountsReconcile(int rowsWritten) {
    assertEquals(
        "events_read = rows_to_bigquery + failed before the sink + filtered",
        counter(IngestionMetrics.EVENTS_READ),
        counter(IngestionMetrics.ROWS_TO_BIGQUERY)
            + failedBeforeSink()
            + counter(IngestionMetrics.FILTERED));
    assertEquals(
        "rows written = rows_to_bigquery - failed_write",
        counter(IngestionMetrics.ROWS_TO_BIGQUERY) - failed(Stage.WRITE),
        rowsWritten);
  }

  public long latencySamples() {
    long count = 0;
    for (var distribution :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(
                        MetricNameFilter.named(
                            IngestionMetrics.NAMESPACE, IngestionMetrics.END_TO_END_LATENCY_MS))
                    .build())
            .getDistributions()) {
      count += distribution.getAttempted().getCount();
    }
    return count;
  }
}
