package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.ByteString;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.CivilTimeEncoder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The metadata of a rejected event row, read back from its metadata columns: the one place that
 * reads metadata out of a written row. It exists because without {@code
 * --keepPayloadForWriteFailures} BigQueryIO hands back only the rejected row (and, with it, a row
 * it could not pair with its fail-safe row), so the row's metadata columns, when enabled, are all
 * that is left of the message. A kept payload never comes here: its fail-safe row carries the
 * metadata record itself ({@link io.thriftbq.ingest.format.FailsafeRow}).
 *
 * <p>The columns come back in whatever representation the write method's path renders them, so each
 * reader here accepts every one seen.
 */
final class RejectedRowMetadata {
  private RejectedRowMetadata() {}

  /** The metadata {@code row}'s enabled metadata columns hold; empty where a column is off. */
  static EventMetadata read(TableRow row, MetadataColumns metadataColumns) {
    MetadataColumn time =
        metadataColumns.has(MetadataColumn.KAFKA_TIMESTAMP)
            ? MetadataColumn.KAFKA_TIMESTAMP
            : MetadataColumn.PUBLISH_TIME;
    MetadataColumn entries =
        metadataColumns.has(MetadataColumn.KAFKA_HEADERS)
            ? MetadataColumn.KAFKA_HEADERS
            : MetadataColumn.ATTRIBUTES;
    return EventMetadata.of(
        metadataColumns.messageId() ? messageId(row) : null,
        metadataColumns.has(time) ? timestamp(row, time) : null,
        metadataColumns.has(entries) ? entries(row, entries) : Map.of(),
        kafkaOrigin(row, metadataColumns));
  }

  private static @Nullable String messageId(TableRow row) {
    Object value = row.get(MetadataColumns.MESSAGE_ID);
    return value == null ? null : value.toString();
  }

  /**
   * The Kafka record a rejected row came from, when its metadata columns name it (topic, partition
   * and offset all present); null otherwise.
   */
  private static @Nullable KafkaOrigin kafkaOrigin(TableRow row, MetadataColumns metadataColumns) {
    if (!metadataColumns.has(MetadataColumn.KAFKA_TOPIC)
        || !metadataColumns.has(MetadataColumn.KAFKA_PARTITION)
        || !metadataColumns.has(MetadataColumn.KAFKA_OFFSET)) {
      return null;
    }
    Object topic = row.get(MetadataColumn.KAFKA_TOPIC.columnName());
    Object partition = row.get(MetadataColumn.KAFKA_PARTITION.columnName());
    Object offset = row.get(MetadataColumn.KAFKA_OFFSET.columnName());
    if (topic == null || partition == null || offset == null) {
      return null;
    }
    try {
      return new KafkaOrigin(
          topic.toString(),
          Integer.parseInt(partition.toString()),
          Long.parseLong(offset.toString()),
          metadataColumns.has(MetadataColumn.KAFKA_KEY)
              ? bytes(row.get(MetadataColumn.KAFKA_KEY.columnName()))
              : null);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Reads back a BYTES value in any representation a TableRow may carry it in. */
  private static byte @Nullable [] bytes(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (value instanceof ByteString byteString) {
      return byteString.toByteArray();
    }
    return Base64.getDecoder().decode(value.toString());
  }

  /** Reads back a TIMESTAMP in any representation a TableRow may carry it in. */
  private static @Nullable Instant timestamp(TableRow row, MetadataColumn column) {
    Object value = row.get(column.columnName());
    if (value == null) {
      return null;
    }
    Instant packed = packedDatetime(value);
    if (packed != null) {
      return packed;
    }
    if (value instanceof org.joda.time.ReadableInstant instant) {
      return new Instant(instant.getMillis());
    }
    if (value instanceof java.time.Instant instant) {
      return new Instant(instant.toEpochMilli());
    }
    if (value instanceof Long || value instanceof Integer) {
      // Beam's TableRow-to-proto conversion reads integers as epoch microseconds.
      return new Instant(((Number) value).longValue() / 1000);
    }
    if (value instanceof Number number) {
      // BigQuery's JSON reads a floating-point TIMESTAMP as epoch seconds.
      return new Instant(Math.round(number.doubleValue() * 1000));
    }
    try {
      return new Instant(Timestamps.parse(value.toString()).toEpochMilli());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * Beam writes a Beam-schema DATETIME (our TIMESTAMP columns in the Row format) as epoch micros,
   * but renders a failed row's value as if it were a packed civil DATETIME, which reads as a date
   * in the first century. Re-packing that text gives back the micros. A real publish time is never
   * before the year 1000, so the check cannot misread a correctly rendered value.
   */
  private static @Nullable Instant packedDatetime(Object value) {
    if (!(value instanceof String text) || text.isEmpty() || !Character.isDigit(text.charAt(0))) {
      return null;
    }
    LocalDateTime civil;
    try {
      civil = LocalDateTime.parse(text.trim().replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      return null;
    }
    if (civil.getYear() >= 1000) {
      return null;
    }
    long micros = CivilTimeEncoder.encodePacked64DatetimeMicros(civil);
    return new Instant(micros / 1000);
  }

  /** Reads back a key/value column (attributes or headers) as a map. */
  private static Map<String, String> entries(TableRow row, MetadataColumn column) {
    Object value = row.get(column.columnName());
    if (!(value instanceof List<?> entries)) {
      return Map.of();
    }
    Map<String, String> attributes = new HashMap<>();
    for (Object entry : entries) {
      if (entry instanceof Map<?, ?> map) {
        Object key = map.get(MetadataColumns.ATTRIBUTE_KEY);
        Object attributeValue = map.get(MetadataColumns.ATTRIBUTE_VALUE);
        if (key != null) {
          attributes.put(key.toString(), attributeValue == null ? "" : attributeValue.toString());
        }
      }
    }
    return attributes;
  }
}
