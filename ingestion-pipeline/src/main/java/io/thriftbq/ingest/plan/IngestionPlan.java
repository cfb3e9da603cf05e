package io.thriftbq.ingest.plan;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.read.PubsubEventSource;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.write.TableSetup;
import io.thriftbq.ingest.write.WriteEventsToTables;
import io.thriftbq.ingest.write.WriteSettings;
import io.thriftbq.schema.EventTypes;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Everything the ingestion pipeline does, decided once from the options: read once, checked once
 * (by {@link IngestionPlanner}, which reports every problem at launch), and then handed out in
 * parts, so that no transform reads the options.
 *
 * @param source the read of the options' source (Pub/Sub or Kafka), or null when messages come from
 *     elsewhere (tests, embedding)
 * @param eventTypes the job's event types and how messages name theirs
 * @param types per event type (one in a single-type job), in {@code eventTypes}' order: its
 *     decoding and its write
 * @param sink the effective format's sink and element type: with streaming inserts, Avro and proto
 *     become TableRows (converted once, in the decoder); with {@code --keepPayloadForWriteFailures}
 *     elements carry their payload
 * @param tableSetup what launch does to the tables before the run: schema update, creation, layout
 * @param deadLetterTable the dead-letter table
 * @param udfClassName the user function, or null
 * @param eventTimeAttribute the attribute with the event-creation time, or null
 * @param bigQueryServices services replacing the real ones (Beam's fakes, local mode's), or null
 */
public record IngestionPlan(
    @Nullable PTransform<PBegin, PCollection<EventMessage>> source,
    EventTypes eventTypes,
    List<TypePlan> types,
    EventSink<?, ?> sink,
    TableSetup tableSetup,
    String deadLetterTable,
    @Nullable String udfClassName,
    @Nullable String eventTimeAttribute,
    @Nullable BigQueryServices bigQueryServices) {

  public IngestionPlan {
    Objects.requireNonNull(eventTypes, "eventTypes");
    types = List.copyOf(types);
    if (types.size() != eventTypes.types().size()) {
      throw new IllegalArgumentException("one TypePlan per event type");
    }
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(tableSetup, "tableSetup");
    Objects.requireNonNull(deadLetterTable, "deadLetterTable");
  }

  /** Where the messages come from, which decides the checks that apply. */
  public enum Input {
    /** The source the options name (Pub/Sub or Kafka): unbounded. */
    SOURCE,
    /** Messages handed over by the caller, bounded (tests). */
    BOUNDED_MESSAGES,
    /** Messages handed over by the caller, unbounded (TestStream, embedding). */
    UNBOUNDED_MESSAGES;

    public boolean bounded() {
      return this == BOUNDED_MESSAGES;
    }
  }

  /**
   * The plan for {@code options}.
   *
   * @throws IllegalArgumentException listing every problem and what to change
   */
  public static IngestionPlan of(IngestionOptions options, Input input) {
    return IngestionPlanner.plan(options, input);
  }

  /** Whether the job ingests one event type. */
  public boolean isSingleType() {
    return eventTypes.isSingle();
  }

  /** The first event type's plan: in a single-type job, the only one. */
  public TypePlan firstType() {
    return types.get(0);
  }

  /**
   * Whether every struct's table is written with one BigQuery write ({@link WriteEventsToTables}),
   * rather than one write per struct; a single-type job has one write either way.
   */
  public boolean writesEveryTableAtOnce() {
    return !isSingleType() && WriteEventsToTables.canWrite(sink, write().method());
  }

  /** How the events are written, in a sentence for the launch log and local mode's header. */
  public String describeWrites() {
    if (isSingleType()) {
      return "one BigQuery write, to " + outputTable();
    }
    if (writesEveryTableAtOnce()) {
      return "one BigQuery write for the " + types.size() + " structs' tables";
    }
    return "one BigQuery write per struct ("
        + types.size()
        + "), because "
        + WriteEventsToTables.whyNot(sink, write().method());
  }

  /** The first type's decoding: struct, protocol, limits, metadata columns. */
  public ConverterConfig decoding() {
    return firstType().decoding();
  }

  /** The write settings, with the first type's table: the knobs are the same for every type. */
  public WriteSettings write() {
    return firstType().write();
  }

  /** The first type's schemas: the table, Beam and Avro schemas derived from the struct. */
  public EventSchemas schemas() {
    return firstType().schemas();
  }

  /** The first type's output table: in a single-type job, the output table. */
  public String outputTable() {
    return firstType().table();
  }

  /** The router that tells each message's type (nothing to tell in a single-type job). */
  public EventRouter router() {
    return EventRouter.of(eventTypes, decoding().protocol());
  }

  /**
   * This plan reading Pub/Sub through clients of {@code factory} instead of Beam's JSON client (for
   * example a plaintext gRPC client for a local server); a plan reading Kafka, or handed its
   * messages, is returned unchanged.
   */
  public IngestionPlan withPubsubClientFactory(PubsubClient.@Nullable PubsubClientFactory factory) {
    return factory == null ? this : withPubsub(pubsub -> pubsub.withClientFactory(factory));
  }

  /**
   * This plan pausing Pub/Sub pulls for {@code pause} after an empty one ({@link
   * PubsubEventSource#withEmptyPullPause}); a plan reading Kafka, or handed its messages, is
   * returned unchanged.
   */
  public IngestionPlan withPubsubEmptyPullPause(Duration pause) {
    return withPubsub(pubsub -> pubsub.withEmptyPullPause(pause));
  }

  private IngestionPlan withPubsub(UnaryOperator<PubsubEventSource> change) {
    if (!(source instanceof PubsubEventSource pubsub)) {
      return this;
    }
    return new IngestionPlan(
        change.apply(pubsub),
        eventTypes,
        types,
        sink,
        tableSetup,
        deadLetterTable,
        udfClassName,
        eventTimeAttribute,
        bigQueryServices);
  }

  /** This plan writing through {@code services} instead of the real BigQuery services. */
  public IngestionPlan withBigQueryServices(@Nullable BigQueryServices services) {
    return new IngestionPlan(
        source,
        eventTypes,
        types,
        sink,
        tableSetup,
        deadLetterTable,
        udfClassName,
        eventTimeAttribute,
        services);
  }
}
