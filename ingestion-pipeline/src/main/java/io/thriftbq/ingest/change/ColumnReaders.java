package io.thriftbq.ingest.change;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.thriftbq.ingest.convert.EncodedRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The {@link ColumnReader} of each row type; {@code format.Format} hands out the right one. */
public final class ColumnReaders {
  private ColumnReaders() {}

  public static ColumnReader<TableRow> tableRows() {
    return (row, column) -> normalise(row.get(column.name()), column);
  }

  public static ColumnReader<Row> beamRows() {
    return (row, column) -> normalise(row.getValue(column.name()), column);
  }

  public static ColumnReader<GenericRecord> genericRecords() {
    return (row, column) -> normalise(row.get(column.name()), column);
  }

  /** Reads the row's protobuf bytes: top-level fields only, skipping the others by length. */
  public static ColumnReader<EncodedRow> encodedRows() {
    return new EncodedRowReader();
  }

  private static @Nullable Object normalise(@Nullable Object value, ChangeColumn column) {
    if (value == null) {
      return null;
    }
    if (column.isInteger()) {
      return value instanceof Number number ? number.longValue() : Long.parseLong(value.toString());
    }
    if (value instanceof Boolean) {
      return value;
    }
    return value.toString(); // String, Avro's Utf8, or an enum's name
  }

  /** Protobuf row bytes being written: {@code bytes[0..length)}, reused for every row. */
  static final class ProtoBytes {
    byte[] bytes;
    int length;
  }

  /** Reads {@link ProtoBytes}, as {@link #encodedRows} reads a finished row. */
  static ColumnReader<ProtoBytes> protoBytes() {
    return new ColumnReader<ProtoBytes>() {
      private static final long serialVersionUID = 1L;

      @Override
      public @Nullable Object read(ProtoBytes row, ChangeColumn column) {
        return EncodedRowReader.find(row.bytes, row.length, column, true);
      }

      @Override
      public boolean has(ProtoBytes row, ChangeColumn column) {
        return EncodedRowReader.find(row.bytes, row.length, column, false) != null;
      }
    };
  }

  private static final class EncodedRowReader implements ColumnReader<EncodedRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public @Nullable Object read(EncodedRow row, ChangeColumn column) {
      return find(row.bytes(), row.bytes().length, column, true);
    }

    @Override
    public boolean has(EncodedRow row, ChangeColumn column) {
      return find(row.bytes(), row.bytes().length, column, false) != null;
    }

    private static @Nullable Object find(
        byte[] bytes, int length, ChangeColumn column, boolean decode) {
      CodedInputStream in = CodedInputStream.newInstance(bytes, 0, length);
      try {
        while (true) {
          int tag = in.readTag();
          if (tag == 0) {
            return null;
          }
          if (WireFormat.getTagFieldNumber(tag) != column.protoNumber()) {
            in.skipField(tag);
            continue;
          }
          if (!decode) {
            return Boolean.TRUE;
          }
          if (column.isInteger()) {
            return in.readInt64();
          }
          if (column.type().startsWith("BOOL")) {
            return in.readBool();
          }
          return new String(in.readByteArray(), StandardCharsets.UTF_8);
        }
      } catch (IOException e) {
        throw new IllegalStateException("a row's own protobuf bytes cannot be read", e);
      }
    }
  }
}
