package io.thriftbq.ingest.options;

/**
 * What the decoder does with a Thrift string field whose bytes are not valid UTF-8 ({@code
 * --invalidUtf8}). BigQuery STRING columns hold valid UTF-8 only, so the bytes cannot be stored as
 * they are.
 */
public enum InvalidUtf8 {
  /** Send the event to the dead-letter table (stage DECODE), raw bytes kept, naming the field. */
  DEAD_LETTER,
  /** Replace each malformed sequence with U+FFFD, keep the row, and count it. */
  REPLACE
}
