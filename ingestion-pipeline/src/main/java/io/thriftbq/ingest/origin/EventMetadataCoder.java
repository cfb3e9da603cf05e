package io.thriftbq.ingest.origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * The one coder of a message's metadata: message id, publish time, attributes and Kafka origin. The
 * coders of every element that carries metadata (the read message, the row kept for write failures,
 * the dead letter) delegate to it, so a new metadata field is encoded in one place.
 *
 * <p>Attributes are written sorted by key, so the encoding is deterministic: the row kept for write
 * failures is shuffled under a key by the streaming-inserts write.
 */
public final class EventMetadataCoder extends AtomicCoder<EventMetadata> {
  private static final EventMetadataCoder INSTANCE = new EventMetadataCoder();

  private static final Coder<String> MESSAGE_ID = NullableCoder.of(StringUtf8Coder.of());
  // Fixed width, because the "unknown" publish time is Long.MIN_VALUE.
  private static final Coder<Long> PUBLISH_TIME = BigEndianLongCoder.of();
  private static final Coder<Integer> COUNT = VarIntCoder.of();
  private static final Coder<String> STRING = StringUtf8Coder.of();

  private EventMetadataCoder() {}

  public static EventMetadataCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EventMetadata metadata, OutputStream out) throws IOException {
    MESSAGE_ID.encode(metadata.messageId(), out);
    PUBLISH_TIME.encode(metadata.publishTimeMillis(), out);
    Map<String, String> attributes = metadata.attributes();
    COUNT.encode(attributes.size(), out);
    // Most messages carry at most one attribute or a naturally sorted map; only the rest pay for
    // sorting.
    Map<String, String> sorted =
        attributes.size() <= 1
                || (attributes instanceof SortedMap<String, String> map && map.comparator() == null)
            ? attributes
            : new TreeMap<>(attributes);
    for (Map.Entry<String, String> attribute : sorted.entrySet()) {
      STRING.encode(attribute.getKey(), out);
      STRING.encode(attribute.getValue(), out);
    }
    KafkaOrigin.encode(metadata.kafka(), out);
  }

  @Override
  public EventMetadata decode(InputStream in) throws IOException {
    String messageId = MESSAGE_ID.decode(in);
    long publishTimeMillis = PUBLISH_TIME.decode(in);
    int count = COUNT.decode(in);
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      attributes.put(STRING.decode(in), STRING.decode(in));
    }
    return new EventMetadata(messageId, publishTimeMillis, attributes, KafkaOrigin.decode(in));
  }

  @Override
  public void verifyDeterministic() {
    // Attributes are written in key order (see the class comment).
  }

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
