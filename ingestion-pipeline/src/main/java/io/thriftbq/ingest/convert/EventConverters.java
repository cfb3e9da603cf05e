package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.schema.EventSchemas;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Creates the {@link EventConverter} of each format; build one per DoFn instance and reuse it. The
 * format layer ({@code io.thriftbq.ingest.format.Format}) picks one by {@code --formatToStore}.
 */
public final class EventConverters {
  private EventConverters() {}

  public static EventConverter<TableRow> tableRows(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new TableRowAssembler(schemas.tableSchema()));
  }

  public static EventConverter<Row> beamRows(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new BeamRowAssembler(schemas.beamSchema()));
  }

  public static EventConverter<GenericRecord> genericRecords(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(config, schemas, new AvroRecordAssembler(schemas.avroSchema()));
  }

  /**
   * {@link EncodedRow}s: the table's message written straight from the Thrift bytes, with the
   * descriptor derived from the table schema (no generated class).
   */
  public static EventConverter<EncodedRow> encodedRows(ConverterConfig config) {
    return encodedRows(config, null);
  }

  /**
   * {@link #encodedRows} through the codec tree alone, without the one-pass writer: the same rows
   * and dead letters, slower. It measures what the one-pass writer, a second walk of the schema,
   * buys (ConversionBenchmark's {@code wholePathProtoMessageCodecTree}), and is the general path
   * the differential tests compare that writer with.
   */
  public static EventConverter<EncodedRow> encodedRowsThroughCodecTree(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(
            config,
            schemas,
            new ProtoMessageAssembler(schemas.tableSchema(), schemas.rowDescriptor(), null))
        .withoutDirectWriter();
  }

  /**
   * {@link #encodedRows}, the one-pass writer appending {@code suffix}'s bytes to each row it
   * writes (change mode's pseudo-columns); rows of the general path come without them.
   */
  public static EventConverter<EncodedRow> encodedRows(
      ConverterConfig config, @Nullable RowSuffix suffix) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(
        config,
        schemas,
        new ProtoMessageAssembler(schemas.tableSchema(), schemas.rowDescriptor(), suffix));
  }
}
