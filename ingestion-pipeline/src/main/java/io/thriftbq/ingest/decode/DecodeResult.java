package io.thriftbq.ingest.decode;

import io.thriftbq.ingest.deadletter.DeadLetter;
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
 * The output of {@link DecodeEvents}: rows stamped with their event-creation time, and the events
 * that failed (stages DECODE, TRANSFORM, CONVERT).
 *
 * @param <T> the row type
 */
public final class DecodeResult<T> implements POutput {
  private final Pipeline pipeline;
  private final TupleTag<TimestampedValue<T>> rowsTag;
  private final PCollection<TimestampedValue<T>> rows;
  private final TupleTag<DeadLetter> deadLettersTag;
  private final PCollection<DeadLetter> deadLetters;

  DecodeResult(
      Pipeline pipeline,
      TupleTag<TimestampedValue<T>> rowsTag,
      PCollection<TimestampedValue<T>> rows,
      TupleTag<DeadLetter> deadLettersTag,
      PCollection<DeadLetter> deadLetters) {
    this.pipeline = pipeline;
    this.rowsTag = rowsTag;
    this.rows = rows;
    this.deadLettersTag = deadLettersTag;
    this.deadLetters = deadLetters;
  }

  /**
   * Rows, each with the event's creation time (from the event-time attribute, else the publish
   * time) as the {@link TimestampedValue}'s timestamp. This is not the element's Beam timestamp,
   * which stays the publish time; the write step uses it for the end-to-end latency metric.
   */
  public PCollection<TimestampedValue<T>> rows() {
    return rows;
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
    return Map.of(rowsTag, rows, deadLettersTag, deadLetters);
  }

  @Override
  public void finishSpecifyingOutput(
      String transformName, PInput input, PTransform<?, ?> transform) {}
}
