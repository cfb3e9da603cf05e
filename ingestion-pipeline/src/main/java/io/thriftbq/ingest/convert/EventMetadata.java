package io.thriftbq.ingest.convert;

import java.util.Map;

/**
 * Pub/Sub metadata of the message an event came in.
 *
 * @param messageId Pub/Sub message id, or null
 * @param publishTimeMillis publish time in epoch milliseconds, or {@link Long#MIN_VALUE} if unknown
 * @param attributes message attributes, never null
 */
public record EventMetadata(
    String messageId, long publishTimeMillis, Map<String, String> attributes) {

  public static final long UNKNOWN_TIME = Long.MIN_VALUE;
  public static final EventMetadata EMPTY = new EventMetadata(null, UNKNOWN_TIME, Map.of());

  public EventMetadata {
    attributes = attributes == null ? Map.of() : attributes;
  }

  public boolean hasPublishTime() {
    return publishTimeMillis != UNKNOWN_TIME;
  }
}
