package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.StorageFormat;

/** The converter of a format chosen at run time, typed as the caller expects (tests only). */
public final class TestConverters {
  private TestConverters() {}

  /**
   * @param <T> TableRow for TABLE_ROW, Row for BEAM_ROW, GenericRecord for AVRO_GENERIC_RECORD,
   *     EncodedRow for PROTO_MESSAGE
   */
  @SuppressWarnings("unchecked")
  public static <T> EventConverter<T> create(ConverterConfig config, StorageFormat format) {
    return (EventConverter<T>) Format.of(format).newConverter(config);
  }
}
