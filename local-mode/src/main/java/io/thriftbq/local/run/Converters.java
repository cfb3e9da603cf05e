package io.thriftbq.local.run;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.options.StorageFormat;

/**
 * The one place local mode builds the ingestion module's converters outside a pipeline, so a change
 * to how converters are made touches this class only.
 */
public final class Converters {
  private Converters() {}

  static <R> EventConverter<R> forFormat(ConverterConfig config, StorageFormat format) {
    return EventConverters.create(config, format);
  }

  /** Storage Write API row bytes, as {@code PROTO_MESSAGE} hands them to BigQueryIO. */
  public static EventConverter<EncodedRow> encodedRows(ConverterConfig config) {
    return EventConverters.encodedRows(config);
  }
}
