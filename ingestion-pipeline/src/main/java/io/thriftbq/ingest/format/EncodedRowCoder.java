package io.thriftbq.ingest.format;

import io.thriftbq.ingest.convert.EncodedRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.VarInt;

/**
 * Coder of {@link EncodedRow}: the row's bytes, length-prefixed. What a runner moves for an element
 * is the row's bytes plus their length, reported by {@link #getEncodedElementByteSize} without
 * encoding.
 */
public final class EncodedRowCoder extends AtomicCoder<EncodedRow> {
  private static final EncodedRowCoder INSTANCE = new EncodedRowCoder();
  private static final Coder<byte[]> BYTES = ByteArrayCoder.of();

  private EncodedRowCoder() {}

  public static EncodedRowCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EncodedRow value, OutputStream out) throws IOException {
    BYTES.encode(value.bytes(), out);
  }

  @Override
  public EncodedRow decode(InputStream in) throws IOException {
    return new EncodedRow(BYTES.decode(in));
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }

  @Override
  protected long getEncodedElementByteSize(EncodedRow value) {
    return VarInt.getLength(value.bytes().length) + (long) value.bytes().length;
  }
}
