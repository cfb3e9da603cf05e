package io.thriftbq.ingest.deadletter;

import java.util.Objects;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Gathers the dead letters of every stage into one collection and stamps each with the output table
 * it was meant for: the one place the event table is set, so the steps that make dead letters need
 * not know it.
 */
public final class GatherDeadLetters
    extends PTransform<PCollectionList<DeadLetter>, PCollection<DeadLetter>> {
  private final String eventTable;

  private GatherDeadLetters(String eventTable) {
    this.eventTable = Objects.requireNonNull(eventTable, "eventTable");
  }

  /** Stamps every dead letter with {@code eventTable}. */
  public static GatherDeadLetters forTable(String eventTable) {
    return new GatherDeadLetters(eventTable);
  }

  @Override
  public PCollection<DeadLetter> expand(PCollectionList<DeadLetter> deadLetters) {
    String table = eventTable;
    return deadLetters
        .apply("Flatten", Flatten.pCollections())
        .apply(
            "StampEventTable",
            MapElements.into(TypeDescriptor.of(DeadLetter.class))
                .via((DeadLetter deadLetter) -> deadLetter.withEventTable(table)))
        .setCoder(DeadLetterCoder.of());
  }
}
