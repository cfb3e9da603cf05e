package io.thriftbq.ingest.convert;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * How Thrift's binary and compact protocols lay out fixed-size values, for the readers that read a
 * payload's bytes themselves rather than through libthrift ({@link CheckingProtocol}, {@link
 * DirectProtoWriter}). Each of those keeps its own position in the payload, in its own fields: a
 * shared cursor object would cost a load per value, and they give up differently (a {@code
 * TException} under the generated reader, an unchecked one in the proto writer).
 */
final class BinaryWire {
  /** Big-endian views of a payload's bytes, as the binary protocol writes numbers. */
  static final VarHandle I16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  static final VarHandle I32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** The compact protocol writes a double as 8 little-endian bytes. */
  static final VarHandle LITTLE_I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * {@code TBinaryProtocol.getMinSerializedSize} by wire type, 0 where it throws (an unknown type
   * code): the binary protocol refuses a container header whose types are not in this table, or
   * whose elements could not fit in what is left of the message.
   */
  private static final int[] MIN_SIZE = {1, 1, 1, 1, 8, 0, 2, 0, 4, 0, 8, 4, 1, 4, 4, 4};

  private BinaryWire() {}

  /** The fewest bytes a value of wire type {@code type} takes; 0 for an unknown type code. */
  static int minSize(byte type) {
    return type >= 0 && type < MIN_SIZE.length ? MIN_SIZE[type] : 0;
  }
}
