package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Message;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.ProtoMessageClass;
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

  /** Messages of the generated class {@code config.protoClassName()}. */
  @SuppressWarnings("unchecked")
  public static <M extends Message> EventConverter<M> protoMessages(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    ProtoMessageClass proto = schemas.protoClass(config.protoClassName());
    // The format's top-level records are messages of the checked class; nested ones stay bytes.
    return (EventConverter<M>)
        (EventConverter<?>)
            new ThriftRowConverter<>(
                config,
                schemas,
                new ProtoMessageFormat(schemas.tableSchema(), proto.descriptor(), proto.parser()));
  }

  /**
   * The converter of {@code format}, for callers that choose the format at run time (tests,
   * benchmarks); the pipeline binds the row type once through its sink.
   *
   * @param <T> TableRow for TABLE_ROW, Row for BEAM_ROW, GenericRecord for AVRO_GENERIC_RECORD, the
   *     generated message class for PROTO_MESSAGE
   */
  @SuppressWarnings("unchecked")
  public static <T> EventConverter<T> create(ConverterConfig config, StorageFormat format) {
    return (EventConverter<T>)
        switch (format) {
          case TABLE_ROW -> tableRows(config);
          case BEAM_ROW -> beamRows(config);
          case AVRO_GENERIC_RECORD -> genericRecords(config);
          case PROTO_MESSAGE -> protoMessages(config);
        };
  }
}
