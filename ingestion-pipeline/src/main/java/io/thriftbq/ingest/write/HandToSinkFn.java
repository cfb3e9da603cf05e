package io.thriftbq.ingest.write;

import io.thriftbq.ingest.metrics.IngestionMetrics;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.TimestampedValue;

/**
 * The last step before BigQueryIO: counts the rows handed to the sink and records, per row, how
 * long ago its event was created. It unwraps the creation time the decode step attached.
 */
final class HandToSinkFn<T> extends DoFn<TimestampedValue<T>, T> {
  private final Counter rowsToBigQuery =
      IngestionMetrics.counter(IngestionMetrics.ROWS_TO_BIGQUERY);
  private final Distribution latency =
      IngestionMetrics.distribution(IngestionMetrics.END_TO_END_LATENCY_MS);

  @ProcessElement
  public void process(@Element TimestampedValue<T> row, OutputReceiver<T> out) {
    rowsToBigQuery.inc();
    long createdAt = row.getTimestamp().getMillis();
    if (createdAt > BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis()) {
      // Clamped at zero: clocks of publishers and workers are not perfectly in step.
      latency.update(Math.max(0, System.currentTimeMillis() - createdAt));
    }
    out.output(row.getValue());
  }
}
