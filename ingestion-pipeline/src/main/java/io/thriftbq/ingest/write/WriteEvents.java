package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.format.EventSink;
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
 * <p>Input elements carry the event's creation time (see {@code RowsAndDeadLetters#rows()}); the
 * step just before the sink counts rows and records the end-to-end latency from it.
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

    return settings.handOff()
        ? HandOff.toWriters(input, settings.handOffWriters(), handed -> write(handed, unbounded))
        : write(input, unbounded);
  }

  /** One writer: the rows handed to the sink, written, and the rows BigQuery rejected. */
  private PCollection<DeadLetter> write(PCollection<TimestampedValue<E>> input, boolean unbounded) {
    PCollection<E> elements =
        input
            .apply("HandToSink", ParDo.of(HandToSinkFn.<E>of(struct)))
            .setCoder(sink.coder(schemas));
    BigQueryIO.Write<E> write = configure(sink.write(schemas, settings.change()), unbounded);
    WriteResult result =
        sink.applying(schemas, settings.change(), () -> elements.apply("WriteToBigQuery", write));
    return rejectedRows(result);
  }

  private BigQueryIO.Write<E> configure(BigQueryIO.Write<E> write, boolean unbounded) {
    BigQueryIO.Write<E> configured = write.to(settings.table());
    TableLayout layout = settings.layout();
    if (layout.timePartitioning() != null) {
      configured = configured.withTimePartitioning(layout.timePartitioning());
    }
    if (layout.clustering() != null) {
      configured = configured.withClustering(layout.clustering());
    }
    if (settings.change() != null) {
      // A table BigQueryIO creates declares the key too (launch creates it with max_staleness).
      configured = configured.withPrimaryKey(settings.change().keyColumns());
    }
    return withSharedSettings(configured, settings, unbounded, testServices);
  }

  /**
   * Applies every knob but the table and its layout: the one place where the settings meet
   * BigQueryIO, for a write to one table and for a write to several ({@link WriteEventsToTables}).
   */
  static <T> BigQueryIO.Write<T> withSharedSettings(
      BigQueryIO.Write<T> write,
      WriteSettings settings,
      boolean unbounded,
      @Nullable BigQueryServices testServices) {
    BigQueryIO.Write<T> configured =
        write
            .withMethod(settings.method().beamMethod())
            .withWriteDisposition(WriteDisposition.WRITE_APPEND)
            .withCreateDisposition(
                settings.createTable()
                    ? CreateDisposition.CREATE_IF_NEEDED
                    : CreateDisposition.CREATE_NEVER);
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

  /**
   * The rejected rows of {@code result}, a write with {@code method}, as WRITE dead letters,
   * counted; {@code tables} attributes them to the tables of a write to several, else null.
   */
  static PCollection<DeadLetter> rejectedRows(
      WriteResult result,
      WriteMethod method,
      FailedRows.ToDeadLetter toDeadLetter,
      FailedRows.@Nullable WrittenTables tables) {
    PCollection<DeadLetter> failed =
        method == WriteMethod.STREAMING_INSERTS
            ? result
                .getFailedInsertsWithErr()
                .apply(
                    "RejectedInserts",
                    ParDo.of(new FailedRows.FromInsertErrorFn(toDeadLetter, tables)))
            : result
                .getFailedStorageApiInserts()
                .apply(
                    "RejectedAppends",
                    ParDo.of(new FailedRows.FromStorageApiErrorFn(toDeadLetter, tables)));
    return failed.setCoder(DeadLetterCoder.of());
  }

  /** The rows BigQuery rejected, as WRITE dead letters. */
  private PCollection<DeadLetter> rejectedRows(WriteResult result) {
    return rejectedRows(
        result,
        settings.method(),
        new FailedRows.ToDeadLetter(schemas.metadataColumns(), sink.keepsPayload()),
        struct == null
            ? null
            : FailedRows.WrittenTables.of(List.of(struct), List.of(settings.table())));
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
        .add(DisplayData.item("handOffBeforeWrite", settings.handOff()))
        .add(DisplayData.item("handOffWriters", settings.handOffWriters()))
        .addIfNotNull(
            DisplayData.item(
                "triggeringFrequencySec",
                settings.triggeringFrequencySec() == null
                    ? null
                    : settings.triggeringFrequencySec().longValue()));
  }
}
