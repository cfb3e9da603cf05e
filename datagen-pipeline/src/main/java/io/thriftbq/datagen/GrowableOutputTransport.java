package io.thriftbq.datagen;

import java.util.Arrays;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A write-only, reusable in-memory transport: unlike TSerializer's ByteArrayOutputStream it is
 * unsynchronized, keeps its array between events and exposes it without a copy.
 */
final class GrowableOutputTransport extends TTransport {
  private static final TConfiguration CONFIGURATION = new TConfiguration();

  private byte[] buffer;
  private int length;

  GrowableOutputTransport(int initialCapacity) {
    this.buffer = new byte[Math.max(16, initialCapacity)];
  }

  void reset() {
    length = 0;
  }

  byte[] array() {
    return buffer;
  }

  int length() {
    return length;
  }

  @Override
  public void write(byte[] bytes, int offset, int count) {
    int needed = length + count;
    if (needed > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
    }
    System.arraycopy(bytes, offset, buffer, length, count);
    length = needed;
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public void open() {}

  @Override
  public void close() {}

  @Override
  public int read(byte[] bytes, int offset, int count) throws TTransportException {
    throw new TTransportException(TTransportException.UNKNOWN, "write-only transport");
  }

  @Override
  public TConfiguration getConfiguration() {
    return CONFIGURATION;
  }

  @Override
  public void updateKnownMessageSize(long size) {}

  @Override
  public void checkReadBytesAvailable(long numBytes) {}
}
