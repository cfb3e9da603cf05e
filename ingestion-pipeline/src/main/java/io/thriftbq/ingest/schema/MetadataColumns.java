package io.thriftbq.ingest.schema;

import io.thriftbq.ingest.options.MetadataOptions;
import java.io.Serializable;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which {@link MetadataColumn}s are appended, after the event's own columns, to every row, in the
 * enum's order.
 */
public record MetadataColumns(Set<MetadataColumn> columns) implements Serializable {

  // The column names as constants, for code that reads rows back.
  public static final String MESSAGE_ID = MetadataColumn.MESSAGE_ID.columnName();
  public static final String PUBLISH_TIME = MetadataColumn.PUBLISH_TIME.columnName();
  public static final String ATTRIBUTES = MetadataColumn.ATTRIBUTES.columnName();
  public static final String ATTRIBUTE_KEY = MetadataColumn.ENTRY_KEY;
  public static final String ATTRIBUTE_VALUE = MetadataColumn.ENTRY_VALUE;
  public static final String UNKNOWN_FIELDS = MetadataColumn.UNKNOWN_FIELDS.columnName();

  public static final MetadataColumns NONE = new MetadataColumns(Set.of());

  /** Every Pub/Sub metadata column (not the unknown-fields column). */
  public static final MetadataColumns ALL =
      of(MetadataColumn.MESSAGE_ID, MetadataColumn.PUBLISH_TIME, MetadataColumn.ATTRIBUTES);

  /** Every Kafka metadata column (not the unknown-fields column). */
  public static final MetadataColumns ALL_KAFKA =
      new MetadataColumns(
          EnumSet.of(
              MetadataColumn.KAFKA_TOPIC,
              MetadataColumn.KAFKA_PARTITION,
              MetadataColumn.KAFKA_OFFSET,
              MetadataColumn.KAFKA_KEY,
              MetadataColumn.KAFKA_TIMESTAMP,
              MetadataColumn.KAFKA_HEADERS));

  public MetadataColumns {
    // An EnumSet iterates in declaration order, which is the column order.
    Set<MetadataColumn> copy = EnumSet.noneOf(MetadataColumn.class);
    copy.addAll(columns);
    columns = Collections.unmodifiableSet(copy);
  }

  /** The Pub/Sub metadata columns only. */
  public MetadataColumns(boolean messageId, boolean publishTime, boolean attributes) {
    this(messageId, publishTime, attributes, false);
  }

  /** The Pub/Sub metadata columns and the unknown-fields column. */
  public MetadataColumns(
      boolean messageId, boolean publishTime, boolean attributes, boolean unknownFields) {
    this(
        select(
            messageId ? MetadataColumn.MESSAGE_ID : null,
            publishTime ? MetadataColumn.PUBLISH_TIME : null,
            attributes ? MetadataColumn.ATTRIBUTES : null,
            unknownFields ? MetadataColumn.UNKNOWN_FIELDS : null));
  }

  /** The metadata columns {@code options} switch on (not the unknown-fields column). */
  public static MetadataColumns of(MetadataOptions options) {
    return of(
        on(options.getIncludePubsubMessageId(), MetadataColumn.MESSAGE_ID),
        on(options.getIncludePublishTime(), MetadataColumn.PUBLISH_TIME),
        on(options.getIncludeAttributes(), MetadataColumn.ATTRIBUTES),
        on(options.getIncludeKafkaTopic(), MetadataColumn.KAFKA_TOPIC),
        on(options.getIncludeKafkaPartition(), MetadataColumn.KAFKA_PARTITION),
        on(options.getIncludeKafkaOffset(), MetadataColumn.KAFKA_OFFSET),
        on(options.getIncludeKafkaKey(), MetadataColumn.KAFKA_KEY),
        on(options.getIncludeKafkaTimestamp(), MetadataColumn.KAFKA_TIMESTAMP),
        on(options.getIncludeKafkaHeaders(), MetadataColumn.KAFKA_HEADERS));
  }

  private static MetadataColumn on(Boolean flag, MetadataColumn column) {
    return Boolean.TRUE.equals(flag) ? column : null;
  }

  public static MetadataColumns of(MetadataColumn... columns) {
    return new MetadataColumns(select(columns));
  }

  /** The same columns, with or without {@link MetadataColumn#UNKNOWN_FIELDS}. */
  public MetadataColumns withUnknownFields(boolean keep) {
    return with(MetadataColumn.UNKNOWN_FIELDS, keep);
  }

  /** The same columns, with or without {@code column}. */
  public MetadataColumns with(MetadataColumn column, boolean include) {
    Set<MetadataColumn> copy = EnumSet.noneOf(MetadataColumn.class);
    copy.addAll(columns);
    if (include) {
      copy.add(column);
    } else {
      copy.remove(column);
    }
    return new MetadataColumns(copy);
  }

  /** These columns and {@code other}'s. */
  public MetadataColumns and(MetadataColumns other) {
    Set<MetadataColumn> copy = EnumSet.noneOf(MetadataColumn.class);
    copy.addAll(columns);
    copy.addAll(other.columns);
    return new MetadataColumns(copy);
  }

  public boolean has(MetadataColumn column) {
    return columns.contains(column);
  }

  /** The columns in row order. */
  public List<MetadataColumn> inOrder() {
    return List.copyOf(columns);
  }

  public boolean messageId() {
    return has(MetadataColumn.MESSAGE_ID);
  }

  public boolean publishTime() {
    return has(MetadataColumn.PUBLISH_TIME);
  }

  public boolean attributes() {
    return has(MetadataColumn.ATTRIBUTES);
  }

  public boolean unknownFields() {
    return has(MetadataColumn.UNKNOWN_FIELDS);
  }

  public boolean any() {
    return !columns.isEmpty();
  }

  public int count() {
    return columns.size();
  }

  private static Set<MetadataColumn> select(MetadataColumn... columns) {
    Set<MetadataColumn> set = EnumSet.noneOf(MetadataColumn.class);
    for (MetadataColumn column : columns) {
      if (column != null) {
        set.add(column);
      }
    }
    return set;
  }
}
