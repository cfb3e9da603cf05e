package io.thriftbq.ingest.format;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The fail-safe row of {@code --keepPayloadForWriteFailures}: what BigQueryIO's {@code
 * withFormatRecordOnFailureFunction} makes of each element, and the way back from it to the payload
 * and metadata once BigQuery rejected the element's row.
 *
 * <p>BigQueryIO builds it for <em>every</em> element, not only the failing ones, and the Storage
 * API paths JSON-encode it with {@code TableRowJsonCoder} (and decode it again on the write side),
 * so its shape is fixed and small, and every value is a string or a map of strings that survives
 * the JSON round trip unchanged:
 *
 * <pre>
 * thriftbq.payload          the Thrift bytes, base64
 * thriftbq.message_id       Pub/Sub message id (absent when unknown)
 * thriftbq.publish_time_ms  publish time, epoch milliseconds as a string (absent when unknown)
 * thriftbq.attributes       {key: value, ...}
 * thriftbq.kafka_topic      Kafka topic, partition, offset (absent for Pub/Sub messages)
 * thriftbq.kafka_partition
 * thriftbq.kafka_offset
 * thriftbq.kafka_key        Kafka key, base64 (absent when the record has none)
 * thriftbq.struct           the element's struct, in a write to several tables (else absent)
 * </pre>
 *
 * The keys contain a dot, which no BigQuery column name can, so a rejected event row (which Beam
 * hands back instead when it has no fail-safe row for an element) is never mistaken for one.
 */
public final class FailsafeRow {
  public static final String PAYLOAD = "thriftbq.payload";
  static final String MESSAGE_ID = "thriftbq.message_id";
  static final String PUBLISH_TIME_MS = "thriftbq.publish_time_ms";
  static final String ATTRIBUTES = "thriftbq.attributes";
  static final String KAFKA_TOPIC = "thriftbq.kafka_topic";
  static final String KAFKA_PARTITION = "thriftbq.kafka_partition";
  static final String KAFKA_OFFSET = "thriftbq.kafka_offset";
  static final String KAFKA_KEY = "thriftbq.kafka_key";
  static final String STRUCT = "thriftbq.struct";

  private FailsafeRow() {}

  /** BigQueryIO's {@code withFormatRecordOnFailureFunction} for elements of any row type. */
  public static <T> SerializableFunction<RowWithPayload<T>, TableRow> function() {
    return new ToFailsafeRow<>();
  }

  /**
   * {@link #function()} for a write to several tables: the fail-safe row also names the element's
   * struct, because a Storage API rejection does not say which table refused the row.
   *
   * @param structs the struct of each table, by the index the elements carry
   */
  public static <T> SerializableFunction<ToTable<RowWithPayload<T>>, TableRow> function(
      List<String> structs) {
    return new ToFailsafeRowNamingStruct<>(List.copyOf(structs));
  }

  /** The struct a fail-safe row names (see {@link #function(List)}); null if it names none. */
  public static @Nullable String struct(@Nullable TableRow row) {
    return row != null && row.get(STRUCT) instanceof String struct ? struct : null;
  }

  static TableRow of(RowWithPayload<?> element) {
    return of(element.payload(), element.metadata());
  }

  static TableRow of(byte[] payload, EventMetadata metadata) {
    TableRow row = new TableRow();
    row.set(PAYLOAD, Base64.getEncoder().encodeToString(payload));
    if (metadata.messageId() != null) {
      row.set(MESSAGE_ID, metadata.messageId());
    }
    if (metadata.hasPublishTime()) {
      row.set(PUBLISH_TIME_MS, Long.toString(metadata.publishTimeMillis()));
    }
    TableRow attributes = new TableRow();
    attributes.putAll(metadata.attributes());
    row.set(ATTRIBUTES, attributes);
    KafkaOrigin kafka = metadata.kafka();
    if (kafka != null) {
      row.set(KAFKA_TOPIC, kafka.topic());
      row.set(KAFKA_PARTITION, Integer.toString(kafka.partition()));
      row.set(KAFKA_OFFSET, Long.toString(kafka.offset()));
      if (kafka.key() != null) {
        row.set(KAFKA_KEY, Base64.getEncoder().encodeToString(kafka.key()));
      }
    }
    return row;
  }

  /**
   * The WRITE dead letter of the event {@code row} carries, if it is a fail-safe row; null if it is
   * not (an event row, or a fail-safe row damaged beyond reading), which the caller then
   * dead-letters as the row itself.
   */
  public static @Nullable DeadLetter deadLetter(@Nullable TableRow row, String error) {
    if (row == null || !(row.get(PAYLOAD) instanceof String base64)) {
      return null;
    }
    byte[] payload;
    long publishTime = EventMetadata.UNKNOWN_TIME;
    KafkaOrigin kafka = null;
    try {
      payload = Base64.getDecoder().decode(base64);
      Object time = row.get(PUBLISH_TIME_MS);
      if (time != null) {
        publishTime = Long.parseLong(time.toString());
      }
      if (row.get(KAFKA_TOPIC) != null) {
        Object key = row.get(KAFKA_KEY);
        kafka =
            new KafkaOrigin(
                row.get(KAFKA_TOPIC).toString(),
                Integer.parseInt(String.valueOf(row.get(KAFKA_PARTITION))),
                Long.parseLong(String.valueOf(row.get(KAFKA_OFFSET))),
                key == null ? null : Base64.getDecoder().decode(key.toString()));
      }
    } catch (IllegalArgumentException e) { // Covers NumberFormatException too.
      return null;
    }
    Object messageId = row.get(MESSAGE_ID);
    Map<String, String> attributes = new HashMap<>();
    if (row.get(ATTRIBUTES) instanceof Map<?, ?> map) {
      map.forEach(
          (key, value) -> {
            if (key != null) {
              attributes.put(key.toString(), value == null ? "" : value.toString());
            }
          });
    }
    return DeadLetter.ofEvent(
        Stage.WRITE,
        payload,
        new EventMetadata(
            messageId == null ? null : messageId.toString(), publishTime, attributes, kafka),
        error);
  }

  private static final class ToFailsafeRowNamingStruct<T>
      implements SerializableFunction<ToTable<RowWithPayload<T>>, TableRow> {
    private static final long serialVersionUID = 1L;

    private final List<String> structs;

    ToFailsafeRowNamingStruct(List<String> structs) {
      this.structs = structs;
    }

    @Override
    public TableRow apply(ToTable<RowWithPayload<T>> element) {
      TableRow row = of(element.element());
      row.set(STRUCT, structs.get(element.table()));
      return row;
    }
  }

  private static final class ToFailsafeRow<T>
      implements SerializableFunction<RowWithPayload<T>, TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public TableRow apply(RowWithPayload<T> element) {
      return of(element);
    }
  }
}
