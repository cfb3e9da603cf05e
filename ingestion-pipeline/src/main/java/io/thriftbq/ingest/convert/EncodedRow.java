package io.thriftbq.ingest.convert;

import com.google.protobuf.AbstractMessage;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A row already encoded as the Storage Write API's protocol buffer bytes: the PROTO_MESSAGE
 * format's element. The codec tree writes the bytes once, straight from the Thrift payload; they
 * are never parsed into a message and never encoded again, and the message type needs no generated
 * class: its descriptor is derived from the table schema at launch.
 *
 * <p>BigQueryIO takes protos through {@code writeProtos(Class)}, which reads the message descriptor
 * once, through the class's static {@code getDescriptor()}, when the write is applied ({@code
 * StorageApiDynamicDestinationsProto}'s constructor), and calls {@link #toByteArray()} for every
 * element. So {@link #getDescriptor()} answers only while {@link #applyingWithDescriptor} runs, and
 * everything else a {@link Message} offers is refused: if a Beam upgrade starts to use more, the
 * write tests fail rather than send something else.
 */
public final class EncodedRow extends AbstractMessage {
  private static final ThreadLocal<Descriptor> DESCRIPTOR_WHILE_APPLYING = new ThreadLocal<>();

  private final byte[] bytes;
  private final boolean changeColumns;

  /** {@code bytes} become the row's; the caller does not change them afterwards. */
  public EncodedRow(byte[] bytes) {
    this(bytes, false);
  }

  /**
   * A row whose bytes already end with change mode's pseudo-columns ({@code changeColumns}), as the
   * one-pass writer makes them.
   */
  public EncodedRow(byte[] bytes, boolean changeColumns) {
    this.bytes = bytes;
    this.changeColumns = changeColumns;
  }

  /** Whether the bytes already carry change mode's pseudo-columns (set where the row was made). */
  public boolean hasChangeColumns() {
    return changeColumns;
  }

  /** The row's encoded bytes (not a copy). */
  public byte[] bytes() {
    return bytes;
  }

  /**
   * The row message's descriptor, while {@link #applyingWithDescriptor} applies a write; what
   * {@code BigQueryIO.writeProtos(EncodedRow.class)} reads.
   *
   * @throws IllegalStateException at any other time
   */
  public static Descriptor getDescriptor() {
    Descriptor descriptor = DESCRIPTOR_WHILE_APPLYING.get();
    if (descriptor == null) {
      throw new IllegalStateException(
          "EncodedRow has a descriptor only while its BigQueryIO write is applied"
              + " (Format.applying); a Beam version that reads it elsewhere needs this class"
              + " revisited");
    }
    return descriptor;
  }

  /** Runs {@code apply} (which applies a {@code writeProtos(EncodedRow.class)} write) with it. */
  public static <T> T applyingWithDescriptor(Descriptor descriptor, Supplier<T> apply) {
    Descriptor previous = DESCRIPTOR_WHILE_APPLYING.get();
    DESCRIPTOR_WHILE_APPLYING.set(descriptor);
    try {
      return apply.get();
    } finally {
      if (previous == null) {
        DESCRIPTOR_WHILE_APPLYING.remove();
      } else {
        DESCRIPTOR_WHILE_APPLYING.set(previous);
      }
    }
  }

  // What BigQueryIO uses: the bytes.

  /** The row's bytes themselves, not a copy: BigQueryIO only sends them. */
  @Override
  public byte[] toByteArray() {
    return bytes;
  }

  @Override
  public int getSerializedSize() {
    return bytes.length;
  }

  @Override
  public void writeTo(CodedOutputStream output) throws IOException {
    output.writeRawBytes(bytes);
  }

  @Override
  public ByteString toByteString() {
    return ByteString.copyFrom(bytes);
  }

  @Override
  public boolean isInitialized() {
    return true;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EncodedRow row
        && changeColumns == row.changeColumns
        && Arrays.equals(bytes, row.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(bytes) + Boolean.hashCode(changeColumns);
  }

  // Seen as a Message without the table's descriptor, a row is a message with no declared
  // fields whose bytes are all unknown fields; that keeps toString() and debuggers working.

  private static final Descriptor OPAQUE = opaqueDescriptor();

  private static Descriptor opaqueDescriptor() {
    try {
      return com.google.protobuf.Descriptors.FileDescriptor.buildFrom(
              com.google.protobuf.DescriptorProtos.FileDescriptorProto.newBuilder()
                  .setName("thriftbq_encoded_row.proto")
                  .setPackage("thriftbq")
                  .addMessageType(
                      com.google.protobuf.DescriptorProtos.DescriptorProto.newBuilder()
                          .setName("EncodedRow"))
                  .build(),
              new com.google.protobuf.Descriptors.FileDescriptor[0])
          .findMessageTypeByName("EncodedRow");
    } catch (com.google.protobuf.Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(
        "EncodedRow is a row's encoded bytes; parse them with the table's descriptor to build"
            + " or change a message");
  }

  @Override
  public Descriptor getDescriptorForType() {
    return OPAQUE;
  }

  @Override
  public Map<FieldDescriptor, Object> getAllFields() {
    return Map.of();
  }

  @Override
  public boolean hasField(FieldDescriptor field) {
    return false;
  }

  @Override
  public Object getField(FieldDescriptor field) {
    throw new IllegalArgumentException(field.getFullName() + " is not a field of EncodedRow");
  }

  @Override
  public int getRepeatedFieldCount(FieldDescriptor field) {
    return 0;
  }

  @Override
  public Object getRepeatedField(FieldDescriptor field, int index) {
    throw new IllegalArgumentException(field.getFullName() + " is not a field of EncodedRow");
  }

  @Override
  public UnknownFieldSet getUnknownFields() {
    try {
      return UnknownFieldSet.parseFrom(bytes);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return UnknownFieldSet.getDefaultInstance();
    }
  }

  @Override
  public Message getDefaultInstanceForType() {
    throw unsupported();
  }

  @Override
  public Message.Builder newBuilderForType() {
    throw unsupported();
  }

  @Override
  public Message.Builder toBuilder() {
    throw unsupported();
  }

  @Override
  public Parser<? extends Message> getParserForType() {
    throw unsupported();
  }
}
