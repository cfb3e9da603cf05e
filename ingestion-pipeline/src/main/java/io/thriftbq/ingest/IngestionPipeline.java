package io.thriftbq.ingest;

import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.GatherDeadLetters;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.Source;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.ingest.plan.TypePlan;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.read.EventMessageCoder;
import io.thriftbq.ingest.read.PubsubEventSource;
import io.thriftbq.ingest.read.UnpackMessages;
import io.thriftbq.ingest.read.UnpackResult;
import io.thriftbq.ingest.torows.MessagesToRows;
import io.thriftbq.ingest.torows.RowTarget;
import io.thriftbq.ingest.torows.RowsAndDeadLetters;
import io.thriftbq.ingest.write.WriteDeadLetters;
import io.thriftbq.ingest.write.WriteEvents;
import io.thriftbq.ingest.write.WriteEventsToTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollection.IsBounded;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pub/Sub (Thrift events, optionally in envelopes) → decode → optional user function → row format →
 * BigQuery, with every failure in a dead-letter table. The options become an {@link IngestionPlan}
 * once, at launch; the transforms get their parts of it. docs/ARCHITECTURE.md draws the stages.
 */
public final class IngestionPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(IngestionPipeline.class);

  private IngestionPipeline() {}

  public static void main(String[] args) {
    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(IngestionOptions.class);
    Pipeline pipeline = launch(options, null);
    PipelineResult result = pipeline.run();
    if (options.getRunner() == DirectRunner.class) {
      PipelineResult.State state = result.waitUntilFinish();
      LOG.info("Pipeline finished: {}", state);
      // The Storage Write API client leaves a non-daemon thread behind; without exit the JVM of
      // a local run would never end.
      System.exit(state == PipelineResult.State.DONE ? 0 : 1);
    }
  }

  /**
   * Plans {@code options} (failing with a message that says what to change) and builds the pipeline
   * reading from the options' source (Pub/Sub or Kafka). The caller runs it.
   */
  public static Pipeline buildPipeline(IngestionOptions options) {
    return buildPipeline(options, null);
  }

  /**
   * Like {@link #buildPipeline(IngestionOptions)}, writing through {@code bigQueryServices} instead
   * of the real BigQuery services (local mode's), or the real ones when null.
   */
  public static Pipeline buildPipeline(
      IngestionOptions options, @Nullable BigQueryServices bigQueryServices) {
    return build(
        options,
        IngestionPlan.of(options, IngestionPlan.Input.SOURCE)
            .withBigQueryServices(bigQueryServices));
  }

  /**
   * What {@code main} and local mode do: plans the options, sets the tables up as the plan says (an
   * existing output table brought up to the IDL's schema, missing tables created: the only steps
   * that talk to BigQuery before the run), and builds the pipeline. {@link #buildPipeline} does no
   * I/O.
   *
   * @param bigQueryServices services for the table setup and the writes, or null for the real ones
   * @throws IllegalArgumentException for invalid options or an incompatible table, saying what to
   *     change
   */
  public static Pipeline launch(
      IngestionOptions options, @Nullable BigQueryServices bigQueryServices) {
    return launch(options, bigQueryServices, null, Duration.ZERO);
  }

  /**
   * Like {@link #launch(IngestionOptions, BigQueryServices)}, reading Pub/Sub through clients of
   * {@code pubsubClientFactory} instead of Beam's JSON client when not null (local mode's plaintext
   * gRPC client for its local server), pausing pulls for {@code emptyPullPause} after an empty one
   * ({@link io.thriftbq.ingest.read.PubsubEventSource#withEmptyPullPause}).
   */
  public static Pipeline launch(
      IngestionOptions options,
      @Nullable BigQueryServices bigQueryServices,
      PubsubClient.@Nullable PubsubClientFactory pubsubClientFactory,
      Duration emptyPullPause) {
    IngestionPlan plan =
        IngestionPlan.of(options, IngestionPlan.Input.SOURCE)
            .withBigQueryServices(bigQueryServices)
            .withPubsubClientFactory(pubsubClientFactory)
            .withPubsubEmptyPullPause(emptyPullPause);
    plan.tableSetup().run(options, bigQueryServices);
    return build(options, plan);
  }

  private static Pipeline build(IngestionOptions options, IngestionPlan plan) {
    // Pub/Sub and Kafka input is unbounded; Dataflow must run it as a streaming job.
    options.setStreaming(true);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<EventMessage> messages =
        pipeline.apply(
            options.getSource() == Source.KAFKA ? "ReadKafka" : "ReadPubsub",
            Objects.requireNonNull(plan.source(), "the plan of a source has its read"));
    ingestMessages(messages, plan);
    return pipeline;
  }

  /**
   * Applies everything after the read to Pub/Sub-shaped {@code messages}: for tests (bounded or
   * TestStream input, Beam's BigQuery fakes as {@code bigQueryServices}) and for embedding in
   * another pipeline. Plans the options for that input first.
   *
   * @param bigQueryServices services for both writes, or null for the real ones
   * @return every dead letter, before it is written to the dead-letter table
   */
  public static PCollection<DeadLetter> ingest(
      PCollection<PubsubMessage> messages,
      IngestionOptions options,
      @Nullable BigQueryServices bigQueryServices) {
    return ingestMessages(
        messages
            .apply("ToEventMessages", ParDo.of(new PubsubEventSource.ToEventMessage()))
            .setCoder(EventMessageCoder.of()),
        options,
        bigQueryServices);
  }

  /**
   * Applies everything after the read to {@code messages} from any source (their Kafka origin
   * kept), as {@link #ingest(PCollection, IngestionOptions, BigQueryServices)} does.
   */
  public static PCollection<DeadLetter> ingestMessages(
      PCollection<EventMessage> messages,
      IngestionOptions options,
      @Nullable BigQueryServices bigQueryServices) {
    IngestionPlan.Input input =
        messages.isBounded() == IsBounded.BOUNDED
            ? IngestionPlan.Input.BOUNDED_MESSAGES
            : IngestionPlan.Input.UNBOUNDED_MESSAGES;
    return ingestMessages(
        messages, IngestionPlan.of(options, input).withBigQueryServices(bigQueryServices));
  }

  /** Applies everything after the read, as {@code plan} says; returns every dead letter. */
  public static PCollection<DeadLetter> ingestMessages(
      PCollection<EventMessage> messages, IngestionPlan plan) {
    UnpackResult unpacked = messages.apply("Unpack", UnpackMessages.create());
    PCollectionList<DeadLetter> failures =
        decodeAndWrite(unpacked.events(), plan, plan.sink()).and(unpacked.deadLetters());
    PCollection<DeadLetter> deadLetters =
        failures.apply(
            "AllDeadLetters",
            plan.isSingleType()
                ? GatherDeadLetters.forTable(plan.outputTable())
                : GatherDeadLetters.unstamped());
    deadLetters
        .apply(
            "WriteDeadLetters",
            WriteDeadLetters.to(plan.deadLetterTable())
                .withCreateTable(plan.write().createTable())
                .withTestServices(plan.bigQueryServices()))
        .setCoder(TableRowJsonCoder.of());
    return deadLetters;
  }

  /**
   * Decodes every type and writes each to its table; binds the sink's element type once, for both
   * the decoder and the writes. Returns the decoder's and every write's dead letters.
   */
  private static <R, E> PCollectionList<DeadLetter> decodeAndWrite(
      PCollection<EventMessage> events, IngestionPlan plan, EventSink<R, E> sink) {
    List<RowTarget> targets = new ArrayList<>();
    for (TypePlan type : plan.types()) {
      targets.add(new RowTarget(type.name(), type.table(), type.decoding(), type.write().change()));
    }
    RowsAndDeadLetters<E> decoded =
        events.apply(
            "Decode",
            MessagesToRows.routing(sink, plan.router(), targets)
                .withUdfClassName(plan.udfClassName())
                .withEventTimeAttribute(plan.eventTimeAttribute()));
    PCollectionList<DeadLetter> deadLetters = PCollectionList.of(decoded.deadLetters());
    if (!plan.isSingleType()) {
      LOG.info("Writing with {}", plan.describeWrites());
    }
    if (plan.writesEveryTableAtOnce()) {
      PCollectionList<TimestampedValue<E>> rows = PCollectionList.empty(events.getPipeline());
      List<WriteEventsToTables.StructTable> tables = new ArrayList<>();
      for (int i = 0; i < plan.types().size(); i++) {
        TypePlan type = plan.types().get(i);
        rows = rows.and(decoded.rows(i));
        tables.add(new WriteEventsToTables.StructTable(type.name(), type.schemas(), type.write()));
      }
      return deadLetters.and(
          rows.apply(
              "WriteEvents",
              WriteEventsToTables.of(sink, tables).withTestServices(plan.bigQueryServices())));
    }
    for (int i = 0; i < plan.types().size(); i++) {
      TypePlan type = plan.types().get(i);
      // A single-type job keeps the step names it always had (a Dataflow update matches by name).
      String suffix = plan.isSingleType() ? "" : "_" + type.type().tableName();
      WriteEvents<R, E> write =
          WriteEvents.of(sink, type.schemas(), type.write())
              .withTestServices(plan.bigQueryServices());
      if (!plan.isSingleType()) {
        write = write.forStruct(type.name());
      }
      PCollection<DeadLetter> rejected = decoded.rows(i).apply("WriteEvents" + suffix, write);
      deadLetters = deadLetters.and(rejected);
    }
    return deadLetters;
  }
}
