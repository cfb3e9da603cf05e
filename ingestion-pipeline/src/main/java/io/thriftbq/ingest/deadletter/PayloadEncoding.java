package io.thriftbq.ingest.deadletter;

/**
 * How the bytes in a dead letter's payload column are encoded, so a replay tool knows how to read
 * them. Written to the dead-letter table's {@code payload_format} column (a column name kept for
 * existing tables).
 */
public enum PayloadEncoding {
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
