package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import java.util.List;

/**
 * One optional column appended, after the event's own columns, to every row: what the source said
 * about the message (Pub/Sub or Kafka), or the raw event when it held fields the IDL does not know.
 * The declaration order is the column order. The leading underscore keeps them apart from IDL field
 * names.
 */
public enum MetadataColumn {
  /** Pub/Sub message id ({@code --includePubsubMessageId}). */
  MESSAGE_ID("_message_id", Kind.STRING, "includePubsubMessageId"),
  /** Pub/Sub publish time ({@code --includePublishTime}). */
  PUBLISH_TIME("_publish_time", Kind.TIMESTAMP, "includePublishTime"),
  /** Pub/Sub attributes ({@code --includeAttributes}). */
  ATTRIBUTES("_attributes", Kind.KEY_VALUES, "includeAttributes"),
  /** Kafka record's topic ({@code --includeKafkaTopic}). */
  KAFKA_TOPIC("_kafka_topic", Kind.STRING, "includeKafkaTopic"),
  /** Kafka record's partition ({@code --includeKafkaPartition}). */
  KAFKA_PARTITION("_kafka_partition", Kind.INT64, "includeKafkaPartition"),
  /** Kafka record's offset in its partition ({@code --includeKafkaOffset}). */
  KAFKA_OFFSET("_kafka_offset", Kind.INT64, "includeKafkaOffset"),
  /** Kafka record's key, as bytes ({@code --includeKafkaKey}). */
  KAFKA_KEY("_kafka_key", Kind.BYTES, "includeKafkaKey"),
  /** Kafka record's timestamp ({@code --includeKafkaTimestamp}). */
  KAFKA_TIMESTAMP("_kafka_timestamp", Kind.TIMESTAMP, "includeKafkaTimestamp"),
  /** Kafka record's headers, values read as UTF-8 ({@code --includeKafkaHeaders}). */
  KAFKA_HEADERS("_kafka_headers", Kind.KEY_VALUES, "includeKafkaHeaders"),
  /**
   * The event's own bytes, as received, when it held a field (at any depth) that the IDL does not
   * know; NULL otherwise ({@code --keepUnknownFields}). Decode it again once the IDL knows the
   * field.
   */
  UNKNOWN_FIELDS("_unknown_fields", Kind.BYTES, "keepUnknownFields");

  /** The BigQuery shape of a metadata column. */
  public enum Kind {
    STRING,
    INT64,
    BYTES,
    TIMESTAMP,
    /** REPEATED RECORD of {@code key} (STRING, REQUIRED) and {@code value} (STRING). */
    KEY_VALUES
  }

  /** The key field of a {@link Kind#KEY_VALUES} column's entries. */
  public static final String ENTRY_KEY = "key";

  /** The value field of a {@link Kind#KEY_VALUES} column's entries. */
  public static final String ENTRY_VALUE = "value";

  private final String columnName;
  private final Kind kind;
  private final String option;

  MetadataColumn(String columnName, Kind kind, String option) {
    this.columnName = columnName;
    this.kind = kind;
    this.option = option;
  }

  /** The flag that adds the column, as users write it ({@code --includeKafkaTopic}). */
  public String flag() {
    return "--" + option;
  }

  public String columnName() {
    return columnName;
  }

  public Kind kind() {
    return kind;
  }

  /** Whether the column describes a Kafka record (and needs {@code --source=KAFKA}). */
  public boolean isKafka() {
    return name().startsWith("KAFKA_");
  }

  /** Whether the column describes a Pub/Sub message (and needs {@code --source=PUBSUB}). */
  public boolean isPubsub() {
    return this == MESSAGE_ID || this == PUBLISH_TIME || this == ATTRIBUTES;
  }

  /** The column's table schema. */
  public TableFieldSchema tableField() {
    TableFieldSchema field = new TableFieldSchema().setName(columnName);
    return switch (kind) {
      case STRING -> field.setType("STRING").setMode("NULLABLE");
      case INT64 -> field.setType("INT64").setMode("NULLABLE");
      case BYTES -> field.setType("BYTES").setMode("NULLABLE");
      case TIMESTAMP -> field.setType("TIMESTAMP").setMode("NULLABLE");
      case KEY_VALUES ->
          field
              .setType("RECORD")
              .setMode("REPEATED")
              .setFields(
                  List.of(
                      new TableFieldSchema()
                          .setName(ENTRY_KEY)
                          .setType("STRING")
                          .setMode("REQUIRED"),
                      new TableFieldSchema()
                          .setName(ENTRY_VALUE)
                          .setType("STRING")
                          .setMode("NULLABLE")));
    };
  }
}
