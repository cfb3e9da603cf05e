package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import java.util.function.Function;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.Partition;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * The hand-off before an at-least-once write ({@code --handOffBeforeWrite}, {@code
 * --handOffWriters}): the one place that puts a Reshuffle between the decode and BigQueryIO, for a
 * write to one table ({@link WriteEvents}) and to several ({@link WriteEventsToTables}).
 *
 * <p>Why: BigQueryIO's at-least-once writer sends one append per table when a bundle ends and waits
 * for it before the bundle can finish. A runner that fuses the read, the decode and the write into
 * one thread (Flink, local mode's engine) then reads and decodes nothing while it waits, and keeps
 * one append in flight. Behind a Reshuffle the write runs in a thread of its own, so the read and
 * the decode go on. With more than one writer, the rows are dealt out in turn to that many writers,
 * each behind a Reshuffle of its own: Flink runs each in its own thread, so that many appends are
 * in flight at once, while the read and the decode still run once (section 32 of
 * benchmarks/RESULTS.md). Dataflow runs many bundles of a stage at once already and needs neither.
 */
final class HandOff {
  private HandOff() {}

  /**
   * Hands {@code input} to {@code writers} writers and returns what they give back, together (the
   * rows BigQuery rejected). {@code write} applies one writer (everything after the hand-off) to
   * its share of the rows; with one writer its transforms keep the names they have without a split,
   * with more each writer's are inside a composite {@code Writer1}, {@code Writer2}, ...
   */
  static <T, R> PCollection<R> toWriters(
      PCollection<T> input, int writers, Function<PCollection<T>, PCollection<R>> write) {
    checkArgument(writers >= 1, "a hand-off feeds at least one writer, got %s", writers);
    if (writers == 1) {
      return write.apply(input.apply("HandOff", Reshuffle.viaRandomKey()));
    }
    PCollectionList<T> shares =
        input.apply("DealToWriters", Partition.of(writers, new InTurn<T>()));
    PCollectionList<R> results = PCollectionList.empty(input.getPipeline());
    for (int i = 0; i < writers; i++) {
      results = results.and(shares.get(i).apply("Writer" + (i + 1), new Writer<>(write)));
    }
    return results.apply("AllWriters", Flatten.pCollections()).setCoder(results.get(0).getCoder());
  }

  /** Deals the elements out to the partitions in turn, so every writer gets an even share. */
  static final class InTurn<T> implements Partition.PartitionFn<T> {
    private int next;

    @Override
    public int partitionFor(T element, int partitions) {
      next = next + 1 < partitions ? next + 1 : 0;
      return next;
    }
  }

  /** One writer behind a hand-off of its own. */
  private static final class Writer<T, R> extends PTransform<PCollection<T>, PCollection<R>> {
    // Used while the graph is built only; a composite is never serialized with the job's DoFns.
    private final transient Function<PCollection<T>, PCollection<R>> write;

    Writer(Function<PCollection<T>, PCollection<R>> write) {
      this.write = write;
    }

    @Override
    public PCollection<R> expand(PCollection<T> share) {
      return write.apply(share.apply("HandOff", Reshuffle.viaRandomKey()));
    }
  }
}
