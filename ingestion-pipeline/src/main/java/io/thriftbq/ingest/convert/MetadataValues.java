package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The values of a row's metadata columns in one format, and their share of the row-size estimate.
 * The columns and their shapes are resolved once, when the converter is built.
 */
final class MetadataValues<S> {
  private final RowAssembler<?, S> assembler;
  private final MetadataColumn[] columns;
  private final int firstColumn;

  /** Per column: the entry shape of a KEY_VALUES column, else null. */
  private final Object[] entryShapes;

  MetadataValues(RowAssembler<?, S> assembler, MetadataColumns metadataColumns, int firstColumn) {
    this.assembler = assembler;
    this.columns = metadataColumns.inOrder().toArray(new MetadataColumn[0]);
    this.firstColumn = firstColumn;
    this.entryShapes = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      if (columns[i].kind() == MetadataColumn.Kind.KEY_VALUES) {
        entryShapes[i] = assembler.childShape(assembler.rootShape(), firstColumn + i);
      }
    }
  }

  /** The metadata columns' share of the row-size estimate. */
  long estimateBytes(EventMetadata metadata, byte @Nullable [] unknownFieldsPayload) {
    long bytes = 0;
    KafkaOrigin kafka = metadata.kafka();
    for (MetadataColumn column : columns) {
      bytes +=
          switch (column) {
            case MESSAGE_ID ->
                metadata.messageId() == null ? 0 : metadata.messageId().length() + 24L;
            case PUBLISH_TIME, KAFKA_TIMESTAMP, KAFKA_PARTITION, KAFKA_OFFSET -> 48;
            case ATTRIBUTES, KAFKA_HEADERS -> entriesBytes(metadata.attributes());
            case KAFKA_TOPIC -> kafka == null ? 0 : kafka.topic().length() + 24L;
            case KAFKA_KEY -> kafka == null || kafka.key() == null ? 0 : base64(kafka.key().length);
            case UNKNOWN_FIELDS ->
                unknownFieldsPayload == null ? 0 : base64(unknownFieldsPayload.length);
          };
    }
    return bytes;
  }

  /** Sets the metadata columns of {@code values} (the event's columns come first). */
  Object[] fill(Object[] values, EventMetadata metadata, byte @Nullable [] unknownFieldsPayload) {
    KafkaOrigin kafka = metadata.kafka();
    for (int i = 0; i < columns.length; i++) {
      values[firstColumn + i] =
          switch (columns[i]) {
            case MESSAGE_ID -> metadata.messageId();
            case PUBLISH_TIME, KAFKA_TIMESTAMP ->
                metadata.hasPublishTime()
                    ? assembler.timestampMillis(metadata.publishTimeMillis())
                    : null;
            case ATTRIBUTES, KAFKA_HEADERS -> entries(i, metadata.attributes());
            case KAFKA_TOPIC -> kafka == null ? null : kafka.topic();
            case KAFKA_PARTITION -> kafka == null ? null : (Object) (long) kafka.partition();
            case KAFKA_OFFSET -> kafka == null ? null : (Object) kafka.offset();
            case KAFKA_KEY ->
                kafka == null || kafka.key() == null ? null : assembler.bytes(kafka.key());
            case UNKNOWN_FIELDS ->
                unknownFieldsPayload == null ? null : assembler.bytes(unknownFieldsPayload);
          };
    }
    return values;
  }

  @SuppressWarnings("unchecked")
  private Object entries(int column, Map<String, String> entries) {
    if (entries.isEmpty()) {
      return assembler.emptyRepeated();
    }
    // Sorted so that the same message always gives the same row.
    String[] keys = entries.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    List<Object> records = new ArrayList<>(keys.length);
    S shape = (S) entryShapes[column];
    for (String key : keys) {
      records.add(assembler.record(shape, new Object[] {key, entries.get(key)}));
    }
    return records;
  }

  private static long entriesBytes(Map<String, String> entries) {
    long bytes = 0;
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      bytes += entry.getKey().length() + entry.getValue().length() + 32L;
    }
    return bytes;
  }

  private static long base64(int length) {
    return length / 3L * 4 + 32;
  }
}
