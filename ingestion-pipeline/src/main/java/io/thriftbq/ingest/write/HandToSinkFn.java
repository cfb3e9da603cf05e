package io.thriftbq.ingest.write;

import io.thriftbq.ingest.metrics.IngestionMetrics;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The last step before BigQueryIO: counts the rows handed to the sink and records, per row, how
 * long ago its event was created, in total and, in a many-types job, per struct. It unwraps the
 * creation time the decode step attached.
 */
final class HandToSinkFn<T> extends DoFn<TimestampedValue<T>, T> {
  private final Counter rowsToBigQuery =
      IngestionMetrics.counter(IngestionMetrics.ROWS_TO_BIGQUERY);
  private final Distribution latency =
      IngestionMetrics.distribution(IngestionMetrics.END_TO_END_LATENCY_MS);
  private final @Nullable Counter structRows;
  private final @Nullable Distribution structLatency;

  /**
   * @param struct the struct of a many-types job's write, or null
   */
  HandToSinkFn(@Nullable String struct) {
    this.structRows =
        struct == null
            ? null
            : IngestionMetrics.counter(
                IngestionMetrics.ofStruct(IngestionMetrics.ROWS_TO_BIGQUERY, struct));
    this.structLatency =
        struct == null
            ? null
            : IngestionMetrics.distribution(
                IngestionMetrics.ofStruct(IngestionMetrics.END_TO_END_LATENCY_MS, struct));
  }

  @ProcessElement
  public void process(@Element TimestampedValue<T> row, OutputReceiver<T> out) {
    rowsToBigQuery.inc();
    if (structRows != null) {
      structRows.inc();
    }
    long createdAt = row.getTimestamp().getMillis();
    if (createdAt > BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis()) {
      // Clamped at zero: clocks of publishers and workers are not perfectly in step.
      long millis = Math.max(0, System.currentTimeMillis() - createdAt);
      latency.update(millis);
      if (structLatency != null) {
        structLatency.update(millis);
      }
    }
    out.output(row.getValue());
  }
}
