package io.thriftbq.ingest.deadletter;

import java.util.Objects;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Gathers the dead letters of every stage into one collection and stamps each that does not name
 * its output table yet with the table it was meant for, so the steps that make dead letters need
 * not know it. In a many-types job the table depends on the struct and is stamped where it is
 * known; what is left unstamped there (a message no struct was found for) has no table.
 */
public final class GatherDeadLetters
    extends PTransform<PCollectionList<DeadLetter>, PCollection<DeadLetter>> {
  private final String eventTable;
  private final String eventStruct;

  private GatherDeadLetters(String eventTable, String eventStruct) {
    this.eventTable = Objects.requireNonNull(eventTable, "eventTable");
    this.eventStruct = Objects.requireNonNull(eventStruct, "eventStruct");
  }

  /** Stamps every dead letter without a table with {@code eventTable}. */
  public static GatherDeadLetters forTable(String eventTable) {
    return new GatherDeadLetters(eventTable, "");
  }

  /** Stamps every dead letter without a table with {@code eventTable} and {@code struct}. */
  public static GatherDeadLetters forStruct(String eventTable, String struct) {
    return new GatherDeadLetters(eventTable, struct);
  }

  /** Gathers without stamping. */
  public static GatherDeadLetters unstamped() {
    return new GatherDeadLetters("", "");
  }

  @Override
  public PCollection<DeadLetter> expand(PCollectionList<DeadLetter> deadLetters) {
    String table = eventTable;
    String struct = eventStruct;
    PCollection<DeadLetter> all =
        deadLetters.apply("Flatten", Flatten.pCollections()).setCoder(DeadLetterCoder.of());
    if (table.isEmpty()) {
      return all;
    }
    return all.apply(
            "StampEventTable",
            MapElements.into(TypeDescriptor.of(DeadLetter.class))
                .via(
                    (DeadLetter deadLetter) ->
                        deadLetter.eventTable().isEmpty()
                            ? deadLetter.withEvent(table, struct)
                            : deadLetter))
        .setCoder(DeadLetterCoder.of());
  }
}
