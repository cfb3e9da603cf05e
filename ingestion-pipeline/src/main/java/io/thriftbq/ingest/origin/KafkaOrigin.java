package io.thriftbq.ingest.origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where in Kafka an event was read: the record's topic, partition and offset (together the record's
 * identity, which a dead letter keeps so that it can be found and replayed) and its key. The
 * record's timestamp and headers travel as the event's time and attributes, as a Pub/Sub message's
 * publish time and attributes do.
 *
 * @param topic the record's topic
 * @param partition the record's partition
 * @param offset the record's offset in its partition
 * @param key the record's key, or null when it has none
 */
public record KafkaOrigin(String topic, int partition, long offset, byte @Nullable [] key) {

  private static final Coder<String> TOPIC = StringUtf8Coder.of();
  private static final Coder<Integer> PARTITION = VarIntCoder.of();
  private static final Coder<Long> OFFSET = VarLongCoder.of();
  private static final Coder<byte[]> KEY = NullableCoder.of(ByteArrayCoder.of());

  public KafkaOrigin {
    Objects.requireNonNull(topic, "topic");
  }

  /** Writes {@code origin} (which may be null) for the coders of the elements that carry it. */
  public static void encode(@Nullable KafkaOrigin origin, OutputStream out) throws IOException {
    out.write(origin == null ? 0 : 1);
    if (origin != null) {
      TOPIC.encode(origin.topic, out);
      PARTITION.encode(origin.partition, out);
      OFFSET.encode(origin.offset, out);
      KEY.encode(origin.key, out);
    }
  }

  /** Reads what {@link #encode} wrote. */
  public static @Nullable KafkaOrigin decode(InputStream in) throws IOException {
    int present = in.read();
    if (present < 0) {
      throw new IOException("end of stream before a KafkaOrigin");
    }
    if (present == 0) {
      return null;
    }
    return new KafkaOrigin(
        TOPIC.decode(in), PARTITION.decode(in), OFFSET.decode(in), KEY.decode(in));
  }

  /** {@code topic/partition/offset}, the record's identity as people write it. */
  public String position() {
    return topic + "/" + partition + "/" + offset;
  }

  // A record compares arrays by identity; origins are values.
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof KafkaOrigin that
        && topic.equals(that.topic)
        && partition == that.partition
        && offset == that.offset
        && Arrays.equals(key, that.key);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topic, partition, offset, Arrays.hashCode(key));
  }

  @Override
  public String toString() {
    return "KafkaOrigin["
        + position()
        + (key == null ? "" : ", key " + key.length + " bytes")
        + "]";
  }
}
