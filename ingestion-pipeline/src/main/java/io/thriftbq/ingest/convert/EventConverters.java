package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.ProtoMessageClass;

/** Creates the {@link EventConverter} of a format. */
public final class EventConverters {
  private EventConverters() {}

  /**
   * A new converter; build one per DoFn instance and reuse it.
   *
   * @param <T> TableRow for TABLE_ROW, Row for BEAM_ROW, GenericRecord for AVRO_GENERIC_RECORD, the
   *     generated message class for PROTO_MESSAGE
   */
  @SuppressWarnings("unchecked")
  public static <T> EventConverter<T> create(ConverterConfig config, StorageFormat format) {
    EventSchemas schemas = EventSchemas.of(config.thriftClassName(), config.metadataColumns());
    return (EventConverter<T>)
        switch (format) {
          case TABLE_ROW ->
              new ThriftRowConverter<>(config, schemas, new TableRowFormat(schemas.tableSchema()));
          case BEAM_ROW ->
              new ThriftRowConverter<>(config, schemas, new BeamRowFormat(schemas.beamSchema()));
          case AVRO_GENERIC_RECORD ->
              new ThriftRowConverter<>(config, schemas, new AvroRecordFormat(schemas.avroSchema()));
          case PROTO_MESSAGE -> {
            ProtoMessageClass proto = schemas.protoClass(config.protoClassName());
            yield new ThriftRowConverter<>(
                config,
                schemas,
                new ProtoMessageFormat(schemas.tableSchema(), proto.descriptor(), proto.parser()));
          }
        };
  }
}
