package io.thriftbq.ingest.read;

import io.thriftbq.ingest.deadletter.DeadLetter;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.TupleTag;

/** The output of {@link UnpackMessages}: one message per event, and corrupt envelopes. */
public final class UnpackResult implements POutput {
  private final Pipeline pipeline;
  private final TupleTag<EventMessage> eventsTag;
  private final PCollection<EventMessage> events;
  private final TupleTag<DeadLetter> deadLettersTag;
  private final PCollection<DeadLetter> deadLetters;

  UnpackResult(
      Pipeline pipeline,
      TupleTag<EventMessage> eventsTag,
      PCollection<EventMessage> events,
      TupleTag<DeadLetter> deadLettersTag,
      PCollection<DeadLetter> deadLetters) {
    this.pipeline = pipeline;
    this.eventsTag = eventsTag;
    this.events = events;
    this.deadLettersTag = deadLettersTag;
    this.deadLetters = deadLetters;
  }

  /** One message per event, each holding exactly one serialized event. */
  public PCollection<EventMessage> events() {
    return events;
  }

  /** Envelopes that could not be unpacked (stage UNPACK, payload format ENVELOPE). */
  public PCollection<DeadLetter> deadLetters() {
    return deadLetters;
  }

  @Override
  public Pipeline getPipeline() {
    return pipeline;
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    return Map.of(eventsTag, events, deadLettersTag, deadLetters);
  }

  @Override
  public void finishSpecifyingOutput(
      String transformName, PInput input, PTransform<?, ?> transform) {}
}
