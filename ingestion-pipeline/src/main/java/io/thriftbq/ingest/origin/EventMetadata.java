package io.thriftbq.ingest.origin;

import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * What the source said about the message an event came in.
 *
 * @param messageId Pub/Sub message id, or null (always null from Kafka, whose records are named by
 *     {@code kafka})
 * @param publishTimeMillis Pub/Sub publish time or Kafka record timestamp, in epoch milliseconds,
 *     or {@link #UNKNOWN_TIME}
 * @param attributes Pub/Sub message attributes or Kafka record headers, never null
 * @param kafka the Kafka record's topic, partition, offset and key; null for a Pub/Sub message
 */
public record EventMetadata(
    @Nullable String messageId,
    long publishTimeMillis,
    Map<String, String> attributes,
    @Nullable KafkaOrigin kafka) {

  public static final long UNKNOWN_TIME = Long.MIN_VALUE;
  public static final EventMetadata EMPTY = new EventMetadata(null, UNKNOWN_TIME, Map.of());

  public EventMetadata {
    attributes = attributes == null ? Map.of() : attributes;
  }

  /** The metadata of a Pub/Sub message (or of a message handed over without a Kafka origin). */
  public EventMetadata(
      @Nullable String messageId, long publishTimeMillis, Map<String, String> attributes) {
    this(messageId, publishTimeMillis, attributes, null);
  }

  /** The metadata of a message whose publish time is given as an instant (null: unknown). */
  public static EventMetadata of(
      @Nullable String messageId,
      @Nullable Instant publishTime,
      Map<String, String> attributes,
      @Nullable KafkaOrigin kafka) {
    return new EventMetadata(
        messageId, publishTime == null ? UNKNOWN_TIME : publishTime.getMillis(), attributes, kafka);
  }

  public boolean hasPublishTime() {
    return publishTimeMillis != UNKNOWN_TIME;
  }

  /** The publish time as an instant, or null when unknown. */
  public @Nullable Instant publishTime() {
    return hasPublishTime() ? new Instant(publishTimeMillis) : null;
  }
}
