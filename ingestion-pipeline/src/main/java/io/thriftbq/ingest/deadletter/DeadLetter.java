package io.thriftbq.ingest.deadletter;

import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * An event the pipeline could not land in the output table, with everything needed to understand
 * and replay it: the original bytes (or the rejected row), where it failed and why, and the
 * metadata of the message (Pub/Sub or Kafka) it came in.
 *
 * @param payload the raw bytes: a Thrift event, a whole envelope, or a rejected row as JSON
 * @param payloadEncoding how to read {@code payload}
 * @param stage where it failed
 * @param errorMessage the error, starting with the exception class
 * @param metadata the metadata of the message it came in: message id (for an envelope member, the
 *     member id; null for a Kafka record, which {@code kafka} names), publish time (Pub/Sub publish
 *     time or Kafka record timestamp), attributes (or Kafka headers) and Kafka record
 * @param failedAt when the pipeline gave up on the event
 * @param eventTable the output table the event was meant for, or empty when it cannot be known (a
 *     message of a many-types job that names no struct the job ingests)
 * @param eventStruct the struct the event was routed to (many types), or empty
 */
@DefaultCoder(DeadLetterCoder.class)
public record DeadLetter(
    byte[] payload,
    PayloadEncoding payloadEncoding,
    Stage stage,
    String errorMessage,
    EventMetadata metadata,
    Instant failedAt,
    String eventTable,
    String eventStruct) {

  /** Long enough for a stack-less cause chain, short enough not to bloat the dead-letter table. */
  static final int MAX_ERROR_CHARS = 4096;

  public DeadLetter {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(payloadEncoding, "payloadEncoding");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(failedAt, "failedAt");
    errorMessage = errorMessage == null ? "" : errorMessage;
    metadata = metadata == null ? EventMetadata.EMPTY : metadata;
    eventTable = eventTable == null ? "" : eventTable;
    eventStruct = eventStruct == null ? "" : eventStruct;
  }

  /** An envelope (stage UNPACK) that could not be unpacked: the whole message body is kept. */
  public static DeadLetter ofEnvelope(byte[] payload, EventMetadata metadata, Throwable error) {
    return failedNow(payload, PayloadEncoding.ENVELOPE, Stage.UNPACK, describe(error), metadata);
  }

  /**
   * An event that failed at {@code stage} (DECODE, TRANSFORM, CONVERT, or WRITE when the payload
   * was kept for write failures), with its Thrift bytes.
   */
  public static DeadLetter ofEvent(
      Stage stage, byte[] payload, EventMetadata metadata, String errorMessage) {
    return failedNow(payload, PayloadEncoding.THRIFT, stage, errorMessage, metadata);
  }

  /** A row BigQuery rejected (stage WRITE), kept as the row's JSON. */
  public static DeadLetter ofRejectedRow(
      byte[] rowJson, String errorMessage, EventMetadata metadata) {
    return failedNow(
        rowJson, PayloadEncoding.BIGQUERY_ROW_JSON, Stage.WRITE, errorMessage, metadata);
  }

  /**
   * A message that could not be routed (stage ROUTE) in a many-types job: it names no struct the
   * job ingests, or its union holds no such member. The message's own bytes are kept.
   */
  public static DeadLetter ofUnrouted(byte[] payload, EventMetadata metadata, String errorMessage) {
    return ofEvent(Stage.ROUTE, payload, metadata, errorMessage);
  }

  // The factories' one constructor call: a dead letter made now, its table and struct not yet
  // known (the pipeline stamps them where it knows them, see withEvent).
  private static DeadLetter failedNow(
      byte[] payload,
      PayloadEncoding payloadEncoding,
      Stage stage,
      String errorMessage,
      EventMetadata metadata) {
    return new DeadLetter(
        payload, payloadEncoding, stage, errorMessage, metadata, Instant.now(), "", "");
  }

  /**
   * This dead letter with the output table and struct it was meant for; the pipeline stamps dead
   * letters where it knows them, so the steps that make them need not. The only copy: every other
   * field is fixed when the dead letter is made.
   */
  public DeadLetter withEvent(String table, String struct) {
    return new DeadLetter(
        payload, payloadEncoding, stage, errorMessage, metadata, failedAt, table, struct);
  }

  /** This dead letter with the output table it was meant for (its struct unchanged). */
  public DeadLetter withEventTable(String table) {
    return withEvent(table, eventStruct);
  }

  /** The message id, or null (see {@link #metadata}). */
  public @Nullable String messageId() {
    return metadata.messageId();
  }

  /** The Pub/Sub publish time or Kafka record timestamp, or null when unknown. */
  public @Nullable Instant publishTime() {
    return metadata.publishTime();
  }

  /** The Pub/Sub attributes or Kafka headers, never null. */
  public Map<String, String> attributes() {
    return metadata.attributes();
  }

  /** The Kafka record it came in (topic, partition, offset, key), or null for Pub/Sub. */
  public @Nullable KafkaOrigin kafka() {
    return metadata.kafka();
  }

  /**
   * Describes {@code error} for the error_message column: the class and message of the exception
   * and of each cause, because the outermost message alone ("decode failed") rarely says why.
   */
  public static String describe(Throwable error) {
    StringBuilder text = new StringBuilder();
    Throwable current = error;
    int depth = 0;
    while (current != null && depth < 8) {
      if (depth > 0) {
        text.append("; caused by ");
      }
      text.append(current.getClass().getName());
      if (current.getMessage() != null) {
        text.append(": ").append(current.getMessage());
      }
      current = current.getCause() == current ? null : current.getCause();
      depth++;
    }
    return truncate(text.toString());
  }

  static String truncate(String message) {
    return message.length() <= MAX_ERROR_CHARS
        ? message
        : message.substring(0, MAX_ERROR_CHARS - 3) + "...";
  }

  // A record compares arrays by identity; dead letters are values (PAssert compares them).
  @Override
  public boolean equals(@Nullable Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof DeadLetter that)) {
      return false;
    }
    return Arrays.equals(payload, that.payload)
        && payloadEncoding == that.payloadEncoding
        && stage == that.stage
        && errorMessage.equals(that.errorMessage)
        && metadata.equals(that.metadata)
        && failedAt.equals(that.failedAt)
        && eventTable.equals(that.eventTable)
        && eventStruct.equals(that.eventStruct);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        Arrays.hashCode(payload),
        payloadEncoding,
        stage,
        errorMessage,
        metadata,
        failedAt,
        eventTable,
        eventStruct);
  }

  @Override
  public String toString() {
    return "DeadLetter{stage="
        + stage
        + ", payloadEncoding="
        + payloadEncoding
        + ", payloadBytes="
        + payload.length
        + ", messageId="
        + messageId()
        + ", publishTime="
        + publishTime()
        + ", attributes="
        + new TreeMap<>(attributes())
        + ", failedAt="
        + failedAt
        + ", eventTable="
        + eventTable
        + ", eventStruct="
        + eventStruct
        + (kafka() == null ? "" : ", kafka=" + kafka().position())
        + ", error="
        + errorMessage
        + "}";
  }
}
