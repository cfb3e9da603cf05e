package io.thriftbq.ingest.write;

import io.thriftbq.ingest.format.ToTable;
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
 * creation time the decode step attached, and hands on the element as the write takes it: as it is
 * ({@link #of}), or naming its table for a write to several tables ({@link #toTable}).
 *
 * @param <T> the element type
 * @param <O> what the write takes
 */
abstract class HandToSinkFn<T, O> extends DoFn<TimestampedValue<T>, O> {
  private final Counter rowsToBigQuery =
      IngestionMetrics.counter(IngestionMetrics.ROWS_TO_BIGQUERY);
  private final Distribution latency =
      IngestionMetrics.distribution(IngestionMetrics.END_TO_END_LATENCY_MS);
  private final @Nullable Counter structRows;
  private final @Nullable Distribution structLatency;

  /**
   * @param struct the struct of a many-types job's rows, or null
   */
  private HandToSinkFn(@Nullable String struct) {
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

  /** Hands on the element itself; {@code struct} is null in a single-type job. */
  static <T> HandToSinkFn<T, T> of(@Nullable String struct) {
    return new Plain<>(struct);
  }

  /** Hands on the element with the index of {@code struct}'s table in a write to several. */
  static <T> HandToSinkFn<T, ToTable<T>> toTable(String struct, int table) {
    return new NamingTable<>(struct, table);
  }

  abstract O handed(T element);

  @ProcessElement
  public void process(@Element TimestampedValue<T> row, OutputReceiver<O> out) {
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
    out.output(handed(row.getValue()));
  }

  private static final class Plain<T> extends HandToSinkFn<T, T> {
    Plain(@Nullable String struct) {
      super(struct);
    }

    @Override
    T handed(T element) {
      return element;
    }
  }

  private static final class NamingTable<T> extends HandToSinkFn<T, ToTable<T>> {
    private final int table;

    NamingTable(String struct, int table) {
      super(struct);
      this.table = table;
    }

    @Override
    ToTable<T> handed(T element) {
      return new ToTable<>(table, element);
    }
  }
}
