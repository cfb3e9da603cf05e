package io.thriftbq.ingest.deadletter;

/** The pipeline step at which an event failed; stored in the dead-letter table's stage column. */
public enum Stage {
  /** The message (Pub/Sub or Kafka) was marked as an envelope but could not be unpacked. */
  UNPACK,
  /**
   * A many-types job could not tell the message's struct: the attribute naming it is missing or
   * names a struct the job does not ingest, or the union holds no member the job ingests.
   */
  ROUTE,
  /** The payload is not a valid serialized event of the configured class and protocol. */
  DECODE,
  /** The user function threw, or returned something that is not the configured event class. */
  TRANSFORM,
  /** The decoded event could not be turned into a row of the output format. */
  CONVERT,
  /**
   * Change mode: the row cannot be a change, because a primary key column is NULL, the change type
   * is missing or names neither an upsert nor a delete, or the sequence is missing or malformed.
   */
  CHANGE,
  /** BigQuery rejected the row. */
  WRITE;

  public String columnValue() {
    return name();
  }
}
