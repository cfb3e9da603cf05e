package io.thriftbq.local.config;

import java.util.Locale;

/**
 * Which broker carries a local run's events to the ingestion pipeline, and so which server the
 * stack starts beside the BigQuery emulator.
 */
public enum SourceKind {
  /** Google's Pub/Sub emulator (a gcloud component). */
  PUBSUB("pubsub", "Pub/Sub emulator"),
  /**
   * A real single-node Apache Kafka broker in KRaft mode (see {@link
   * io.thriftbq.local.stack.KafkaBroker}).
   */
  KAFKA("kafka", "Kafka broker");

  private final String flagValue;
  private final String serverName;

  SourceKind(String flagValue, String serverName) {
    this.flagValue = flagValue;
    this.serverName = serverName;
  }

  /** As {@code run-local.sh --source} spells it. */
  public String flagValue() {
    return flagValue;
  }

  /** The server a run of this kind starts, for messages and the report. */
  public String serverName() {
    return serverName;
  }

  /**
   * @throws IllegalArgumentException naming the accepted values
   */
  public static SourceKind parse(String value) {
    String wanted = value.trim().toLowerCase(Locale.ROOT);
    for (SourceKind kind : values()) {
      if (kind.flagValue.equals(wanted)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("--source=" + value + " is not one of pubsub, kafka");
  }
}
