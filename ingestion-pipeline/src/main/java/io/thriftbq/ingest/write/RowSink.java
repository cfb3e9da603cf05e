package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.KeptPayload;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import java.io.Serializable;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.gcp.bigquery.AvroWriteRequest;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One storage format's way to BigQueryIO: the converter that produces its rows, their coder, and
 * the format's part of the BigQueryIO write, plain or keeping each row's payload for {@code
 * --keepPayloadForWriteFailures}. The settings every format shares (table, method, sharding,
 * triggering, creation) are applied by {@link WriteEvents}.
 *
 * <p>BigQueryIO refuses some pairings of format and method (Avro and protos with streaming inserts,
 * whose insertAll API takes JSON rows); {@link #forMethod} names the format that takes over, so the
 * event is converted once, straight into TableRows, instead of twice.
 *
 * @param <R> the row type: TableRow, Row, GenericRecord or EncodedRow
 */
public abstract class RowSink<R> implements Serializable {
  private static final long serialVersionUID = 1L;

  RowSink() {}

  /** The sink of {@code format}. */
  public static RowSink<?> of(StorageFormat format) {
    return switch (format) {
      case TABLE_ROW -> new TableRows();
      case BEAM_ROW -> new BeamRows();
      case AVRO_GENERIC_RECORD -> new GenericRecords();
      case PROTO_MESSAGE -> new EncodedRows();
    };
  }

  /** The formats whose write can hand a rejected row back with its payload. */
  public static Set<StorageFormat> formatsKeepingPayload() {
    Set<StorageFormat> formats = EnumSet.noneOf(StorageFormat.class);
    for (StorageFormat format : StorageFormat.values()) {
      if (of(format).canKeepPayload()) {
        formats.add(format);
      }
    }
    return formats;
  }

  public abstract StorageFormat format();

  /**
   * The sink that writes with {@code method}: this one, or TableRows where BigQueryIO needs them.
   */
  public RowSink<?> forMethod(WriteMethod method) {
    return this;
  }

  /** A new converter into this format's rows; one per DoFn instance, reused for every element. */
  public abstract EventConverter<R> newConverter(ConverterConfig config);

  public abstract Coder<R> coder(EventSchemas schemas);

  /** This format's BigQueryIO write; the shared settings are applied by {@link WriteEvents}. */
  abstract BigQueryIO.Write<R> write(EventSchemas schemas);

  /**
   * Whether the write can take {@link RowWithPayload} elements and hand a rejected one back as its
   * {@link FailsafeRow}: true exactly for the sinks that implement {@link #writeKeepingPayload}.
   */
  public boolean canKeepPayload() {
    return false;
  }

  /** {@link #write} for {@link RowWithPayload} elements, with BigQueryIO's fail-safe function. */
  BigQueryIO.Write<RowWithPayload<R>> writeKeepingPayload(EventSchemas schemas) {
    throw new UnsupportedOperationException(
        "--keepPayloadForWriteFailures is not supported with --formatToStore=" + format());
  }

  Coder<RowWithPayload<R>> coderKeepingPayload(EventSchemas schemas) {
    return RowWithPayloadCoder.of(coder(schemas));
  }

  /**
   * Whether the rows themselves can carry their payload ({@link #keepingPayload}) instead of being
   * wrapped in {@link RowWithPayload}; BigQueryIO then takes them with {@link
   * #writeCarryingPayload}.
   */
  boolean rowsCarryPayload() {
    return false;
  }

  /** {@code row} carrying its payload and metadata; see {@link #rowsCarryPayload}. */
  R keepingPayload(R row, byte[] payload, EventMetadata metadata) {
    throw new UnsupportedOperationException(format() + " rows cannot carry a payload");
  }

  /** {@link #write} for rows that carry their payload, with BigQueryIO's fail-safe function. */
  BigQueryIO.Write<R> writeCarryingPayload(EventSchemas schemas) {
    throw new UnsupportedOperationException(format() + " rows cannot carry a payload");
  }

  /**
   * Applies this format's write: {@code apply} runs it. A format whose write needs something set
   * while BigQueryIO expands (the direct proto rows' descriptor) wraps it here.
   */
  <T> T applying(EventSchemas schemas, Supplier<T> apply) {
    return apply.get();
  }

  /** TableRows: the one format every method accepts. */
  static final class TableRows extends RowSink<TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat format() {
      return StorageFormat.TABLE_ROW;
    }

    @Override
    public EventConverter<TableRow> newConverter(ConverterConfig config) {
      return EventConverters.tableRows(config);
    }

    @Override
    public Coder<TableRow> coder(EventSchemas schemas) {
      return TableRowJsonCoder.of();
    }

    @Override
    BigQueryIO.Write<TableRow> write(EventSchemas schemas) {
      return BigQueryIO.writeTableRows().withSchema(schemas.tableSchema());
    }

    @Override
    public boolean canKeepPayload() {
      return true;
    }

    @Override
    BigQueryIO.Write<RowWithPayload<TableRow>> writeKeepingPayload(EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<TableRow>>write()
          .withFormatFunction(new RowOf<>())
          .withFormatRecordOnFailureFunction(FailsafeRow.function())
          .withSchema(schemas.tableSchema());
    }
  }

  /** Beam Rows, written with {@code useBeamSchema()}: the table schema comes from the coder. */
  static final class BeamRows extends RowSink<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat format() {
      return StorageFormat.BEAM_ROW;
    }

    @Override
    public EventConverter<Row> newConverter(ConverterConfig config) {
      return EventConverters.beamRows(config);
    }

    @Override
    public Coder<Row> coder(EventSchemas schemas) {
      // A RowCoder gives the collection the Beam schema that useBeamSchema() derives the table
      // from.
      return RowCoder.of(schemas.beamSchema());
    }

    @Override
    BigQueryIO.Write<Row> write(EventSchemas schemas) {
      return BigQueryIO.<Row>write().useBeamSchema();
    }

    @Override
    public boolean canKeepPayload() {
      return true;
    }

    @Override
    BigQueryIO.Write<RowWithPayload<Row>> writeKeepingPayload(EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<Row>>write()
          .useBeamSchema()
          .withFormatRecordOnFailureFunction(FailsafeRow.function());
    }

    @Override
    Coder<RowWithPayload<Row>> coderKeepingPayload(EventSchemas schemas) {
      // useBeamSchema() needs a schema on its input; this coder gives it one, and still encodes
      // the payload wherever BigQueryIO encodes elements.
      return RowWithPayloadSchemaCoder.forSchema(schemas.beamSchema());
    }
  }

  /** Avro GenericRecords with the Avro schema (logical types) the rows were built with. */
  static final class GenericRecords extends RowSink<GenericRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat format() {
      return StorageFormat.AVRO_GENERIC_RECORD;
    }

    @Override
    public RowSink<?> forMethod(WriteMethod method) {
      return method == WriteMethod.STREAMING_INSERTS ? new TableRows() : this;
    }

    @Override
    public EventConverter<GenericRecord> newConverter(ConverterConfig config) {
      return EventConverters.genericRecords(config);
    }

    @Override
    public Coder<GenericRecord> coder(EventSchemas schemas) {
      return AvroCoder.of(schemas.avroSchema());
    }

    @Override
    BigQueryIO.Write<GenericRecord> write(EventSchemas schemas) {
      return BigQueryIO.writeGenericRecords()
          .withSchema(schemas.tableSchema())
          .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
          .useAvroLogicalTypes();
    }

    @Override
    public boolean canKeepPayload() {
      return true;
    }

    @Override
    BigQueryIO.Write<RowWithPayload<GenericRecord>> writeKeepingPayload(EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<GenericRecord>>write()
          .withAvroFormatFunction(new AvroRecordOf())
          .withFormatRecordOnFailureFunction(FailsafeRow.function())
          .withSchema(schemas.tableSchema())
          .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
          .useAvroLogicalTypes();
    }
  }

  /**
   * The table's message written straight from the Thrift bytes ({@link EncodedRow}), sent as they
   * are by {@code writeProtos}: no generated class (the descriptor is derived from the table schema
   * at launch), no parse, no re-encoding. Streaming inserts take TableRows instead.
   */
  static final class EncodedRows extends RowSink<EncodedRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat format() {
      return StorageFormat.PROTO_MESSAGE;
    }

    @Override
    public RowSink<?> forMethod(WriteMethod method) {
      return method == WriteMethod.STREAMING_INSERTS ? new TableRows() : this;
    }

    @Override
    public EventConverter<EncodedRow> newConverter(ConverterConfig config) {
      return EventConverters.encodedRows(config);
    }

    @Override
    public Coder<EncodedRow> coder(EventSchemas schemas) {
      return EncodedRowCoder.of();
    }

    @Override
    BigQueryIO.Write<EncodedRow> write(EventSchemas schemas) {
      return BigQueryIO.writeProtos(EncodedRow.class).withSchema(schemas.tableSchema());
    }

    @Override
    public boolean canKeepPayload() {
      return true;
    }

    @Override
    boolean rowsCarryPayload() {
      return true;
    }

    @Override
    EncodedRow keepingPayload(EncodedRow row, byte[] payload, EventMetadata metadata) {
      return row.keeping(payload, metadata);
    }

    @Override
    BigQueryIO.Write<EncodedRow> writeCarryingPayload(EventSchemas schemas) {
      return write(schemas).withFormatRecordOnFailureFunction(new KeptFailsafeRow());
    }

    @Override
    <T> T applying(EventSchemas schemas, Supplier<T> apply) {
      return EncodedRow.applyingWithDescriptor(schemas.rowDescriptor(), apply);
    }
  }

  /** The fail-safe row of an {@link EncodedRow} that carries its payload. */
  private static final class KeptFailsafeRow implements SerializableFunction<EncodedRow, TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public TableRow apply(EncodedRow row) {
      KeptPayload kept = row.kept();
      return kept == null ? new TableRow() : FailsafeRow.of(kept.payload(), kept.metadata());
    }
  }

  /** BigQueryIO's format function for TableRow elements that keep their payload. */
  private static final class RowOf<T> implements SerializableFunction<RowWithPayload<T>, T> {
    private static final long serialVersionUID = 1L;

    @Override
    public T apply(RowWithPayload<T> element) {
      return element.row();
    }
  }

  /** BigQueryIO's Avro format function for GenericRecord elements that keep their payload. */
  private static final class AvroRecordOf
      implements SerializableFunction<
          AvroWriteRequest<RowWithPayload<GenericRecord>>, GenericRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public GenericRecord apply(AvroWriteRequest<RowWithPayload<GenericRecord>> request) {
      return request.getElement().row();
    }
  }

  /**
   * Hands BigQueryIO the Avro schema the rows were built with, with its logical types, rather than
   * one re-derived from the table schema. Holds the schema as JSON because Avro schemas are not
   * reliably serializable, and parses it once per deserialized instance.
   */
  private static final class FixedAvroSchema
      implements SerializableFunction<@Nullable TableSchema, org.apache.avro.Schema> {
    private static final long serialVersionUID = 1L;

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
