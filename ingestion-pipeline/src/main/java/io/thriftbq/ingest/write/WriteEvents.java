package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.CreateDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.WriteDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollection.IsBounded;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Writes event elements to BigQuery and returns the rows BigQuery rejected as dead letters (stage
 * WRITE). The format's part of the write comes from the {@link EventSink} (see {@code Format});
 * every shared knob is applied here, in {@link #configure}, from {@link WriteSettings}, whose
 * {@link WriteSettings#problems} are the rules about them.
 *
 * <p>Streaming inserts get extended error info and the retry-transient-errors policy, so a bad row
 * becomes a dead letter instead of being retried forever. By default a rejected row's dead letter
 * carries the row as JSON plus the Pub/Sub metadata recovered from the metadata columns; with an
 * {@link EventSink#keepingPayload} sink it carries the Thrift bytes and the message's metadata (see
 * {@link FailedRows}).
 *
 * <p>Input elements carry the event's creation time (see {@code DecodeResult#rows()}); the step
 * just before the sink counts rows and records the end-to-end latency from it.
 *
 * @param <R> the row type
 * @param <E> the element type, see {@link EventSink}
 */
public final class WriteEvents<R, E>
    extends PTransform<PCollection<TimestampedValue<E>>, PCollection<DeadLetter>> {

  private final EventSink<R, E> sink;
  private final EventSchemas schemas;
  private final WriteSettings settings;
  private final @Nullable BigQueryServices testServices;
  private final @Nullable String struct;

  private WriteEvents(
      EventSink<R, E> sink,
      EventSchemas schemas,
      WriteSettings settings,
      @Nullable BigQueryServices testServices,
      @Nullable String struct) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.schemas = Objects.requireNonNull(schemas, "schemas");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.testServices = testServices;
    this.struct = struct;
  }

  /** Writes {@code sink}'s elements, whose rows have {@code schemas}, with {@code settings}. */
  public static <R, E> WriteEvents<R, E> of(
      EventSink<R, E> sink, EventSchemas schemas, WriteSettings settings) {
    return new WriteEvents<>(sink, schemas, settings, null, null);
  }

  /** BigQuery services to use instead of the real ones: Beam's fakes, or local mode's. */
  public WriteEvents<R, E> withTestServices(@Nullable BigQueryServices services) {
    return new WriteEvents<>(sink, schemas, settings, services, struct);
  }

  /**
   * The write of one struct of a many-types job: its rows and rejected rows are also counted under
   * the struct's name, and its dead letters name the struct and its table.
   */
  public WriteEvents<R, E> forStruct(String structName) {
    return new WriteEvents<>(
        sink, schemas, settings, testServices, Objects.requireNonNull(structName, "structName"));
  }

  @Override
  public PCollection<DeadLetter> expand(PCollection<TimestampedValue<E>> input) {
    boolean unbounded = input.isBounded() == IsBounded.UNBOUNDED;
    List<String> problems = settings.problems(!unbounded);
    checkArgument(problems.isEmpty(), "Cannot write events: %s", problems);
    checkArgument(
        sink.format().forMethod(settings.method()).id() == sink.format().id(),
        "BigQueryIO does not write %s with %s: use Format.forMethod(...) for the sink",
        sink.format(),
        settings.method());

    PCollection<E> elements =
        input
            .apply("HandToSink", ParDo.of(new HandToSinkFn<E>(struct)))
            .setCoder(sink.coder(schemas));
    BigQueryIO.Write<E> write = configure(sink.write(schemas), unbounded);
    WriteResult result = sink.applying(schemas, () -> elements.apply("WriteToBigQuery", write));
    return rejectedRows(result);
  }

  private BigQueryIO.Write<E> configure(BigQueryIO.Write<E> write, boolean unbounded) {
    BigQueryIO.Write<E> configured =
        write
            .to(settings.table())
            .withMethod(settings.method().beamMethod())
            .withWriteDisposition(WriteDisposition.WRITE_APPEND)
            .withCreateDisposition(
                settings.createTable()
                    ? CreateDisposition.CREATE_IF_NEEDED
                    : CreateDisposition.CREATE_NEVER);
    TableLayout layout = settings.layout();
    if (layout.timePartitioning() != null) {
      configured = configured.withTimePartitioning(layout.timePartitioning());
    }
    if (layout.clustering() != null) {
      configured = configured.withClustering(layout.clustering());
    }
    if (settings.method() == WriteMethod.STREAMING_INSERTS) {
      // Without both, a rejected row is retried forever and never reaches the dead letters.
      configured =
          configured
              .withExtendedErrorInfo()
              .withFailedInsertRetryPolicy(InsertRetryPolicy.retryTransientErrors());
    }
    if (unbounded && settings.autoSharding()) {
      configured = configured.withAutoSharding();
    }
    if (unbounded && settings.method().isExactlyOnce()) {
      if (settings.triggeringFrequencySec() != null) {
        configured =
            configured.withTriggeringFrequency(
                Duration.standardSeconds(settings.triggeringFrequencySec()));
      }
      if (settings.numStorageWriteApiStreams() > 0 && !settings.autoSharding()) {
        configured = configured.withNumStorageWriteApiStreams(settings.numStorageWriteApiStreams());
      }
    }
    if (testServices != null) {
      configured = configured.withTestServices(testServices);
    }
    return configured;
  }

  /** The rows BigQuery rejected, as WRITE dead letters. */
  private PCollection<DeadLetter> rejectedRows(WriteResult result) {
    FailedRows.ToDeadLetter toDeadLetter =
        new FailedRows.ToDeadLetter(schemas.metadataColumns(), sink.keepsPayload());
    PCollection<DeadLetter> failed =
        settings.method() == WriteMethod.STREAMING_INSERTS
            ? result
                .getFailedInsertsWithErr()
                .apply("RejectedInserts", ParDo.of(new FailedRows.FromInsertErrorFn(toDeadLetter)))
            : result
                .getFailedStorageApiInserts()
                .apply(
                    "RejectedAppends",
                    ParDo.of(new FailedRows.FromStorageApiErrorFn(toDeadLetter)));
    failed = failed.setCoder(DeadLetterCoder.of());
    if (struct != null) {
      failed =
          failed
              .apply("StampStruct", ParDo.of(new StampStructFn(settings.table(), struct)))
              .setCoder(DeadLetterCoder.of());
    }
    return failed;
  }

  /** Names the struct and table of a many-types job's rejected rows, and counts them per struct. */
  private static final class StampStructFn extends DoFn<DeadLetter, DeadLetter> {
    private final String table;
    private final String struct;
    private final Counter failedWrite;

    StampStructFn(String table, String struct) {
      this.table = table;
      this.struct = struct;
      this.failedWrite =
          IngestionMetrics.counter(
              IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.WRITE), struct));
    }

    @ProcessElement
    public void process(@Element DeadLetter deadLetter, OutputReceiver<DeadLetter> out) {
      failedWrite.inc();
      out.output(deadLetter.withEvent(table, struct));
    }
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder
        .add(DisplayData.item("outputTable", settings.table()))
        .addIfNotNull(DisplayData.item("struct", struct))
        .add(DisplayData.item("formatToStore", sink.format().id().name()))
        .add(DisplayData.item("bigQueryWriteMethod", settings.method().name()))
        .add(DisplayData.item("autoSharding", settings.autoSharding()))
        .add(DisplayData.item("createTable", settings.createTable()))
        .add(DisplayData.item("keepPayloadForWriteFailures", sink.keepsPayload()))
        .addIfNotNull(
            DisplayData.item(
                "triggeringFrequencySec",
                settings.triggeringFrequencySec() == null
                    ? null
                    : settings.triggeringFrequencySec().longValue()));
  }
}
