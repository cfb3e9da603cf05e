package io.thriftbq.ingest.change;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.WireFormat;
import io.thriftbq.ingest.convert.EncodedRow;
import java.util.Arrays;

/**
 * BigQuery's change pseudo-columns in PROTO_MESSAGE rows, which BigQueryIO forwards as they are
 * ({@code writeProtos} refuses a row mutation function): the row message's descriptor gains two
 * string fields, {@code _CHANGE_TYPE} and {@code _CHANGE_SEQUENCE_NUMBER}, numbered after the
 * table's columns, and each row's bytes gain their values. Appending is enough: a protobuf
 * message's fields may come in any order, and BigQuery reads the pseudo-columns from the writer
 * schema as it does when Beam's own converters add them (its {@code TableRowToStorageApiProto}
 * names the same two fields, of the same type, after the columns).
 */
public final class ChangeColumns {
  public static final String CHANGE_TYPE = "_CHANGE_TYPE";
  public static final String CHANGE_SEQUENCE_NUMBER = "_CHANGE_SEQUENCE_NUMBER";

  private ChangeColumns() {}

  /** The number of {@code _CHANGE_TYPE} in a row message of {@code columns} top-level columns. */
  public static int changeTypeNumber(int columns) {
    return columns + 1;
  }

  /** {@code rowDescriptor} (the table's row message) with the two pseudo-columns added. */
  public static Descriptor withChangeColumns(Descriptor rowDescriptor) {
    FileDescriptorProto file = rowDescriptor.getFile().toProto();
    FileDescriptorProto.Builder builder = file.toBuilder().clearMessageType();
    for (DescriptorProto message : file.getMessageTypeList()) {
      if (!message.getName().equals(rowDescriptor.getName())) {
        builder.addMessageType(message);
        continue;
      }
      int typeNumber = changeTypeNumber(message.getFieldCount());
      builder.addMessageType(
          message.toBuilder()
              .addField(stringField(CHANGE_TYPE, typeNumber))
              .addField(stringField(CHANGE_SEQUENCE_NUMBER, typeNumber + 1)));
    }
    try {
      return FileDescriptor.buildFrom(builder.build(), new FileDescriptor[0])
          .findMessageTypeByName(rowDescriptor.getName());
    } catch (DescriptorValidationException e) {
      throw new IllegalStateException("the row message with change columns is invalid", e);
    }
  }

  private static FieldDescriptorProto stringField(String name, int number) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(FieldDescriptorProto.Type.TYPE_STRING)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
        .build();
  }

  /** {@code row} with {@code change}'s pseudo-column values appended (a new array). */
  public static EncodedRow stamp(EncodedRow row, Change change, int changeTypeNumber) {
    byte[] bytes = row.bytes();
    byte[] out = Arrays.copyOf(bytes, bytes.length + size(change, changeTypeNumber));
    write(change, changeTypeNumber, out, bytes.length);
    return new EncodedRow(out, true);
  }

  /** The length of {@code change}'s pseudo-columns in a row. */
  static int size(Change change, int changeTypeNumber) {
    int size =
        CodedOutputStream.computeTagSize(changeTypeNumber) + 1 + change.type().name().length();
    String sequence = change.sequence();
    if (sequence != null) {
      size += CodedOutputStream.computeTagSize(changeTypeNumber + 1) + 1 + sequence.length();
    }
    return size;
  }

  /** Writes {@code change}'s pseudo-columns at {@code out[at..]}; returns the end. */
  static int write(Change change, int changeTypeNumber, byte[] out, int at) {
    at = writeAscii(out, at, changeTypeNumber, change.type().name());
    String sequence = change.sequence();
    if (sequence != null) {
      at = writeAscii(out, at, changeTypeNumber + 1, sequence);
    }
    return at;
  }

  // Both values are ASCII and shorter than 128 bytes (a sequence is at most 67), so each length is
  // one varint byte.
  private static int writeAscii(byte[] out, int at, int number, String value) {
    int tag = (number << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED;
    while ((tag & ~0x7F) != 0) {
      out[at++] = (byte) ((tag & 0x7F) | 0x80);
      tag >>>= 7;
    }
    out[at++] = (byte) tag;
    out[at++] = (byte) value.length();
    for (int i = 0; i < value.length(); i++) {
      out[at++] = (byte) value.charAt(i);
    }
    return at;
  }
}
