package io.thriftbq.ingest.format;

import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.EventMetadataCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;

/**
 * Coder of {@link RowWithPayload}: the row with the row format's coder, then the payload and the
 * message's metadata ({@link EventMetadataCoder}). Everything BigQueryIO's fail-safe function needs
 * survives every encoding between the decode step and the write (the streaming-inserts write
 * shuffles these elements), so nothing depends on elements staying in memory.
 *
 * <p>The metadata encoding is deterministic, so this one is whenever the row coder is.
 *
 * @param <T> the row type
 */
public final class RowWithPayloadCoder<T> extends StructuredCoder<RowWithPayload<T>> {
  private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
  private static final Coder<EventMetadata> METADATA = EventMetadataCoder.of();

  private final Coder<T> rowCoder;

  private RowWithPayloadCoder(Coder<T> rowCoder) {
    this.rowCoder = rowCoder;
  }

  public static <T> RowWithPayloadCoder<T> of(Coder<T> rowCoder) {
    return new RowWithPayloadCoder<>(rowCoder);
  }

  @Override
  public void encode(RowWithPayload<T> value, OutputStream out) throws IOException {
    rowCoder.encode(value.row(), out);
    PAYLOAD.encode(value.payload(), out);
    METADATA.encode(value.metadata(), out);
  }

  @Override
  public RowWithPayload<T> decode(InputStream in) throws IOException {
    T row = rowCoder.decode(in);
    byte[] payload = PAYLOAD.decode(in);
    return new RowWithPayload<>(row, payload, METADATA.decode(in));
  }

  @Override
  public List<? extends Coder<?>> getCoderArguments() {
    return List.of(rowCoder);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    verifyDeterministic(this, "the row coder must be deterministic", rowCoder);
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
