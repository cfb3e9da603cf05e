package io.thriftbq.ingest.format;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.change.Change;
import io.thriftbq.ingest.change.ChangeColumns;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.change.ColumnReader;
import io.thriftbq.ingest.change.ColumnReaders;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import java.io.Serializable;
import java.util.List;
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
 * Everything about one storage format ({@code --formatToStore}) in one place: the converter that
 * makes its rows, their coder, and its part of the BigQueryIO write, plain or with each row's
 * payload kept ({@link RowWithPayload}, for {@code --keepPayloadForWriteFailures}). The decode step
 * asks it for a converter, the write step for its BigQueryIO write; neither knows the other. The
 * settings every format shares (table, method, sharding, triggering, creation) are applied by the
 * write step.
 *
 * <p>BigQueryIO refuses some pairings of format and method (Avro and protos with streaming inserts,
 * whose insertAll API takes JSON rows); {@link #forMethod} names the format that takes over, so the
 * event is converted once, straight into TableRows, instead of twice.
 *
 * @param <R> the row type: TableRow, Row, GenericRecord or EncodedRow
 */
public abstract sealed class Format<R> implements Serializable
    permits Format.TableRows, Format.BeamRows, Format.GenericRecords, Format.EncodedRows {
  private static final long serialVersionUID = 1L;

  private Format() {}

  /** The format of {@code format}: the one place a {@link StorageFormat} is switched on. */
  public static Format<?> of(StorageFormat format) {
    return switch (format) {
      case TABLE_ROW -> new TableRows();
      case BEAM_ROW -> new BeamRows();
      case AVRO_GENERIC_RECORD -> new GenericRecords();
      case PROTO_MESSAGE -> new EncodedRows();
    };
  }

  public abstract StorageFormat id();

  /** The format that writes with {@code method}: this one, or TableRows where BigQueryIO needs. */
  public Format<?> forMethod(WriteMethod method) {
    return this;
  }

  /** A new converter into this format's rows; one per DoFn instance, reused for every element. */
  public abstract EventConverter<R> newConverter(ConverterConfig config);

  /**
   * {@link #newConverter}, in change mode when {@code change} is not null: a format whose rows
   * carry their change may write it where it writes the row ({@link #hasChange} then tells).
   */
  public EventConverter<R> newConverter(ConverterConfig config, @Nullable ChangeRule change) {
    return newConverter(config);
  }

  /** Whether {@code row} already carries its change (written with it by the converter). */
  public boolean hasChange(R row) {
    return false;
  }

  /** The coder of this format's rows. */
  public abstract Coder<R> coder(EventSchemas schemas);

  /** The coder of this format's rows with their payload. */
  public Coder<RowWithPayload<R>> coderKeepingPayload(EventSchemas schemas) {
    return RowWithPayloadCoder.of(coder(schemas));
  }

  /** This format's BigQueryIO write; the shared settings are applied by the write step. */
  public abstract BigQueryIO.Write<R> write(EventSchemas schemas);

  /**
   * {@link #write} for rows with their payload: BigQueryIO builds each element's {@link
   * FailsafeRow}, which it hands back for a row BigQuery rejects.
   */
  public abstract BigQueryIO.Write<RowWithPayload<R>> writeKeepingPayload(EventSchemas schemas);

  /**
   * Whether one BigQueryIO write can give each of several tables its own schema with this format:
   * true where BigQueryIO derives what it sends from each destination's table schema (TableRows,
   * and Avro records through a schema per table); false where the write has one schema whatever the
   * destination (Beam Rows take it from the collection's schema, direct protos from one
   * descriptor), so a many-types job writes each struct with its own write.
   */
  public boolean hasSchemaPerTable() {
    return false;
  }

  /**
   * This format's write of rows to several tables, each element naming its table by index into
   * {@code schemas}; the caller sets the destinations ({@code to(DynamicDestinations)}) and the
   * shared settings. Only where {@link #hasSchemaPerTable}.
   */
  public BigQueryIO.Write<ToTable<R>> writeToTables(List<EventSchemas> schemas) {
    throw new UnsupportedOperationException(
        this + " cannot write several tables with one write: it has one schema per write");
  }

  /**
   * {@link #writeToTables} for rows with their payload; each element's fail-safe row also names its
   * struct ({@code structs}, by table index), so that a rejected row is traced to its table.
   */
  public BigQueryIO.Write<ToTable<RowWithPayload<R>>> writeToTablesKeepingPayload(
      List<EventSchemas> schemas, List<String> structs) {
    throw new UnsupportedOperationException(
        this + " cannot write several tables with one write: it has one schema per write");
  }

  /**
   * Applies this format's write: {@code apply} runs it. A format whose write needs something set
   * while BigQueryIO expands (the encoded rows' descriptor) wraps it here.
   */
  public <T> T applying(EventSchemas schemas, Supplier<T> apply) {
    return applying(schemas, false, apply);
  }

  /**
   * {@link #applying}, with the rows carrying BigQuery's change pseudo-columns if {@code change}.
   */
  public <T> T applying(EventSchemas schemas, boolean change, Supplier<T> apply) {
    return apply.get();
  }

  /** Reads the top-level columns of this format's rows (change mode's key, type and sequence). */
  public abstract ColumnReader<R> columnReader();

  /**
   * Whether this format's rows carry their change themselves (BigQuery's pseudo-columns, added by
   * {@link #withChange}); otherwise BigQueryIO's row mutation function gives it.
   */
  public boolean carriesChangeInRow() {
    return false;
  }

  /** {@code row} as it is written with {@code change}: itself, or with the pseudo-columns. */
  public R withChange(R row, Change change, EventSchemas schemas) {
    return row;
  }

  @Override
  public String toString() {
    return id().name();
  }

  /** TableRows: the one format every method accepts. */
  static final class TableRows extends Format<TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat id() {
      return StorageFormat.TABLE_ROW;
    }

    @Override
    public EventConverter<TableRow> newConverter(ConverterConfig config) {
      return EventConverters.tableRows(config);
    }

    @Override
    public ColumnReader<TableRow> columnReader() {
      return ColumnReaders.tableRows();
    }

    @Override
    public Coder<TableRow> coder(EventSchemas schemas) {
      return TableRowJsonCoder.of();
    }

    @Override
    public BigQueryIO.Write<TableRow> write(EventSchemas schemas) {
      return BigQueryIO.writeTableRows().withSchema(schemas.tableSchema());
    }

    @Override
    public BigQueryIO.Write<RowWithPayload<TableRow>> writeKeepingPayload(EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<TableRow>>write()
          .withFormatFunction(new RowOf<>())
          .withFormatRecordOnFailureFunction(FailsafeRow.function())
          .withSchema(schemas.tableSchema());
    }

    @Override
    public boolean hasSchemaPerTable() {
      return true;
    }

    @Override
    public BigQueryIO.Write<ToTable<TableRow>> writeToTables(List<EventSchemas> schemas) {
      return BigQueryIO.<ToTable<TableRow>>write().withFormatFunction(new ElementOf<>());
    }

    @Override
    public BigQueryIO.Write<ToTable<RowWithPayload<TableRow>>> writeToTablesKeepingPayload(
        List<EventSchemas> schemas, List<String> structs) {
      return BigQueryIO.<ToTable<RowWithPayload<TableRow>>>write()
          .withFormatFunction(new RowOfElement<>())
          .withFormatRecordOnFailureFunction(FailsafeRow.function(structs));
    }
  }

  /** Beam Rows, written with {@code useBeamSchema()}: the table schema comes from the coder. */
  static final class BeamRows extends Format<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat id() {
      return StorageFormat.BEAM_ROW;
    }

    @Override
    public EventConverter<Row> newConverter(ConverterConfig config) {
      return EventConverters.beamRows(config);
    }

    @Override
    public ColumnReader<Row> columnReader() {
      return ColumnReaders.beamRows();
    }

    @Override
    public Coder<Row> coder(EventSchemas schemas) {
      // A RowCoder gives the collection the Beam schema that useBeamSchema() derives the table
      // from.
      return RowCoder.of(schemas.beamSchema());
    }

    @Override
    public Coder<RowWithPayload<Row>> coderKeepingPayload(EventSchemas schemas) {
      // useBeamSchema() needs a schema on its input; this coder gives it one, and still encodes
      // the payload wherever BigQueryIO encodes elements.
      return RowWithPayloadSchemaCoder.forSchema(schemas.beamSchema());
    }

    @Override
    public BigQueryIO.Write<Row> write(EventSchemas schemas) {
      return BigQueryIO.<Row>write().useBeamSchema();
    }

    @Override
    public BigQueryIO.Write<RowWithPayload<Row>> writeKeepingPayload(EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<Row>>write()
          .useBeamSchema()
          .withFormatRecordOnFailureFunction(FailsafeRow.function());
    }
  }

  /** Avro GenericRecords with the Avro schema (logical types) the rows were built with. */
  static final class GenericRecords extends Format<GenericRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat id() {
      return StorageFormat.AVRO_GENERIC_RECORD;
    }

    @Override
    public Format<?> forMethod(WriteMethod method) {
      return method == WriteMethod.STREAMING_INSERTS ? new TableRows() : this;
    }

    @Override
    public EventConverter<GenericRecord> newConverter(ConverterConfig config) {
      return EventConverters.genericRecords(config);
    }

    @Override
    public ColumnReader<GenericRecord> columnReader() {
      return ColumnReaders.genericRecords();
    }

    @Override
    public Coder<GenericRecord> coder(EventSchemas schemas) {
      return AvroCoder.of(schemas.avroSchema());
    }

    @Override
    public BigQueryIO.Write<GenericRecord> write(EventSchemas schemas) {
      return BigQueryIO.writeGenericRecords()
          .withSchema(schemas.tableSchema())
          .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
          .useAvroLogicalTypes();
    }

    @Override
    public BigQueryIO.Write<RowWithPayload<GenericRecord>> writeKeepingPayload(
        EventSchemas schemas) {
      return BigQueryIO.<RowWithPayload<GenericRecord>>write()
          .withAvroFormatFunction(new AvroRecordOf())
          .withFormatRecordOnFailureFunction(FailsafeRow.function())
          .withSchema(schemas.tableSchema())
          .withAvroSchemaFactory(new FixedAvroSchema(schemas.avroSchema().toString()))
          .useAvroLogicalTypes();
    }

    @Override
    public boolean hasSchemaPerTable() {
      return true;
    }

    @Override
    public BigQueryIO.Write<ToTable<GenericRecord>> writeToTables(List<EventSchemas> schemas) {
      return BigQueryIO.<ToTable<GenericRecord>>write()
          .withAvroFormatFunction(new AvroElementOf())
          .withAvroSchemaFactory(AvroSchemaByTable.of(schemas))
          .useAvroLogicalTypes();
    }

    @Override
    public BigQueryIO.Write<ToTable<RowWithPayload<GenericRecord>>> writeToTablesKeepingPayload(
        List<EventSchemas> schemas, List<String> structs) {
      return BigQueryIO.<ToTable<RowWithPayload<GenericRecord>>>write()
          .withAvroFormatFunction(new AvroRowOfElement())
          .withFormatRecordOnFailureFunction(FailsafeRow.function(structs))
          .withAvroSchemaFactory(AvroSchemaByTable.of(schemas))
          .useAvroLogicalTypes();
    }
  }

  /**
   * The table's message written straight from the Thrift bytes ({@link EncodedRow}), sent as they
   * are by {@code writeProtos}: no generated class (the descriptor is derived from the table schema
   * at launch), no parse, no re-encoding. Streaming inserts take TableRows instead.
   */
  static final class EncodedRows extends Format<EncodedRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public StorageFormat id() {
      return StorageFormat.PROTO_MESSAGE;
    }

    @Override
    public Format<?> forMethod(WriteMethod method) {
      return method == WriteMethod.STREAMING_INSERTS ? new TableRows() : this;
    }

    @Override
    public EventConverter<EncodedRow> newConverter(ConverterConfig config) {
      return EventConverters.encodedRows(config);
    }

    @Override
    public ColumnReader<EncodedRow> columnReader() {
      return ColumnReaders.encodedRows();
    }

    @Override
    public EventConverter<EncodedRow> newConverter(
        ConverterConfig config, @Nullable ChangeRule change) {
      if (change == null) {
        return newConverter(config);
      }
      // The one-pass writer appends the pseudo-columns to the row it writes, in its own buffer.
      return EventConverters.encodedRows(
          config, change.rowSuffix(config.schemas().tableSchema().getFields().size()).newSuffix());
    }

    @Override
    public boolean hasChange(EncodedRow row) {
      return row.hasChangeColumns();
    }

    @Override
    public boolean carriesChangeInRow() {
      return true;
    }

    @Override
    public EncodedRow withChange(EncodedRow row, Change change, EventSchemas schemas) {
      if (row.hasChangeColumns()) {
        return row;
      }
      return ChangeColumns.stamp(
          row, change, ChangeColumns.changeTypeNumber(schemas.tableSchema().getFields().size()));
    }

    @Override
    public Coder<EncodedRow> coder(EventSchemas schemas) {
      return EncodedRowCoder.of();
    }

    @Override
    public BigQueryIO.Write<EncodedRow> write(EventSchemas schemas) {
      return BigQueryIO.writeProtos(EncodedRow.class).withSchema(schemas.tableSchema());
    }

    @Override
    public BigQueryIO.Write<RowWithPayload<EncodedRow>> writeKeepingPayload(EventSchemas schemas) {
      // writeProtos takes only messages; a RowWithPayload is one, whose bytes are its row's.
      @SuppressWarnings({"unchecked", "rawtypes"})
      BigQueryIO.Write<RowWithPayload<EncodedRow>> write =
          (BigQueryIO.Write) BigQueryIO.writeProtos(RowWithPayload.class);
      return write
          .withSchema(schemas.tableSchema())
          .withFormatRecordOnFailureFunction(FailsafeRow.function());
    }

    @Override
    public <T> T applying(EventSchemas schemas, boolean change, Supplier<T> apply) {
      return EncodedRow.applyingWithDescriptor(
          change
              ? ChangeColumns.withChangeColumns(schemas.rowDescriptor())
              : schemas.rowDescriptor(),
          apply);
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

  /** BigQueryIO's format function for TableRow elements of a write to several tables. */
  private static final class ElementOf<T> implements SerializableFunction<ToTable<T>, T> {
    private static final long serialVersionUID = 1L;

    @Override
    public T apply(ToTable<T> element) {
      return element.element();
    }
  }

  /** {@link ElementOf} for elements that keep their payload. */
  private static final class RowOfElement<T>
      implements SerializableFunction<ToTable<RowWithPayload<T>>, T> {
    private static final long serialVersionUID = 1L;

    @Override
    public T apply(ToTable<RowWithPayload<T>> element) {
      return element.element().row();
    }
  }

  /** BigQueryIO's Avro format function for GenericRecord elements of a write to several tables. */
  private static final class AvroElementOf
      implements SerializableFunction<AvroWriteRequest<ToTable<GenericRecord>>, GenericRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public GenericRecord apply(AvroWriteRequest<ToTable<GenericRecord>> request) {
      return request.getElement().element();
    }
  }

  /** {@link AvroElementOf} for elements that keep their payload. */
  private static final class AvroRowOfElement
      implements SerializableFunction<
          AvroWriteRequest<ToTable<RowWithPayload<GenericRecord>>>, GenericRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public GenericRecord apply(AvroWriteRequest<ToTable<RowWithPayload<GenericRecord>>> request) {
      return request.getElement().element().row();
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
