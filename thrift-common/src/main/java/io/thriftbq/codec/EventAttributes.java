package io.thriftbq.codec;

import java.util.Map;

/**
 * Pub/Sub attributes the data generator sets on every message, plain or {@link EventEnvelope}.
 *
 * <ul>
 *   <li>{@value #EVENT_TIME_MS}: when the event (or, for an envelope, the batch) was created, epoch
 *       milliseconds, decimal. The ingestion side measures end-to-end latency from it.
 *   <li>{@value #EVENT_ID}: the event's sequence number, decimal, a deterministic function of the
 *       generator's sequence (the same seed and options give the same ids), unique within one
 *       generator run. In an envelope it is the first event's id and the ids are consecutive: use
 *       {@link #eventIdAt} to get the id of event {@code i}.
 * </ul>
 */
public final class EventAttributes {

  /** Event-creation time, epoch milliseconds, decimal. */
  public static final String EVENT_TIME_MS = "event_time_ms";

  /** Event id (decimal sequence number); for an envelope, the id of its first event. */
  public static final String EVENT_ID = "event_id";

  private EventAttributes() {}

  /**
   * The id of event {@code index} of a message: {@code event_id} for a plain message (index 0), or
   * {@code event_id + index} for an envelope. Null when the message has no {@code event_id}.
   *
   * @throws IllegalArgumentException if the index is outside the message's events, or the message
   *     is an envelope whose {@code event_id} is not a decimal number
   */
  public static String eventIdAt(Map<String, String> attributes, int index) {
    if (index < 0) {
      throw new IllegalArgumentException("event index must be >= 0: " + index);
    }
    String first = attributes == null ? null : attributes.get(EVENT_ID);
    if (first == null) {
      return null;
    }
    if (index == 0) {
      return first;
    }
    if (!EventEnvelope.isEnvelope(attributes)) {
      throw new IllegalArgumentException(
          "a plain message holds one event, so index " + index + " does not exist");
    }
    String declaredCount = attributes.get(EventEnvelope.RECORD_COUNT_ATTRIBUTE);
    long count;
    try {
      count = declaredCount == null ? -1 : Long.parseLong(declaredCount.trim());
    } catch (NumberFormatException e) {
      count = -1;
    }
    if (count >= 0 && index >= count) {
      throw new IllegalArgumentException(
          "event index " + index + " is outside the envelope's " + count + " events");
    }
    long firstId;
    try {
      firstId = Long.parseLong(first.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          EVENT_ID
              + "='"
              + first
              + "' is not a decimal number, so the ids of the events after the first in this"
              + " envelope cannot be derived");
    }
    try {
      return Long.toString(Math.addExact(firstId, index));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(EVENT_ID + "=" + first + " + " + index + " overflows");
    }
  }

  /** The creation time in epoch milliseconds, or null when the attribute is absent or malformed. */
  public static Long eventTimeMillis(Map<String, String> attributes) {
    String value = attributes == null ? null : attributes.get(EVENT_TIME_MS);
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
