package io.thriftbq.local.stack;

import com.google.api.services.bigquery.model.TableRow;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.apache.beam.sdk.values.FailsafeValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads the {@code event_time_ms} attribute back out of rows on their way to the emulator, for
 * {@link HandOffLatencyProbe}: from the {@code _attributes} column (Pub/Sub) or the {@code
 * _kafka_headers} column (Kafka). Rows with neither (the dead-letter table, or a run without {@code
 * --includeAttributes} or {@code --includeKafkaHeaders}) are skipped.
 */
final class EventTimeExtractor {
  private static final Logger LOG = Logger.getLogger(EventTimeExtractor.class.getName());
  static final List<String> ATTRIBUTE_COLUMNS = List.of("_attributes", "_kafka_headers");
  static final String EVENT_TIME_KEY = "event_time_ms";

  private final Descriptors.@Nullable Descriptor descriptor;
  private final Descriptors.@Nullable FieldDescriptor attributes;
  private final Descriptors.@Nullable FieldDescriptor key;
  private final Descriptors.@Nullable FieldDescriptor value;
  private final @Nullable String table;

  /** For Storage Write appends, whose rows are protos of {@code descriptorProto}. */
  EventTimeExtractor(DescriptorProtos.DescriptorProto descriptorProto) {
    this(descriptorProto, null);
  }

  /** For appends to {@code table} (null when unknown). */
  EventTimeExtractor(DescriptorProtos.DescriptorProto descriptorProto, @Nullable String table) {
    this.table = table;
    Descriptors.Descriptor built = null;
    Descriptors.FieldDescriptor attributesField = null;
    Descriptors.FieldDescriptor keyField = null;
    Descriptors.FieldDescriptor valueField = null;
    try {
      Descriptors.FileDescriptor file =
          Descriptors.FileDescriptor.buildFrom(
              DescriptorProtos.FileDescriptorProto.newBuilder()
                  .addMessageType(descriptorProto)
                  .build(),
              new Descriptors.FileDescriptor[0]);
      built = file.findMessageTypeByName(descriptorProto.getName());
      for (String column : ATTRIBUTE_COLUMNS) {
        if (attributesField == null && built != null) {
          attributesField = built.findFieldByName(column);
        }
      }
      if (attributesField != null
          && attributesField.getJavaType() == Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        keyField = attributesField.getMessageType().findFieldByName("key");
        valueField = attributesField.getMessageType().findFieldByName("value");
      }
    } catch (Descriptors.DescriptorValidationException | RuntimeException e) {
      LOG.warning("Latency probe disabled for a stream: cannot rebuild its descriptor: " + e);
    }
    boolean usable = attributesField != null && keyField != null && valueField != null;
    this.descriptor = usable ? built : null;
    this.attributes = usable ? attributesField : null;
    this.key = keyField;
    this.value = valueField;
  }

  boolean enabled() {
    return descriptor != null;
  }

  void recordAppend(ProtoRows rows) {
    if (descriptor == null) {
      return;
    }
    long now = System.currentTimeMillis();
    for (ByteString row : rows.getSerializedRowsList()) {
      try {
        record(now, eventTime(DynamicMessage.parseFrom(descriptor, row)), table);
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        HandOffLatencyProbe.recordMissingEventTime();
      }
    }
  }

  private @Nullable String eventTime(DynamicMessage message) {
    int count = message.getRepeatedFieldCount(attributes);
    for (int i = 0; i < count; i++) {
      DynamicMessage entry = (DynamicMessage) message.getRepeatedField(attributes, i);
      if (EVENT_TIME_KEY.equals(entry.getField(key))) {
        Object v = entry.getField(value);
        return v == null ? null : v.toString();
      }
    }
    return null;
  }

  /**
   * For streaming inserts: {@code _attributes} (or {@code _kafka_headers}) is a list of {@code
   * {key, value}} maps.
   */
  static void recordTableRows(List<TableRow> rows) {
    recordTableRows(rows, null);
  }

  /** Rows inserted into {@code table} (null when unknown). */
  static void recordTableRows(List<TableRow> rows, @Nullable String table) {
    long now = System.currentTimeMillis();
    for (TableRow row : rows) {
      Object attributes = row.get(ATTRIBUTE_COLUMNS.get(0));
      if (attributes == null) {
        attributes = row.get(ATTRIBUTE_COLUMNS.get(1));
      }
      if (!(attributes instanceof List)) {
        continue;
      }
      String eventTime = null;
      for (Object entry : (List<?>) attributes) {
        if (entry instanceof Map && EVENT_TIME_KEY.equals(((Map<?, ?>) entry).get("key"))) {
          Object v = ((Map<?, ?>) entry).get("value");
          eventTime = v == null ? null : v.toString();
        }
      }
      record(now, eventTime, table);
    }
  }

  private static void record(long now, @Nullable String eventTime, @Nullable String table) {
    if (eventTime == null) {
      HandOffLatencyProbe.recordMissingEventTime();
      return;
    }
    try {
      long created = Long.parseLong(eventTime.trim());
      HandOffLatencyProbe.record(now - created, created, table);
    } catch (NumberFormatException e) {
      HandOffLatencyProbe.recordMissingEventTime();
    }
  }

  /** An {@code insertAll(TableReference, List<FailsafeValueInSingleWindow<TableRow, ?>>, ...)}. */
  static void recordInsertAll(Object reference, Object rowList) {
    if (!(rowList instanceof List)) {
      return;
    }
    List<TableRow> rows = new ArrayList<>();
    for (Object element : (List<?>) rowList) {
      if (element instanceof FailsafeValueInSingleWindow
          && ((FailsafeValueInSingleWindow<?, ?>) element).getValue() instanceof TableRow) {
        rows.add((TableRow) ((FailsafeValueInSingleWindow<?, ?>) element).getValue());
      }
    }
    recordTableRows(
        rows,
        reference instanceof com.google.api.services.bigquery.model.TableReference ref
            ? ref.getTableId()
            : null);
  }
}
