package io.thriftbq.ingest.write;

import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.KeptPayload;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.VarInt;

/**
 * Coder of {@link EncodedRow}: the row's bytes, length-prefixed, then, for {@code
 * --keepPayloadForWriteFailures}, the payload and metadata it keeps. What a runner moves for an
 * element is the row's bytes plus a few bytes, reported by {@link #getEncodedElementByteSize}.
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
    KeptPayload kept = value.kept();
    out.write(kept == null ? 0 : 1);
    if (kept != null) {
      RowWithPayloadCoder.encodeKept(kept.payload(), kept.metadata(), out);
    }
  }

  @Override
  public EncodedRow decode(InputStream in) throws IOException {
    byte[] bytes = BYTES.decode(in);
    int flag = in.read();
    if (flag == 1) {
      return new EncodedRow(bytes, RowWithPayloadCoder.decodeKept(in));
    }
    if (flag != 0) {
      throw new IOException("Not an EncodedRow: unexpected flag " + flag);
    }
    return new EncodedRow(bytes);
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return false; // equal rows may keep different payloads
  }

  @Override
  protected long getEncodedElementByteSize(EncodedRow value) throws Exception {
    if (value.kept() != null) {
      return super.getEncodedElementByteSize(value);
    }
    return VarInt.getLength(value.bytes().length) + value.bytes().length + 1L;
  }
}
