package io.thriftbq.ingest.convert;

import java.nio.ByteBuffer;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.TTransport;

/**
 * A {@link TProtocol} that only reads: every write throws. A reader that stands in for a protocol
 * under libthrift's generated {@code read} ({@link CheckingProtocol}) extends it, so that it holds
 * its reads and nothing else.
 */
abstract class ReadOnlyProtocol extends TProtocol {
  ReadOnlyProtocol(TTransport transport) {
    super(transport);
  }

  private static UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public final void writeMessageBegin(TMessage message) {
    throw readOnly();
  }

  @Override
  public final void writeMessageEnd() {
    throw readOnly();
  }

  @Override
  public final void writeStructBegin(TStruct struct) {
    throw readOnly();
  }

  @Override
  public final void writeStructEnd() {
    throw readOnly();
  }

  @Override
  public final void writeFieldBegin(TField field) {
    throw readOnly();
  }

  @Override
  public final void writeFieldEnd() {
    throw readOnly();
  }

  @Override
  public final void writeFieldStop() {
    throw readOnly();
  }

  @Override
  public final void writeMapBegin(TMap map) {
    throw readOnly();
  }

  @Override
  public final void writeMapEnd() {
    throw readOnly();
  }

  @Override
  public final void writeListBegin(TList list) {
    throw readOnly();
  }

  @Override
  public final void writeListEnd() {
    throw readOnly();
  }

  @Override
  public final void writeSetBegin(TSet set) {
    throw readOnly();
  }

  @Override
  public final void writeSetEnd() {
    throw readOnly();
  }

  @Override
  public final void writeBool(boolean b) {
    throw readOnly();
  }

  @Override
  public final void writeByte(byte b) {
    throw readOnly();
  }

  @Override
  public final void writeI16(short i16) {
    throw readOnly();
  }

  @Override
  public final void writeI32(int i32) {
    throw readOnly();
  }

  @Override
  public final void writeI64(long i64) {
    throw readOnly();
  }

  @Override
  public final void writeDouble(double dub) {
    throw readOnly();
  }

  @Override
  public final void writeString(String str) {
    throw readOnly();
  }

  @Override
  public final void writeBinary(ByteBuffer buf) {
    throw readOnly();
  }
}
