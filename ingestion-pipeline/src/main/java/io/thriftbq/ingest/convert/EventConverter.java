package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.origin.EventMetadata;
import org.apache.thrift.TBase;

/**
 * Turns serialized Thrift events into rows of one output format. Instances hold reusable decoding
 * state and are not thread-safe or serializable: create one per DoFn instance (in {@code @Setup})
 * with {@code Format.newConverter} and reuse it for every element.
 *
 * @param <T> the row type handed to BigQueryIO: TableRow, Row or GenericRecord
 */
public interface EventConverter<T> {

  /**
   * Decodes {@code payload} straight into a row, without building the Thrift object. This is the
   * hot path used when no user function is configured.
   */
  default T fromBytes(byte[] payload, EventMetadata metadata) throws ThriftDecodeException {
    return fromBytes(payload, 0, payload == null ? 0 : payload.length, metadata);
  }

  /**
   * {@link #fromBytes(byte[], EventMetadata)} for the {@code length} bytes at {@code offset} of
   * {@code buffer} (a union's member inside the message), read where they are, not copied.
   */
  T fromBytes(byte[] buffer, int offset, int length, EventMetadata metadata)
      throws ThriftDecodeException;

  /** Decodes {@code payload} into the generated Thrift object (for a user function). */
  TBase<?, ?> decode(byte[] payload) throws ThriftDecodeException;

  /**
   * Converts a Thrift object into a row; gives the same row as {@link #fromBytes} for the bytes the
   * object serializes to.
   *
   * @throws ConversionException if the object is not a valid event (for example a required field
   *     was cleared)
   */
  T fromEvent(TBase<?, ?> event, EventMetadata metadata);

  /**
   * Enum values the IDL does not name that this converter met since the last call (kept as {@code
   * UNKNOWN_<n>} or refused, see {@link ConverterConfig#unknownEnumValues}); for the metrics.
   */
  long takeUnknownEnumValues();

  /** String fields stored with U+FFFD since the last call ({@code --invalidUtf8=REPLACE}). */
  long takeInvalidUtf8Replaced();

  /**
   * Fields skipped since the last call because the IDL does not know them (a producer on a newer
   * IDL); for the {@code unknown_fields} metric and the log. With {@code --keepUnknownFields} the
   * event's bytes are also kept in the row.
   */
  UnknownFields takeUnknownFields();
}
