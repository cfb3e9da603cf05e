package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.schema.ProtoSchemas;
import io.thriftbq.schema.ThriftStruct;
import java.io.IOException;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The PROTO_MESSAGE format: rows as {@link EncodedRow}s, the table's message (derived from the
 * table schema) written straight to protocol buffer wire format from the column values, without a
 * builder, reflection or a generated class. A nested record is its encoded bytes, embedded as is in
 * its parent; the top-level record's bytes are what the Storage Write API receives. INT64 and
 * TIMESTAMP (microseconds) are Longs, BYTES is a byte[], STRING is a String or, straight from the
 * wire, its valid UTF-8 bytes, REPEATED is a List.
 */
final class ProtoMessageAssembler extends RowAssembler<EncodedRow, ProtoMessageAssembler.Shape> {
  private static final byte INT64 = 0;
  private static final byte DOUBLE = 1;
  private static final byte BOOL = 2;
  private static final byte STRING = 3;
  private static final byte BYTES = 4; // BYTES columns and nested records: both length-delimited

  /** Field numbers and encodings of one record's columns, by column index. */
  static final class Shape {
    private final int[] numbers;
    private final byte[] kinds;
    private final boolean[] repeated;
    private final Shape[] children;

    private Shape(Descriptor message, List<TableFieldSchema> columns) {
      int count = columns.size();
      this.numbers = new int[count];
      this.kinds = new byte[count];
      this.repeated = new boolean[count];
      this.children = new Shape[count];
      for (int i = 0; i < count; i++) {
        TableFieldSchema column = columns.get(i);
        FieldDescriptor field = field(message, column.getName());
        numbers[i] = field.getNumber();
        repeated[i] = field.isRepeated();
        kinds[i] = kind(field);
        if (field.getType() == FieldDescriptor.Type.MESSAGE) {
          children[i] = new Shape(field.getMessageType(), column.getFields());
        }
      }
    }

    /** The proto field number of column {@code index}. */
    int number(int index) {
      return numbers[index];
    }

    /** The record of column {@code index} (a nested record or map entry), or null. */
    Shape child(int index) {
      return children[index];
    }

    int columnCount() {
      return numbers.length;
    }

    private static FieldDescriptor field(Descriptor message, String column) {
      FieldDescriptor field = ProtoSchemas.findField(message, column);
      if (field == null) {
        throw new IllegalArgumentException(
            message.getFullName() + " has no field for column " + column);
      }
      return field;
    }

    private static byte kind(FieldDescriptor field) {
      return switch (field.getType()) {
        case INT64 -> INT64;
        case DOUBLE -> DOUBLE;
        case BOOL -> BOOL;
        case STRING -> STRING;
        case BYTES, MESSAGE -> BYTES;
        default ->
            throw new IllegalArgumentException(
                "Field " + field.getFullName() + " has type " + field.getType());
      };
    }
  }

  private final Shape root;

  /**
   * @param descriptor the row message, derived from {@code schema} ({@code EventSchemas})
   */
  private final @Nullable RowSuffix suffix;

  ProtoMessageAssembler(TableSchema schema, Descriptor descriptor) {
    this(schema, descriptor, null);
  }

  ProtoMessageAssembler(TableSchema schema, Descriptor descriptor, @Nullable RowSuffix suffix) {
    this.root = new Shape(descriptor, schema.getFields());
    this.suffix = suffix;
  }

  @Override
  Shape rootShape() {
    return root;
  }

  @Override
  Shape childShape(Shape parent, int index) {
    return parent.children[index];
  }

  /** A nested record is embedded in its parent as its bytes. */
  @Override
  byte[] record(Shape shape, Object[] values) {
    return encode(shape, values);
  }

  /** The row is sent as it is. */
  @Override
  EncodedRow row(Object[] values) {
    return new EncodedRow(encode(root, values));
  }

  @Override
  @Nullable OnePassWriter<EncodedRow> onePassWriter(
      ThriftStruct struct,
      DecodingRules rules,
      ThriftProtocol protocol,
      MetadataColumns metadataColumns) {
    DirectProtoWriter writer =
        new DirectProtoWriter(struct, root, rules, protocol, metadataColumns, suffix);
    return writer.enabled() ? writer : null;
  }

  @Override
  Object bytes(byte[] value) {
    return value;
  }

  @Override
  boolean stringsAsUtf8() {
    return true;
  }

  @Override
  Object timestampMillis(long epochMillis) {
    return epochMillis * 1000L;
  }

  private static byte[] encode(Shape shape, Object[] values) {
    int size = 0;
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value == null) {
        continue;
      }
      if (shape.repeated[i]) {
        for (Object element : (List<?>) value) {
          size += size(shape.numbers[i], shape.kinds[i], element);
        }
      } else {
        size += size(shape.numbers[i], shape.kinds[i], value);
      }
    }
    byte[] out = new byte[size];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        if (value == null) {
          continue;
        }
        if (shape.repeated[i]) {
          for (Object element : (List<?>) value) {
            write(stream, shape.numbers[i], shape.kinds[i], element);
          }
        } else {
          write(stream, shape.numbers[i], shape.kinds[i], value);
        }
      }
      stream.checkNoSpaceLeft();
    } catch (IOException e) {
      // Only an undersized array can make an array-backed stream fail.
      throw new IllegalStateException("Proto size computation is wrong", e);
    }
    return out;
  }

  private static int size(int number, byte kind, Object value) {
    return switch (kind) {
      case INT64 -> CodedOutputStream.computeInt64Size(number, (Long) value);
      case DOUBLE -> CodedOutputStream.computeDoubleSize(number, (Double) value);
      case BOOL -> CodedOutputStream.computeBoolSize(number, (Boolean) value);
      case STRING ->
          value instanceof byte[] utf8
              ? CodedOutputStream.computeByteArraySize(number, utf8)
              : CodedOutputStream.computeStringSize(number, (String) value);
      default -> CodedOutputStream.computeByteArraySize(number, (byte[]) value);
    };
  }

  private static void write(CodedOutputStream stream, int number, byte kind, Object value)
      throws IOException {
    switch (kind) {
      case INT64 -> stream.writeInt64(number, (Long) value);
      case DOUBLE -> stream.writeDouble(number, (Double) value);
      case BOOL -> stream.writeBool(number, (Boolean) value);
      case STRING -> {
        if (value instanceof byte[] utf8) {
          stream.writeByteArray(number, utf8);
        } else {
          stream.writeString(number, (String) value);
        }
      }
      default -> stream.writeByteArray(number, (byte[]) value);
    }
  }
}
