package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;

/** Creates the {@link EventConverter} of a format; build one per DoFn instance and reuse it. */
public final class EventConverters {
  private EventConverters() {}

  public static EventConverter<TableRow> tableRows(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new TableRowFormat(schemas.tableSchema()));
  }

  public static EventConverter<Row> beamRows(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new BeamRowFormat(schemas.beamSchema()));
  }

  public static EventConverter<GenericRecord> genericRecords(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new AvroRecordFormat(schemas.avroSchema()));
  }

  /**
   * {@link EncodedRow}s: the table's message written straight from the Thrift bytes, with the
   * descriptor derived from the table schema (no generated class).
   */
  public static EventConverter<EncodedRow> encodedRows(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    @SuppressWarnings({"unchecked", "rawtypes"})
    EventConverter<EncodedRow> converter =
        (EventConverter)
            new ThriftRowConverter<>(
                config,
                schemas,
                new ProtoMessageFormat(schemas.tableSchema(), schemas.rowDescriptor()));
    return converter;
  }

  /**
   * The converter of {@code format}, for callers that choose the format at run time (tests,
   * benchmarks); the pipeline binds the row type once through its sink.
   *
   * @param <T> TableRow for TABLE_ROW, Row for BEAM_ROW, GenericRecord for AVRO_GENERIC_RECORD, the
   *     EncodedRow for PROTO_MESSAGE
   */
  @SuppressWarnings("unchecked")
  public static <T> EventConverter<T> create(ConverterConfig config, StorageFormat format) {
    return (EventConverter<T>)
        switch (format) {
          case TABLE_ROW -> tableRows(config);
          case BEAM_ROW -> beamRows(config);
          case AVRO_GENERIC_RECORD -> genericRecords(config);
          case PROTO_MESSAGE -> encodedRows(config);
        };
  }
}
