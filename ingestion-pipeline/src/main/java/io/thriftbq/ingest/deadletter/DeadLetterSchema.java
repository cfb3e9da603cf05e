package io.thriftbq.ingest.deadletter;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.api.services.bigquery.model.TimePartitioning;
import io.thriftbq.ingest.origin.KafkaOrigin;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.joda.time.Instant;

/**
 * The dead-letter table: its schema (also exported for Terraform by the schema exporter) and the
 * mapping of a {@link DeadLetter} to a row of it. The schema does not depend on the event class, so
 * one dead-letter table can serve several pipelines and every struct of a many-types job; {@code
 * event_table} and {@code struct} tell their rows apart.
 */
public final class DeadLetterSchema {
  public static final String PAYLOAD = "payload";
  public static final String PAYLOAD_FORMAT = "payload_format";
  public static final String STAGE = "stage";
  public static final String ERROR_MESSAGE = "error_message";
  public static final String MESSAGE_ID = "message_id";
  public static final String PUBLISH_TIME = "publish_time";
  public static final String ATTRIBUTES = "attributes";
  public static final String ATTRIBUTE_KEY = "key";
  public static final String ATTRIBUTE_VALUE = "value";
  public static final String FAILED_AT = "failed_at";
  public static final String EVENT_TABLE = "event_table";
  public static final String STRUCT = "struct";
  public static final String KAFKA_TOPIC = "kafka_topic";
  public static final String KAFKA_PARTITION = "kafka_partition";
  public static final String KAFKA_OFFSET = "kafka_offset";
  public static final String KAFKA_KEY = "kafka_key";

  private DeadLetterSchema() {}

  /** A new copy of the dead-letter table schema (callers may modify it). */
  public static TableSchema tableSchema() {
    List<TableFieldSchema> fields = new ArrayList<>();
    fields.add(column(PAYLOAD, "BYTES", "NULLABLE"));
    fields.add(column(PAYLOAD_FORMAT, "STRING", "NULLABLE"));
    fields.add(column(STAGE, "STRING", "NULLABLE"));
    fields.add(column(ERROR_MESSAGE, "STRING", "NULLABLE"));
    fields.add(column(MESSAGE_ID, "STRING", "NULLABLE"));
    fields.add(column(PUBLISH_TIME, "TIMESTAMP", "NULLABLE"));
    fields.add(
        column(ATTRIBUTES, "RECORD", "REPEATED")
            .setFields(
                List.of(
                    column(ATTRIBUTE_KEY, "STRING", "NULLABLE"),
                    column(ATTRIBUTE_VALUE, "STRING", "NULLABLE"))));
    fields.add(column(FAILED_AT, "TIMESTAMP", "NULLABLE"));
    fields.add(column(EVENT_TABLE, "STRING", "NULLABLE"));
    // Added with many event types per job; launch adds it to an existing dead-letter table.
    fields.add(column(STRUCT, "STRING", "NULLABLE"));
    // Added with the Kafka source (NULL for Pub/Sub messages); launch adds them to an existing
    // dead-letter table.
    fields.add(column(KAFKA_TOPIC, "STRING", "NULLABLE"));
    fields.add(column(KAFKA_PARTITION, "INT64", "NULLABLE"));
    fields.add(column(KAFKA_OFFSET, "INT64", "NULLABLE"));
    fields.add(column(KAFKA_KEY, "BYTES", "NULLABLE"));
    return new TableSchema().setFields(fields);
  }

  /**
   * Daily partitions on {@code failed_at}: triage queries look at recent failures, and an
   * expiration can be set per partition without touching the pipeline.
   */
  public static TimePartitioning timePartitioning() {
    return new TimePartitioning().setType("DAY").setField(FAILED_AT);
  }

  /**
   * The row for {@code deadLetter}, in the representation both streaming inserts and the Storage
   * Write API accept: BYTES as base64, TIMESTAMP as an ISO-8601 string.
   */
  public static TableRow toTableRow(DeadLetter deadLetter) {
    TableRow row = new TableRow();
    row.set(PAYLOAD, Base64.getEncoder().encodeToString(deadLetter.payload()));
    row.set(PAYLOAD_FORMAT, deadLetter.payloadEncoding().columnValue());
    row.set(STAGE, deadLetter.stage().columnValue());
    row.set(ERROR_MESSAGE, deadLetter.errorMessage());
    if (deadLetter.messageId() != null) {
      row.set(MESSAGE_ID, deadLetter.messageId());
    }
    if (deadLetter.publishTime() != null) {
      row.set(PUBLISH_TIME, timestamp(deadLetter.publishTime()));
    }
    List<TableRow> attributes = new ArrayList<>(deadLetter.attributes().size());
    // Sorted so that the same dead letter always gives the same row.
    for (Map.Entry<String, String> attribute : new TreeMap<>(deadLetter.attributes()).entrySet()) {
      attributes.add(
          new TableRow()
              .set(ATTRIBUTE_KEY, attribute.getKey())
              .set(ATTRIBUTE_VALUE, attribute.getValue()));
    }
    row.set(ATTRIBUTES, attributes);
    row.set(FAILED_AT, timestamp(deadLetter.failedAt()));
    row.set(EVENT_TABLE, deadLetter.eventTable());
    if (!deadLetter.eventStruct().isEmpty()) {
      row.set(STRUCT, deadLetter.eventStruct());
    }
    KafkaOrigin kafka = deadLetter.kafka();
    if (kafka != null) {
      row.set(KAFKA_TOPIC, kafka.topic());
      row.set(KAFKA_PARTITION, (long) kafka.partition());
      row.set(KAFKA_OFFSET, kafka.offset());
      if (kafka.key() != null) {
        row.set(KAFKA_KEY, Base64.getEncoder().encodeToString(kafka.key()));
      }
    }
    return row;
  }

  private static String timestamp(Instant instant) {
    return java.time.Instant.ofEpochMilli(instant.getMillis()).toString();
  }

  private static TableFieldSchema column(String name, String type, String mode) {
    return new TableFieldSchema().setName(name).setType(type).setMode(mode);
  }
}
