package io.thriftbq.ingest;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.deadletter.WriteDeadLetters;
import io.thriftbq.ingest.decode.DecodeEvents;
import io.thriftbq.ingest.decode.DecodeResult;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.IngestionOptionsValidator;
import io.thriftbq.ingest.read.PubsubEventSource;
import io.thriftbq.ingest.read.UnpackMessages;
import io.thriftbq.ingest.read.UnpackResult;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.write.WriteEventsToBigQuery;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollection.IsBounded;
import org.apache.beam.sdk.values.PCollectionList;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pub/Sub (Thrift events, optionally in envelopes) → decode → optional user function → row format →
 * BigQuery, with every failure in a dead-letter table.
 *
 * <pre>
 * Read ─▶ CountAndUnpack ─▶ Decode(+UDF, convert) ─▶ HandToSink ─▶ BigQueryIO ─┐ rejected rows
 *              │ UNPACK          │ DECODE/TRANSFORM/CONVERT                   │ WRITE
 *              └─────────────────┴──────────────▶ dead letters ◀──────────────┘
 * </pre>
 */
public final class IngestionPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(IngestionPipeline.class);

  private IngestionPipeline() {}

  public static void main(String[] args) {
    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(IngestionOptions.class);
    Pipeline pipeline = buildPipeline(options);
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
   * Validates {@code options} (failing with a message that says what to change) and builds the
   * pipeline reading from Pub/Sub. The caller runs it.
   */
  public static Pipeline buildPipeline(IngestionOptions options) {
    IngestionOptionsValidator.validate(options);
    // Pub/Sub input is unbounded; Dataflow must run it as a streaming job.
    options.setStreaming(true);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<PubsubMessage> messages =
        pipeline.apply("ReadPubsub", PubsubEventSource.from(options));
    applyAfterRead(messages, options, null);
    return pipeline;
  }

  /**
   * Applies everything after the read to {@code messages}: for tests (bounded or TestStream input,
   * Beam's BigQuery fakes as {@code bigQueryServices}) and for embedding in another pipeline.
   * Validates the options for that input first.
   *
   * @param bigQueryServices services for both writes, or null for the real ones (or the emulator
   *     when {@code --storageWriteApiEmulatorHost} is set)
   * @return every dead letter, before it is written to the dead-letter table
   */
  public static PCollection<DeadLetter> ingest(
      PCollection<PubsubMessage> messages,
      IngestionOptions options,
      @Nullable BigQueryServices bigQueryServices) {
    IngestionOptionsValidator.validate(options, false, messages.isBounded() == IsBounded.BOUNDED);
    return applyAfterRead(messages, options, bigQueryServices);
  }

  private static PCollection<DeadLetter> applyAfterRead(
      PCollection<PubsubMessage> messages,
      IngestionOptions options,
      @Nullable BigQueryServices bigQueryServices) {
    String outputTable = options.getOutputTable().trim();
    EventSchemas schemas =
        EventSchemas.of(options.getThriftClassName(), MetadataColumns.from(options));

    UnpackResult unpacked =
        messages.apply("Unpack", UnpackMessages.create().withEventTable(outputTable));
    DecodeResult<Object> decoded = unpacked.events().apply("Decode", decode(options, schemas));

    WriteEventsToBigQuery<Object> write = WriteEventsToBigQuery.fromOptions(options);
    if (bigQueryServices != null) {
      write = write.withTestServices(bigQueryServices);
    }
    PCollection<DeadLetter> rejected = decoded.rows().apply("WriteEvents", write);

    PCollection<DeadLetter> deadLetters =
        PCollectionList.of(unpacked.deadLetters())
            .and(decoded.deadLetters())
            .and(rejected)
            .apply("AllDeadLetters", Flatten.pCollections())
            .setCoder(DeadLetterCoder.of());
    deadLetters
        .apply(
            "WriteDeadLetters",
            WriteDeadLetters.to(DeadLetterTables.forOptions(options))
                .withMethodFor(options.getBigQueryWriteMethod())
                .withCreateTable(Boolean.TRUE.equals(options.getCreateTable()))
                .withTestServices(write.getTestServices()))
        .setCoder(TableRowJsonCoder.of());
    return deadLetters;
  }

  /**
   * Rows, or with {@code --keepPayloadForWriteFailures} rows with their messages; the write step
   * ({@link WriteEventsToBigQuery#fromOptions}) reads the same option, so both agree on the type.
   */
  @SuppressWarnings("unchecked")
  private static DecodeEvents<Object> decode(IngestionOptions options, EventSchemas schemas) {
    Coder<Object> rowCoder =
        (Coder<Object>) schemas.coderFor(options.getFormatToStore(), options.getProtoClassName());
    ConverterConfig config = ConverterConfig.from(options);
    DecodeEvents<?> decode =
        Boolean.TRUE.equals(options.getKeepPayloadForWriteFailures())
            ? DecodeEvents.keepingPayload(config, options.getFormatToStore(), rowCoder)
            : DecodeEvents.of(config, options.getFormatToStore(), rowCoder);
    return ((DecodeEvents<Object>) decode)
        .withUdfClassName(options.getUdfClassName())
        .withEventTimeAttribute(options.getEventTimeAttribute())
        .withEventTable(options.getOutputTable().trim());
  }
}
