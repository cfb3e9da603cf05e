package io.thriftbq.ingest.plan;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.write.TableSetup;
import io.thriftbq.ingest.write.WriteSettings;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Everything the ingestion pipeline does, decided once from the options: read once, checked once
 * (by {@link IngestionPlanner}, which reports every problem at launch), and then handed out in
 * parts, so that no transform reads the options.
 *
 * @param subscription the Pub/Sub subscription to read, or null
 * @param inputTopic the Pub/Sub topic to read, or null; with a subscription, exactly one is set
 *     when the pipeline reads Pub/Sub, neither when messages come from elsewhere (tests, embedding)
 * @param decoding the struct, protocol, limits and metadata columns the decoder works with
 * @param sink the effective format's sink and element type: with streaming inserts, Avro and proto
 *     become TableRows (converted once, in the decoder); with {@code --keepPayloadForWriteFailures}
 *     elements carry their payload
 * @param write the event write's table and every tuning knob
 * @param tableSetup what launch does to the tables before the run: schema update, creation, layout
 * @param deadLetterTable the dead-letter table
 * @param udfClassName the user function, or null
 * @param eventTimeAttribute the attribute with the event-creation time, or null
 * @param bigQueryServices services replacing the real ones (Beam's fakes, local mode's), or null
 */
public record IngestionPlan(
    @Nullable String subscription,
    @Nullable String inputTopic,
    ConverterConfig decoding,
    EventSink<?, ?> sink,
    WriteSettings write,
    TableSetup tableSetup,
    String deadLetterTable,
    @Nullable String udfClassName,
    @Nullable String eventTimeAttribute,
    @Nullable BigQueryServices bigQueryServices) {

  public IngestionPlan {
    Objects.requireNonNull(decoding, "decoding");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(write, "write");
    Objects.requireNonNull(tableSetup, "tableSetup");
    Objects.requireNonNull(deadLetterTable, "deadLetterTable");
  }

  /** Where the messages come from, which decides the checks that apply. */
  public enum Input {
    /** The subscription or topic of the options: unbounded. */
    PUBSUB,
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

  /** The schemas of the rows: the table, Beam and Avro schemas derived from the struct. */
  public EventSchemas schemas() {
    return decoding.schemas();
  }

  /** The output table. */
  public String outputTable() {
    return write.table();
  }

  /** This plan writing through {@code services} instead of the real BigQuery services. */
  public IngestionPlan withBigQueryServices(@Nullable BigQueryServices services) {
    return new IngestionPlan(
        subscription,
        inputTopic,
        decoding,
        sink,
        write,
        tableSetup,
        deadLetterTable,
        udfClassName,
        eventTimeAttribute,
        services);
  }
}
