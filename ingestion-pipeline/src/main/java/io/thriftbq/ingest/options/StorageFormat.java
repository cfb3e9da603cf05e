package io.thriftbq.ingest.options;

/** The element type handed to BigQueryIO (the SPEC's {@code --formatToStore}). */
public enum StorageFormat {
  TABLE_ROW,
  BEAM_ROW,
  AVRO_GENERIC_RECORD,
  /**
   * A protoc-generated message class matching the table ({@code --protoClassName}), written with
   * {@code BigQueryIO.writeProtos}: the Storage Write API sends its bytes without conversion.
   */
  PROTO_MESSAGE
}
