package io.thriftbq.ingest.options;

/** The element type handed to BigQueryIO (the SPEC's {@code --formatToStore}). */
public enum StorageFormat {
  TABLE_ROW,
  BEAM_ROW,
  AVRO_GENERIC_RECORD,
  /**
   * The row's protocol buffer bytes, written by the decoder straight from the Thrift bytes with a
   * descriptor derived from the table schema (no generated class), and sent as they are by {@code
   * BigQueryIO.writeProtos}.
   */
  PROTO_MESSAGE
}
