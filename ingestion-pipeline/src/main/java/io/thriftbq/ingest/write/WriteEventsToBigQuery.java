package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.Message;
import io.thriftbq.ingest.convert.GenericRecordToTableRow;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.local.EmulatorBigQueryServices;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.protobuf.ProtoCoder;
import org.apache.beam.sdk.io.gcp.bigquery.AvroWriteRequest;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.CreateDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.WriteDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollection.IsBounded;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Writes event rows to BigQuery and returns the rows BigQuery rejected as dead letters (stage
 * WRITE). This is the one place where the BigQuery tuning knobs are applied:
 *
 * <ul>
 *   <li>format: TABLE_ROW as TableRows; BEAM_ROW as Rows with {@code useBeamSchema()};
 *       AVRO_GENERIC_RECORD as GenericRecords with the Avro schema (logical types) on the Storage
 *       API, and converted to TableRows in the pipeline for streaming inserts, which BigQueryIO
 *       refuses Avro for; PROTO_MESSAGE as generated messages with {@code writeProtos}, whose bytes
 *       the Storage API sends as they are, and converted to TableRows for streaming inserts;
 *   <li>method, auto-sharding, triggering frequency (exactly-once on unbounded input only), number
 *       of Storage API streams, create disposition with time partitioning and clustering;
 *   <li>streaming inserts: extended error info and the retry-transient-errors policy, so a bad row
 *       becomes a dead letter instead of being retried forever;
 *   <li>{@code --numStreamingKeys} and {@code --useStorageApiConnectionPool} are read by BigQueryIO
 *       from the pipeline options; {@link #fromOptions} leaves them there.
 * </ul>
 *
 * <p>By default a rejected row's dead letter carries the row as JSON, not the original Thrift
 * bytes, plus the Pub/Sub metadata recovered from the metadata columns when they are enabled:
 * BigQueryIO hands back only the row, and nothing is spent on the hot path for failures that a
 * schema derived from the IDL makes rare.
 *
 * <p>With {@link #withKeepPayloadForWriteFailures} ({@code --keepPayloadForWriteFailures}) the
 * input elements are {@link RowWithPayload}s (see {@code DecodeEvents#keepingPayload}) and
 * BigQueryIO gets {@code withFormatRecordOnFailureFunction}, which it applies to the element it was
 * handed: the {@link FailsafeRow} it builds carries the Thrift bytes and the message's metadata,
 * and comes back in place of the row when BigQuery rejects it. The price is paid for every element,
 * failing or not: the fail-safe row is built for each; on the Storage API paths it is JSON-encoded
 * during conversion, travels with the row through the exactly-once write shuffle and is decoded
 * again before the append; with streaming inserts the payload travels through the write shuffle
 * inside the element. BEAM_ROW elements get a schema coder that encodes the payload too ({@link
 * RowWithPayloadSchemaCoder}), because {@code useBeamSchema()} needs the input to have a schema.
 *
 * <p>Input elements carry the event's creation time (see {@code DecodeResult#rows()}); the step
 * just before the sink counts rows and records the end-to-end latency from it.
 *
 * @param <T> TableRow, Row, GenericRecord or the generated message class, matching the format;
 *     {@link RowWithPayload} of it when the payload is kept for write failures
 */
public final class WriteEventsToBigQuery<T>
    extends PTransform<PCollection<TimestampedValue<T>>, PCollection<DeadLetter>> {

  private @Nullable String tableSpec;
  private StorageFormat format;
  private WriteMethod method;
  private @Nullable String thriftClassName;
  private MetadataColumns metadataColumns;
  private @Nullable String protoClassName;
  private boolean autoSharding;
  private @Nullable Duration triggeringFrequency;
  private int numStorageWriteApiStreams;
  private boolean createTable;
  private TableLayout layout;
  private boolean keepPayload;
  private @Nullable BigQueryServices testServices;

  private WriteEventsToBigQuery(
      @Nullable String tableSpec,
      StorageFormat format,
      WriteMethod method,
      @Nullable String thriftClassName,
      MetadataColumns metadataColumns,
      @Nullable String protoClassName,
      boolean autoSharding,
      @Nullable Duration triggeringFrequency,
      int numStorageWriteApiStreams,
      boolean createTable,
      TableLayout layout,
      boolean keepPayload,
      @Nullable BigQueryServices testServices) {
    this.tableSpec = tableSpec;
    this.format = format;
    this.method = method;
    this.thriftClassName = thriftClassName;
    this.metadataColumns = metadataColumns;
    this.protoClassName = protoClassName;
    this.autoSharding = autoSharding;
    this.triggeringFrequency = triggeringFrequency;
    this.numStorageWriteApiStreams = numStorageWriteApiStreams;
    this.createTable = createTable;
    this.layout = layout;
    this.keepPayload = keepPayload;
    this.testServices = testServices;
  }

  /** A copy to configure; the transform is immutable once a withX() method returns it. */
  private WriteEventsToBigQuery(WriteEventsToBigQuery<T> other) {
    this(
        other.tableSpec,
        other.format,
        other.method,
        other.thriftClassName,
        other.metadataColumns,
        other.protoClassName,
        other.autoSharding,
        other.triggeringFrequency,
        other.numStorageWriteApiStreams,
        other.createTable,
        other.layout,
        other.keepPayload,
        other.testServices);
  }

  /**
   * Writes to {@code tableSpec}; defaults: AVRO_GENERIC_RECORD, STORAGE_API_AT_LEAST_ONCE, create
   * the table, no partitioning or clustering. Set the event class with {@link #withSchemaOf}.
   */
  public static <T> WriteEventsToBigQuery<T> to(String tableSpec) {
    return new WriteEventsToBigQuery<>(
        tableSpec,
        StorageFormat.AVRO_GENERIC_RECORD,
        WriteMethod.STORAGE_API_AT_LEAST_ONCE,
        null,
        MetadataColumns.NONE,
        null,
        false,
        null,
        0,
        true,
        TableLayout.NONE,
        false,
        null);
  }

  /**
   * Everything configured from the options: table, format, method and every tuning knob. When
   * {@code --storageWriteApiEmulatorHost} is set, writes go to the local emulator.
   */
  public static <T> WriteEventsToBigQuery<T> fromOptions(IngestionOptions options) {
    MetadataColumns metadataColumns = MetadataColumns.from(options);
    EventSchemas schemas = EventSchemas.of(options.getThriftClassName(), metadataColumns);
    WriteMethod method = options.getBigQueryWriteMethod();
    Integer frequencySec = options.getStorageWriteApiTriggeringFrequencySec();
    Integer streams = options.getNumStorageWriteApiStreams();
    String emulator = options.getStorageWriteApiEmulatorHost();
    return WriteEventsToBigQuery.<T>to(options.getOutputTable())
        .withFormat(options.getFormatToStore())
        .withMethod(method)
        .withSchemaOf(options.getThriftClassName(), metadataColumns)
        .withProtoClassName(options.getProtoClassName())
        .withAutoSharding(Boolean.TRUE.equals(options.getEnableBigQueryAutoshard()))
        .withTriggeringFrequency(
            method.isExactlyOnce() && frequencySec != null
                ? Duration.standardSeconds(frequencySec)
                : null)
        .withNumStorageWriteApiStreams(method.isExactlyOnce() && streams != null ? streams : 0)
        .withCreateTable(Boolean.TRUE.equals(options.getCreateTable()))
        .withTableLayout(
            TableLayout.parse(
                options.getPartitionType(),
                options.getPartitionField(),
                options.getClusteringFields(),
                schemas.tableSchema()))
        .withKeepPayloadForWriteFailures(
            Boolean.TRUE.equals(options.getKeepPayloadForWriteFailures()))
        .withTestServices(
            emulator == null || emulator.isBlank() ? null : new EmulatorBigQueryServices(options));
  }

  public WriteEventsToBigQuery<T> withFormat(StorageFormat format) {
    checkArgument(format != null, "format can not be null");
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.format = format;
    return copy;
  }

  public WriteEventsToBigQuery<T> withMethod(WriteMethod method) {
    checkArgument(method != null, "method can not be null");
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.method = method;
    return copy;
  }

  /** The Thrift class and metadata columns the table schema is derived from. */
  public WriteEventsToBigQuery<T> withSchemaOf(
      String thriftClassName, MetadataColumns metadataColumns) {
    checkArgument(metadataColumns != null, "metadataColumns can not be null");
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.thriftClassName = thriftClassName;
    copy.metadataColumns = metadataColumns;
    return copy;
  }

  /** The generated message class of the PROTO_MESSAGE format (see {@code ProtoMessageClass}). */
  public WriteEventsToBigQuery<T> withProtoClassName(@Nullable String className) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.protoClassName = className;
    return copy;
  }

  /** Runner-chosen write sharding; unbounded input, STREAMING_INSERTS or STORAGE_WRITE_API. */
  public WriteEventsToBigQuery<T> withAutoSharding(boolean autoSharding) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.autoSharding = autoSharding;
    return copy;
  }

  /**
   * How often exactly-once writes commit. Applied only to STORAGE_WRITE_API on unbounded input,
   * where BigQueryIO requires it; null leaves it to {@code
   * --storageWriteApiTriggeringFrequencySec}.
   */
  public WriteEventsToBigQuery<T> withTriggeringFrequency(@Nullable Duration frequency) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.triggeringFrequency = frequency;
    return copy;
  }

  /** Fixed number of exactly-once write streams; 0 leaves it to BigQueryIO. */
  public WriteEventsToBigQuery<T> withNumStorageWriteApiStreams(int streams) {
    checkArgument(streams >= 0, "numStorageWriteApiStreams must be >= 0, was %s", streams);
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.numStorageWriteApiStreams = streams;
    return copy;
  }

  /** CREATE_IF_NEEDED from the derived schema, or CREATE_NEVER. */
  public WriteEventsToBigQuery<T> withCreateTable(boolean createTable) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.createTable = createTable;
    return copy;
  }

  /** Partitioning and clustering of a created table. */
  public WriteEventsToBigQuery<T> withTableLayout(TableLayout layout) {
    checkArgument(layout != null, "layout can not be null");
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.layout = layout;
    return copy;
  }

  /**
   * Dead-letter rejected rows with the original Thrift bytes and the message's metadata instead of
   * the row as JSON. The input elements must then be {@link RowWithPayload}s, and every element
   * pays for a fail-safe row (see the class comment).
   */
  public WriteEventsToBigQuery<T> withKeepPayloadForWriteFailures(boolean keepPayload) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.keepPayload = keepPayload;
    return copy;
  }

  /** BigQuery services to use instead of the real ones: Beam's fakes, or the local emulator. */
  public WriteEventsToBigQuery<T> withTestServices(@Nullable BigQueryServices services) {
    WriteEventsToBigQuery<T> copy = new WriteEventsToBigQuery<>(this);
    copy.testServices = services;
    return copy;
  }

  public @Nullable BigQueryServices getTestServices() {
    return testServices;
  }

  @Override
  public PCollection<DeadLetter> expand(PCollection<TimestampedValue<T>> input) {
    checkArgument(tableSpec != null && !tableSpec.isBlank(), "Set the output table");
    checkArgument(thriftClassName != null, "Set the event class with withSchemaOf(...)");
    boolean unbounded = input.isBounded() == IsBounded.UNBOUNDED;
    checkArgument(
        !autoSharding || unbounded,
        "Auto-sharding applies only to unbounded input: drop --enableBigQueryAutoshard");
    checkArgument(
        !autoSharding || method != WriteMethod.STORAGE_API_AT_LEAST_ONCE,
        "Auto-sharding does not apply to STORAGE_API_AT_LEAST_ONCE, which has no write shuffle:"
            + " drop --enableBigQueryAutoshard");
    checkArgument(
        !(unbounded && method.isExactlyOnce())
            || triggeringFrequency != null
            || input
                    .getPipeline()
                    .getOptions()
                    .as(BigQueryOptions.class)
                    .getStorageWriteApiTriggeringFrequencySec()
                != null,
        "STORAGE_WRITE_API on unbounded input needs --storageWriteApiTriggeringFrequencySec");
    if (!createTable) {
      checkArgument(
          layout.isEmpty(),
          "Partitioning and clustering apply only to a table the pipeline creates: set"
              + " --createTable=true or drop --partitionType/--partitionField/--clusteringFields");
    }

    EventSchemas schemas = EventSchemas.of(thriftClassName, metadataColumns);
    String eventTable = tableSpec;
    if (keepPayload) {
      return rejectedRows(writeKeepingPayload(input, schemas, unbounded), eventTable);
    }
    WriteResult result =
        switch (format) {
          case TABLE_ROW -> writeTableRows(castTo(input), schemas, unbounded);
          case BEAM_ROW -> writeRows(castTo(input), schemas, unbounded);
          case AVRO_GENERIC_RECORD ->
              method == WriteMethod.STREAMING_INSERTS
                  ? writeTableRows(avroToTableRows(castTo(input)), schemas, unbounded)
                  : writeGenericRecords(castTo(input), schemas, unbounded);
          case PROTO_MESSAGE ->
              method == WriteMethod.STREAMING_INSERTS
                  ? writeTableRows(protoToTableRows(castTo(input)), schemas, unbounded)
                  : writeProtos(castTo(input), schemas, unbounded);
        };
    return rejectedRows(result, eventTable);
  }

  /** The rows BigQuery rejected, as WRITE dead letters. */
  private PCollection<DeadLetter> rejectedRows(WriteResult result, String eventTable) {
    FailedRows.ToDeadLetter toDeadLetter =
        new FailedRows.ToDeadLetter(metadataColumns, eventTable, keepPayload);
    PCollection<DeadLetter> failed =
        method == WriteMethod.STREAMING_INSERTS
            ? result
                .getFailedInsertsWithErr()
                .apply("RejectedInserts", ParDo.of(new FailedRows.FromInsertErrorFn(toDeadLetter)))
            : result
                .getFailedStorageApiInserts()
                .apply(
                    "RejectedAppends",
                    ParDo.of(new FailedRows.FromStorageApiErrorFn(toDeadLetter)));
    return failed.setCoder(DeadLetterCoder.of());
  }

  private WriteResult writeTableRows(
      PCollection<TimestampedValue<TableRow>> input, EventSchemas schemas, boolean unbounded) {
    PCollection<TableRow> rows = handToSink(input, TableRowJsonCoder.of());
    return rows.apply(
        "WriteToBigQuery",
        configure(BigQueryIO.writeTableRows().withSchema(schemas.tableSchema()), unbounded));
  }

  private WriteResult writeRows(
      PCollection<TimestampedValue<Row>> input, EventSchemas schemas, boolean unbounded) {
    // A RowCoder gives the PCollection the Beam schema that useBeamSchema() derives the table from.
    PCollection<Row> rows = handToSink(input, RowCoder.of(schemas.beamSchema()));
    return rows.apply(
        "WriteToBigQuery", configure(BigQueryIO.<Row>write().useBeamSchema(), unbounded));
  }

  private WriteResult writeGenericRecords(
      PCollection<TimestampedValue<GenericRecord>> input, EventSchemas schemas, boolean unbounded) {
    PCollection<GenericRecord> rows = handToSink(input, AvroCoder.of(schemas.avroSchema()));
    return rows.apply(
        "WriteToBigQuery",
        configure(
            BigQueryIO.writeGenericRecords()
                .withSchema(schemas.tableSchema())
                .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
                .useAvroLogicalTypes(),
            unbounded));
  }

  private <M extends Message> WriteResult writeProtos(
      PCollection<TimestampedValue<M>> input, EventSchemas schemas, boolean unbounded) {
    @SuppressWarnings("unchecked")
    Class<M> type = (Class<M>) schemas.protoClass(protoClassName).type();
    PCollection<M> rows = handToSink(input, ProtoCoder.of(type));
    return rows.apply(
        "WriteToBigQuery",
        configure(BigQueryIO.writeProtos(type).withSchema(schemas.tableSchema()), unbounded));
  }

  private PCollection<TimestampedValue<TableRow>> protoToTableRows(
      PCollection<TimestampedValue<Message>> input) {
    return input
        .apply("ProtoToTableRow", ParDo.of(new ProtoToTableRowFn(thriftClassName, metadataColumns)))
        .setCoder(TimestampedValue.TimestampedValueCoder.of(TableRowJsonCoder.of()));
  }

  /**
   * The same writes as above, on {@link RowWithPayload} elements, with the fail-safe function that
   * keeps their payload. A format without a case here (one added to the enum later) still compiles:
   * it is refused with the flag at launch by {@code IngestionOptionsValidator} (its {@code
   * FORMATS_KEEPING_PAYLOAD}), and by the default branch when the transform is used directly.
   */
  private WriteResult writeKeepingPayload(
      PCollection<?> input, EventSchemas schemas, boolean unbounded) {
    return switch (format) {
      case TABLE_ROW -> writeTableRowsWithPayload(castTo(input), schemas, unbounded);
      case BEAM_ROW -> writeRowsWithPayload(castTo(input), schemas, unbounded);
      case AVRO_GENERIC_RECORD ->
          method == WriteMethod.STREAMING_INSERTS
              ? writeTableRowsWithPayload(
                  avroToTableRowsWithPayload(castTo(input)), schemas, unbounded)
              : writeGenericRecordsWithPayload(castTo(input), schemas, unbounded);
      default ->
          throw new IllegalArgumentException(
              "--keepPayloadForWriteFailures is not supported with --formatToStore=" + format);
    };
  }

  private WriteResult writeTableRowsWithPayload(
      PCollection<TimestampedValue<RowWithPayload<TableRow>>> input,
      EventSchemas schemas,
      boolean unbounded) {
    PCollection<RowWithPayload<TableRow>> rows =
        handToSink(input, RowWithPayloadCoder.of(TableRowJsonCoder.of()));
    return rows.apply(
        "WriteToBigQuery",
        configure(
            BigQueryIO.<RowWithPayload<TableRow>>write()
                .withFormatFunction(new RowOf<>())
                .withFormatRecordOnFailureFunction(FailsafeRow.function())
                .withSchema(schemas.tableSchema()),
            unbounded));
  }

  private WriteResult writeRowsWithPayload(
      PCollection<TimestampedValue<RowWithPayload<Row>>> input,
      EventSchemas schemas,
      boolean unbounded) {
    // useBeamSchema() needs a schema on its input; this coder gives it one, and still encodes the
    // payload wherever BigQueryIO encodes elements.
    PCollection<RowWithPayload<Row>> rows =
        handToSink(input, RowWithPayloadSchemaCoder.forSchema(schemas.beamSchema()));
    return rows.apply(
        "WriteToBigQuery",
        configure(
            BigQueryIO.<RowWithPayload<Row>>write()
                .useBeamSchema()
                .withFormatRecordOnFailureFunction(FailsafeRow.function()),
            unbounded));
  }

  private WriteResult writeGenericRecordsWithPayload(
      PCollection<TimestampedValue<RowWithPayload<GenericRecord>>> input,
      EventSchemas schemas,
      boolean unbounded) {
    PCollection<RowWithPayload<GenericRecord>> rows =
        handToSink(input, RowWithPayloadCoder.of(AvroCoder.of(schemas.avroSchema())));
    return rows.apply(
        "WriteToBigQuery",
        configure(
            BigQueryIO.<RowWithPayload<GenericRecord>>write()
                .withAvroFormatFunction(new AvroRecordOf())
                .withFormatRecordOnFailureFunction(FailsafeRow.function())
                .withSchema(schemas.tableSchema())
                .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
                .useAvroLogicalTypes(),
            unbounded));
  }

  private PCollection<TimestampedValue<RowWithPayload<TableRow>>> avroToTableRowsWithPayload(
      PCollection<TimestampedValue<RowWithPayload<GenericRecord>>> input) {
    return input
        .apply("AvroToTableRow", ParDo.of(new AvroToTableRowWithPayloadFn()))
        .setCoder(
            TimestampedValue.TimestampedValueCoder.of(
                RowWithPayloadCoder.of(TableRowJsonCoder.of())));
  }

  private PCollection<TimestampedValue<TableRow>> avroToTableRows(
      PCollection<TimestampedValue<GenericRecord>> input) {
    return input
        .apply("AvroToTableRow", ParDo.of(new AvroToTableRowFn()))
        .setCoder(TimestampedValue.TimestampedValueCoder.of(TableRowJsonCoder.of()));
  }

  private <R> PCollection<R> handToSink(PCollection<TimestampedValue<R>> input, Coder<R> coder) {
    return input.apply("HandToSink", ParDo.of(new HandToSinkFn<R>())).setCoder(coder);
  }

  private <R> BigQueryIO.Write<R> configure(BigQueryIO.Write<R> write, boolean unbounded) {
    BigQueryIO.Write<R> configured =
        write
            .to(tableSpec)
            .withMethod(method.beamMethod())
            .withWriteDisposition(WriteDisposition.WRITE_APPEND)
            .withCreateDisposition(
                createTable ? CreateDisposition.CREATE_IF_NEEDED : CreateDisposition.CREATE_NEVER);
    if (layout.timePartitioning() != null) {
      configured = configured.withTimePartitioning(layout.timePartitioning());
    }
    if (layout.clustering() != null) {
      configured = configured.withClustering(layout.clustering());
    }
    if (method == WriteMethod.STREAMING_INSERTS) {
      // Without both, a rejected row is retried forever and never reaches the dead letters.
      configured =
          configured
              .withExtendedErrorInfo()
              .withFailedInsertRetryPolicy(InsertRetryPolicy.retryTransientErrors());
    }
    if (unbounded && autoSharding) {
      configured = configured.withAutoSharding();
    }
    if (unbounded && method.isExactlyOnce()) {
      if (triggeringFrequency != null) {
        configured = configured.withTriggeringFrequency(triggeringFrequency);
      }
      if (numStorageWriteApiStreams > 0 && !autoSharding) {
        configured = configured.withNumStorageWriteApiStreams(numStorageWriteApiStreams);
      }
    }
    if (testServices != null) {
      configured = configured.withTestServices(testServices);
    }
    return configured;
  }

  @SuppressWarnings("unchecked")
  private static <R> PCollection<TimestampedValue<R>> castTo(PCollection<?> input) {
    return (PCollection<TimestampedValue<R>>) input;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder
        .addIfNotNull(DisplayData.item("outputTable", tableSpec))
        .add(DisplayData.item("formatToStore", format.name()))
        .addIfNotNull(DisplayData.item("protoClassName", protoClassName))
        .add(DisplayData.item("bigQueryWriteMethod", method.name()))
        .add(DisplayData.item("autoSharding", autoSharding))
        .add(DisplayData.item("createTable", createTable))
        .add(DisplayData.item("keepPayloadForWriteFailures", keepPayload))
        .addIfNotNull(
            DisplayData.item(
                "triggeringFrequency",
                triggeringFrequency == null ? null : triggeringFrequency.toString()));
  }

  /** Avro with streaming inserts: BigQueryIO refuses the pairing, so convert here. */
  private static final class AvroToTableRowFn
      extends DoFn<TimestampedValue<GenericRecord>, TimestampedValue<TableRow>> {
    private final GenericRecordToTableRow toTableRow = new GenericRecordToTableRow();

    @ProcessElement
    public void process(
        @Element TimestampedValue<GenericRecord> record,
        OutputReceiver<TimestampedValue<TableRow>> out) {
      out.output(TimestampedValue.of(toTableRow.apply(record.getValue()), record.getTimestamp()));
    }
  }

  /** {@link #avroToTableRows} for elements that keep their payload. */
  private static final class AvroToTableRowWithPayloadFn
      extends DoFn<
          TimestampedValue<RowWithPayload<GenericRecord>>,
          TimestampedValue<RowWithPayload<TableRow>>> {
    private final GenericRecordToTableRow toTableRow = new GenericRecordToTableRow();

    @ProcessElement
    public void process(
        @Element TimestampedValue<RowWithPayload<GenericRecord>> element,
        OutputReceiver<TimestampedValue<RowWithPayload<TableRow>>> out) {
      RowWithPayload<GenericRecord> record = element.getValue();
      out.output(
          TimestampedValue.of(
              new RowWithPayload<>(
                  toTableRow.apply(record.row()), record.payload(), record.metadata()),
              element.getTimestamp()));
    }
  }

  /** BigQueryIO's format function for TableRow elements that keep their payload. */
  private static final class RowOf<R> implements SerializableFunction<RowWithPayload<R>, R> {
    @Override
    public R apply(RowWithPayload<R> element) {
      return element.row();
    }
  }

  /** BigQueryIO's Avro format function for GenericRecord elements that keep their payload. */
  private static final class AvroRecordOf
      implements SerializableFunction<
          AvroWriteRequest<RowWithPayload<GenericRecord>>, GenericRecord> {
    @Override
    public GenericRecord apply(AvroWriteRequest<RowWithPayload<GenericRecord>> request) {
      return request.getElement().row();
    }
  }

  /**
   * PROTO_MESSAGE with streaming inserts: the insertAll API takes JSON rows, so convert here with
   * Beam's own message → TableRow conversion, given the table schema so that TIMESTAMP columns
   * (int64 microseconds in the message) become timestamps rather than numbers.
   */
  private static final class ProtoToTableRowFn
      extends DoFn<TimestampedValue<Message>, TimestampedValue<TableRow>> {
    private final String thriftClassName;
    private final MetadataColumns metadataColumns;
    private transient TableRowToStorageApiProto.@Nullable SchemaInformation schemaInformation;

    ProtoToTableRowFn(String thriftClassName, MetadataColumns metadataColumns) {
      this.thriftClassName = thriftClassName;
      this.metadataColumns = metadataColumns;
    }

    @Setup
    public void setup() {
      schemaInformation =
          TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
              TableRowToStorageApiProto.schemaToProtoTableSchema(
                  EventSchemas.of(thriftClassName, metadataColumns).tableSchema()));
    }

    @ProcessElement
    public void process(
        @Element TimestampedValue<Message> message,
        OutputReceiver<TimestampedValue<TableRow>> out) {
      TableRow row =
          TableRowToStorageApiProto.tableRowFromMessage(
              schemaInformation, message.getValue(), false, column -> true);
      out.output(TimestampedValue.of(row, message.getTimestamp()));
    }
  }

  /**
   * Hands BigQueryIO the Avro schema the rows were built with, with its logical types, rather than
   * one re-derived from the table schema. Holds the schema as JSON because Avro schemas are not
   * reliably serializable, and parses it once per deserialized instance.
   */
  private static final class FixedAvroSchema
      implements SerializableFunction<@Nullable TableSchema, org.apache.avro.Schema> {
    private final String schemaJson;
    private transient org.apache.avro.@Nullable Schema schema;

    FixedAvroSchema(String schemaJson) {
      this.schemaJson = schemaJson;
    }

    @Override
    public org.apache.avro.Schema apply(@Nullable TableSchema ignored) {
      if (schema == null) {
        schema = new org.apache.avro.Schema.Parser().parse(schemaJson);
      }
      return schema;
    }
  }
}
