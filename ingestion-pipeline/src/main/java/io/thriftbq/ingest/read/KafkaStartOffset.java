package io.thriftbq.ingest.read;

import java.io.Serializable;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.joda.time.Instant;

/**
 * Where the Kafka source starts reading a partition ({@code --kafkaStartOffset}): at its earliest
 * or latest offset where the consumer group has committed none, or at the first record at or after
 * a time.
 */
public sealed interface KafkaStartOffset extends Serializable {

  /** The earliest offset still on the broker, where the group has committed none. */
  record Earliest() implements KafkaStartOffset {}

  /** Records produced after the job starts, where the group has committed none. */
  record Latest() implements KafkaStartOffset {}

  /** The first record whose timestamp is at or after {@code time}, committed offsets or not. */
  record AtTime(Instant time) implements KafkaStartOffset {}

  /**
   * Parses {@code EARLIEST}, {@code LATEST}, an ISO-8601 instant or epoch milliseconds.
   *
   * @throws IllegalArgumentException saying what the value may be
   */
  static KafkaStartOffset parse(String value) {
    String text = value == null ? "" : value.trim();
    switch (text.toUpperCase(Locale.ROOT)) {
      case "EARLIEST":
        return new Earliest();
      case "LATEST":
        return new Latest();
      default:
        break;
    }
    if (text.matches("\\d{1,19}")) {
      return new AtTime(new Instant(Long.parseLong(text)));
    }
    try {
      return new AtTime(new Instant(java.time.Instant.parse(text).toEpochMilli()));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--kafkaStartOffset="
              + value
              + " is not EARLIEST, LATEST, an ISO-8601 time (2026-11-26T10:00:00Z) or epoch"
              + " milliseconds");
    }
  }
}
