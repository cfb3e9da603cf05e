package io.thriftbq.ingest.torows;

import io.thriftbq.ingest.deadletter.DeadLetter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The output of {@link MessagesToRows}: each event type's rows stamped with their event-creation
 * time, and the events that failed (stages ROUTE, DECODE, TRANSFORM, CONVERT, CHANGE).
 *
 * @param <T> the element type
 */
public final class RowsAndDeadLetters<T> implements POutput {
  private final Pipeline pipeline;
  private final List<TupleTag<TimestampedValue<T>>> rowsTags;
  private final List<PCollection<TimestampedValue<T>>> rows;
  private final TupleTag<DeadLetter> deadLettersTag;
  private final PCollection<DeadLetter> deadLetters;

  RowsAndDeadLetters(
      Pipeline pipeline,
      List<TupleTag<TimestampedValue<T>>> rowsTags,
      List<PCollection<TimestampedValue<T>>> rows,
      TupleTag<DeadLetter> deadLettersTag,
      PCollection<DeadLetter> deadLetters) {
    this.pipeline = pipeline;
    this.rowsTags = List.copyOf(rowsTags);
    this.rows = List.copyOf(rows);
    this.deadLettersTag = deadLettersTag;
    this.deadLetters = deadLetters;
  }

  /**
   * The rows of the type at {@code index} (in the order the targets were given), each with the
   * event's creation time (from the event-time attribute, else the publish time) as the {@link
   * TimestampedValue}'s timestamp. This is not the element's Beam timestamp, which stays the
   * publish time; the write step uses it for the end-to-end latency metric.
   */
  public PCollection<TimestampedValue<T>> rows(int index) {
    return rows.get(index);
  }

  /** The rows of a single-type step; see {@link #rows(int)}. */
  public PCollection<TimestampedValue<T>> rows() {
    if (rows.size() != 1) {
      throw new IllegalStateException("this step has " + rows.size() + " types: use rows(i)");
    }
    return rows.get(0);
  }

  public PCollection<DeadLetter> deadLetters() {
    return deadLetters;
  }

  @Override
  public Pipeline getPipeline() {
    return pipeline;
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    Map<TupleTag<?>, PValue> all = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      all.put(rowsTags.get(i), rows.get(i));
    }
    all.put(deadLettersTag, deadLetters);
    return all;
  }

  @Override
  public void finishSpecifyingOutput(
      String transformName, PInput input, PTransform<?, ?> transform) {}
}
