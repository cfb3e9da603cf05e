package io.thriftbq.local.latency;

import com.google.api.services.bigquery.model.TableRow;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
public final class EventTimeExtractor {
  private static final Logger LOG = Logger.getLogger(EventTimeExtractor.class.getName());
  static final List<String> ATTRIBUTE_COLUMNS = List.of("_attributes", "_kafka_headers");
  static final String EVENT_TIME_KEY = "event_time_ms";
  private static final byte[] EVENT_TIME_KEY_BYTES =
      EVENT_TIME_KEY.getBytes(StandardCharsets.UTF_8);

  /** Field numbers of the attributes column and of its entries' key and value; 0 = disabled. */
  private final int attributesNumber;

  private final int keyNumber;
  private final int valueNumber;
  private final @Nullable String table;

  /** For Storage Write appends, whose rows are protos of {@code descriptorProto}. */
  EventTimeExtractor(DescriptorProtos.DescriptorProto descriptorProto) {
    this(descriptorProto, null);
  }

  /** For appends to {@code table} (null when unknown). */
  public EventTimeExtractor(
      DescriptorProtos.DescriptorProto descriptorProto, @Nullable String table) {
    this.table = table;
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
      Descriptors.Descriptor built = file.findMessageTypeByName(descriptorProto.getName());
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
    boolean usable = attributesField != null && isString(keyField) && isString(valueField);
    this.attributesNumber = usable ? attributesField.getNumber() : 0;
    this.keyNumber = usable ? keyField.getNumber() : 0;
    this.valueNumber = usable ? valueField.getNumber() : 0;
  }

  private static boolean isString(Descriptors.@Nullable FieldDescriptor field) {
    return field != null
        && !field.isRepeated()
        && field.getJavaType() == Descriptors.FieldDescriptor.JavaType.STRING;
  }

  boolean enabled() {
    return attributesNumber != 0;
  }

  /**
   * Records every row of one append. Only the attributes column is read, straight from the wire
   * format: every other field is skipped without being decoded, so the probe costs a small fraction
   * of what the append itself costs (parsing whole rows into {@code DynamicMessage}s, as this did
   * at first, cost about a sixth of the pipeline's CPU at saturation).
   */
  public void recordAppend(ProtoRows rows) {
    HandOffLatencyProbe.recordRequest(rows.getSerializedRowsCount());
    if (!enabled()) {
      return;
    }
    long now = System.currentTimeMillis();
    int count = rows.getSerializedRowsCount();
    long[] created = new long[count];
    int found = 0;
    for (int i = 0; i < count; i++) {
      long eventTime = eventTimeMillis(rows.getSerializedRows(i));
      if (eventTime != NO_EVENT_TIME) {
        created[found++] = eventTime;
      }
    }
    HandOffLatencyProbe.recordAll(now, created, found, count - found, table);
  }

  /** Marks a row without a usable {@code event_time_ms}. */
  static final long NO_EVENT_TIME = Long.MIN_VALUE;

  /**
   * The {@code event_time_ms} value of the first attributes entry with that key, or {@link
   * #NO_EVENT_TIME} when there is none, it is not a number, or the row is not valid protobuf.
   */
  long eventTimeMillis(ByteString row) {
    try {
      CodedInputStream in = row.newCodedInput();
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          return NO_EVENT_TIME;
        }
        if (WireFormat.getTagFieldNumber(tag) == attributesNumber
            && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          int limit = in.pushLimit(in.readRawVarint32());
          long eventTime = entryEventTime(in);
          in.popLimit(limit);
          if (eventTime != NO_EVENT_TIME) {
            return eventTime;
          }
        } else if (!in.skipField(tag)) {
          return NO_EVENT_TIME; // an end-group tag where none can be: not a row of this type
        }
      }
    } catch (IOException | NumberFormatException e) {
      return NO_EVENT_TIME;
    }
  }

  /** One {key, value} entry: its value as a number when its key is {@code event_time_ms}. */
  private long entryEventTime(CodedInputStream in) throws IOException {
    boolean keyMatches = false;
    byte[] value = null;
    while (!in.isAtEnd()) {
      int tag = in.readTag();
      int number = WireFormat.getTagFieldNumber(tag);
      if (number == keyNumber
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int length = in.readRawVarint32();
        if (length == EVENT_TIME_KEY_BYTES.length) {
          keyMatches = Arrays.equals(in.readRawBytes(length), EVENT_TIME_KEY_BYTES);
        } else {
          in.skipRawBytes(length);
          keyMatches = false;
        }
      } else if (number == valueNumber
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        value = in.readByteArray();
      } else if (!in.skipField(tag)) {
        break;
      }
    }
    if (!keyMatches) {
      return NO_EVENT_TIME;
    }
    // A missing value reads as empty (proto3), which is not a number, as before.
    return Long.parseLong(
        new String(value == null ? new byte[0] : value, StandardCharsets.UTF_8).trim());
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
  public static void recordInsertAll(Object reference, Object rowList) {
    if (!(rowList instanceof List)) {
      return;
    }
    HandOffLatencyProbe.recordRequest(((List<?>) rowList).size());
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
