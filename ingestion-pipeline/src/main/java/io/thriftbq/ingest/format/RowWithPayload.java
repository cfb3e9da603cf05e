package io.thriftbq.ingest.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.UnknownFieldSet;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.origin.EventMetadata;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A row on its way to BigQueryIO together with the message it came from, so that a row BigQuery
 * rejects can still be dead-lettered with its original Thrift bytes and its message's metadata: the
 * one payload carrier of every format, built only with {@code --keepPayloadForWriteFailures}.
 * BigQueryIO applies its fail-safe function (see {@link FailsafeRow}) to the element it was handed,
 * so that element has to carry the payload.
 *
 * <p>It is a protocol buffer message because BigQueryIO's {@code writeProtos}, the PROTO_MESSAGE
 * write, takes nothing else: as a message it is its row's bytes (an {@link EncodedRow}), with the
 * row's descriptor. The other formats' writes take the row through a format function and never see
 * it as a message.
 *
 * @param <R> the row type: TableRow, Row, GenericRecord or EncodedRow
 */
public final class RowWithPayload<R> implements Message {
  private final R row;
  private final byte[] payload;
  private final EventMetadata metadata;

  /**
   * @param row the row in the chosen format
   * @param payload the serialized Thrift event exactly as received (an envelope member's own bytes)
   * @param metadata the message's id, publish time and attributes
   */
  public RowWithPayload(R row, byte[] payload, EventMetadata metadata) {
    this.row = Objects.requireNonNull(row, "row");
    this.payload = Objects.requireNonNull(payload, "payload");
    this.metadata = Objects.requireNonNull(metadata, "metadata");
  }

  public R row() {
    return row;
  }

  public byte[] payload() {
    return payload;
  }

  public EventMetadata metadata() {
    return metadata;
  }

  /**
   * The row message's descriptor while the PROTO_MESSAGE write is applied; what {@code
   * BigQueryIO.writeProtos(RowWithPayload.class)} reads. See {@link EncodedRow#getDescriptor()}.
   */
  public static Descriptor getDescriptor() {
    return EncodedRow.getDescriptor();
  }

  private Message rowMessage() {
    if (row instanceof Message message) {
      return message;
    }
    throw new UnsupportedOperationException(
        "A "
            + row.getClass().getSimpleName()
            + " row is not a protocol buffer message: only PROTO_MESSAGE rows are written as"
            + " messages");
  }

  // As a message: the row's.

  @Override
  public byte[] toByteArray() {
    return rowMessage().toByteArray();
  }

  @Override
  public int getSerializedSize() {
    return rowMessage().getSerializedSize();
  }

  @Override
  public void writeTo(CodedOutputStream output) throws IOException {
    rowMessage().writeTo(output);
  }

  @Override
  public ByteString toByteString() {
    return rowMessage().toByteString();
  }

  @Override
  public void writeTo(OutputStream output) throws IOException {
    rowMessage().writeTo(output);
  }

  @Override
  public void writeDelimitedTo(OutputStream output) throws IOException {
    rowMessage().writeDelimitedTo(output);
  }

  @Override
  public boolean isInitialized() {
    return true;
  }

  @Override
  public List<String> findInitializationErrors() {
    return List.of();
  }

  @Override
  public String getInitializationErrorString() {
    return "";
  }

  @Override
  public boolean hasOneof(OneofDescriptor oneof) {
    return rowMessage().hasOneof(oneof);
  }

  @Override
  public FieldDescriptor getOneofFieldDescriptor(OneofDescriptor oneof) {
    return rowMessage().getOneofFieldDescriptor(oneof);
  }

  @Override
  public Descriptor getDescriptorForType() {
    return rowMessage().getDescriptorForType();
  }

  @Override
  public Map<FieldDescriptor, Object> getAllFields() {
    return rowMessage().getAllFields();
  }

  @Override
  public boolean hasField(FieldDescriptor field) {
    return rowMessage().hasField(field);
  }

  @Override
  public Object getField(FieldDescriptor field) {
    return rowMessage().getField(field);
  }

  @Override
  public int getRepeatedFieldCount(FieldDescriptor field) {
    return rowMessage().getRepeatedFieldCount(field);
  }

  @Override
  public Object getRepeatedField(FieldDescriptor field, int index) {
    return rowMessage().getRepeatedField(field, index);
  }

  @Override
  public UnknownFieldSet getUnknownFields() {
    return rowMessage().getUnknownFields();
  }

  @Override
  public Message getDefaultInstanceForType() {
    return rowMessage().getDefaultInstanceForType();
  }

  @Override
  public Message.Builder newBuilderForType() {
    return rowMessage().newBuilderForType();
  }

  @Override
  public Message.Builder toBuilder() {
    return rowMessage().toBuilder();
  }

  @Override
  public Parser<? extends Message> getParserForType() {
    return rowMessage().getParserForType();
  }

  // A value: coder tests and PAssert compare elements.

  @Override
  public boolean equals(@Nullable Object other) {
    if (this == other) {
      return true;
    }
    return other instanceof RowWithPayload<?> that
        && row.equals(that.row)
        && Arrays.equals(payload, that.payload)
        && metadata.equals(that.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(row, Arrays.hashCode(payload), metadata);
  }

  @Override
  public String toString() {
    return "RowWithPayload{payloadBytes="
        + payload.length
        + ", messageId="
        + metadata.messageId()
        + ", row="
        + row
        + "}";
  }
}
