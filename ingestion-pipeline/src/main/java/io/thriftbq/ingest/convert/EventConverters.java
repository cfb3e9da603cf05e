package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.schema.EventSchemas;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;

/**
 * Creates the {@link EventConverter} of each format; build one per DoFn instance and reuse it. The
 * format layer ({@code io.thriftbq.ingest.format.Format}) picks one by {@code --formatToStore}.
 */
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
    return new ThriftRowConverter<>(
        config, schemas, new ProtoMessageFormat(schemas.tableSchema(), schemas.rowDescriptor()));
  }
}
