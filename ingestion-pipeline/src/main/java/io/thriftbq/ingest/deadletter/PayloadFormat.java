package io.thriftbq.ingest.deadletter;

/**
 * What the bytes in a dead letter's payload column are, so a replay tool knows how to read them.
 */
public enum PayloadFormat {
  /** One serialized Thrift event, exactly as it arrived (or as it was inside its envelope). */
  THRIFT,
  /** A whole message body (Pub/Sub or Kafka) that was marked as an envelope of many events. */
  ENVELOPE,
  /** The row BigQuery rejected, as UTF-8 JSON in BigQuery's TableRow shape. */
  BIGQUERY_ROW_JSON;

  public String columnValue() {
    return name();
  }
}
