package io.thriftbq.ingest.options;

/** The element type handed to BigQueryIO (the SPEC's {@code --formatToStore}). */
public enum StorageFormat {
  TABLE_ROW,
  BEAM_ROW,
  AVRO_GENERIC_RECORD
}
