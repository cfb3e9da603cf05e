package io.thriftbq.ingest.format;

import io.thriftbq.ingest.convert.EncodedRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.io.ByteStreams;

/**
 * Coder of {@link EncodedRow}: the row's bytes, prefixed by one varint that holds their length and,
 * in its lowest bit, whether they already end with change mode's pseudo-columns (so a row that
 * crossed a coder is not stamped twice). What a runner moves for an element is the row's bytes plus
 * that prefix, reported by {@link #getEncodedElementByteSize} without encoding.
 */
public final class EncodedRowCoder extends AtomicCoder<EncodedRow> {
  private static final EncodedRowCoder INSTANCE = new EncodedRowCoder();

  private EncodedRowCoder() {}

  public static EncodedRowCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EncodedRow value, OutputStream out) throws IOException {
    byte[] bytes = value.bytes();
    VarInt.encode(prefix(value), out);
    out.write(bytes);
  }

  @Override
  public EncodedRow decode(InputStream in) throws IOException {
    long prefix = VarInt.decodeLong(in);
    long length = prefix >>> 1;
    if (length > Integer.MAX_VALUE - 8) {
      throw new CoderException("EncodedRow of " + length + " bytes cannot be decoded");
    }
    byte[] bytes = new byte[(int) length];
    ByteStreams.readFully(in, bytes);
    return new EncodedRow(bytes, (prefix & 1) == 1);
  }

  private static long prefix(EncodedRow value) {
    return ((long) value.bytes().length << 1) | (value.hasChangeColumns() ? 1 : 0);
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }

  @Override
  protected long getEncodedElementByteSize(EncodedRow value) {
    return VarInt.getLength(prefix(value)) + (long) value.bytes().length;
  }
}
