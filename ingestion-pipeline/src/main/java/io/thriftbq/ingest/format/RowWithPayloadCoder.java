package io.thriftbq.ingest.format;

import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * Coder of {@link RowWithPayload}: the row with the row format's coder, then the payload, message
 * id, publish time and attributes. Everything BigQueryIO's fail-safe function needs survives every
 * encoding between the decode step and the write (the streaming-inserts write shuffles these
 * elements), so nothing depends on elements staying in memory.
 *
 * <p>Attributes are written sorted by key, so the encoding is deterministic whenever the row coder
 * is.
 *
 * @param <T> the row type
 */
public final class RowWithPayloadCoder<T> extends StructuredCoder<RowWithPayload<T>> {
  private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
  private static final Coder<String> MESSAGE_ID = NullableCoder.of(StringUtf8Coder.of());
  // Fixed width, because the "unknown" publish time is Long.MIN_VALUE.
  private static final Coder<Long> PUBLISH_TIME = BigEndianLongCoder.of();
  private static final Coder<Integer> COUNT = VarIntCoder.of();
  private static final Coder<String> STRING = StringUtf8Coder.of();

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
    EventMetadata metadata = value.metadata();
    MESSAGE_ID.encode(metadata.messageId(), out);
    PUBLISH_TIME.encode(metadata.publishTimeMillis(), out);
    Map<String, String> attributes = metadata.attributes();
    COUNT.encode(attributes.size(), out);
    for (Map.Entry<String, String> attribute : new TreeMap<>(attributes).entrySet()) {
      STRING.encode(attribute.getKey(), out);
      STRING.encode(attribute.getValue(), out);
    }
    KafkaOrigin.encode(metadata.kafka(), out);
  }

  @Override
  public RowWithPayload<T> decode(InputStream in) throws IOException {
    T row = rowCoder.decode(in);
    byte[] payload = PAYLOAD.decode(in);
    String messageId = MESSAGE_ID.decode(in);
    long publishTimeMillis = PUBLISH_TIME.decode(in);
    int count = COUNT.decode(in);
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      attributes.put(STRING.decode(in), STRING.decode(in));
    }
    KafkaOrigin kafka = KafkaOrigin.decode(in);
    return new RowWithPayload<>(
        row, payload, new EventMetadata(messageId, publishTimeMillis, attributes, kafka));
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
