package io.thriftbq.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.config.LocalRunConfig;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The row each generated event must become, and a canonical form to compare it with what the
 * emulator returns: the emulator answers in BigQuery's REST encoding (every leaf a string), the
 * converter builds Java values, so both sides go through the table schema to the same shape.
 */
final class ExpectedRows {
  private final RandomEventGenerator generator;
  private final EventConverter<TableRow> converter;
  private final List<TableFieldSchema> eventFields;

  ExpectedRows(RandomEventGenerator generator, ThriftProtocol protocol) {
    this.generator = generator;
    this.converter =
        EventConverters.tableRows(
            ConverterConfig.of(LocalRunConfig.EVENT_CLASS, protocol, MetadataColumns.NONE));
    this.eventFields =
        EventSchemas.of(LocalRunConfig.EVENT_CLASS, MetadataColumns.NONE).tableSchema().getFields();
  }

  /** The canonical expected row of event {@code sequence}. */
  Map<String, Object> expected(long sequence) {
    TableRow row = converter.fromEvent(generator.generate(sequence), EventMetadata.EMPTY);
    return canonicalRecord(eventFields, row);
  }

  /** The canonical form of a row read back from the emulator, without the metadata columns. */
  Map<String, Object> actual(JsonNode row) {
    return canonicalRecord(eventFields, row);
  }

  private static Map<String, Object> canonicalRecord(List<TableFieldSchema> fields, Object record) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (TableFieldSchema field : fields) {
      Object value = get(record, field.getName());
      out.put(field.getName(), canonicalField(field, value));
    }
    return out;
  }

  private static Object get(Object record, String name) {
    if (record instanceof JsonNode) {
      JsonNode node = ((JsonNode) record).get(name);
      return node == null || node.isNull() ? null : node;
    }
    if (record instanceof Map) {
      return ((Map<?, ?>) record).get(name);
    }
    return null;
  }

  private static Object canonicalField(TableFieldSchema field, Object value) {
    if ("REPEATED".equals(field.getMode())) {
      List<Object> list = new ArrayList<>();
      if (value instanceof JsonNode) {
        for (JsonNode element : (JsonNode) value) {
          list.add(canonicalLeafOrRecord(field, element));
        }
      } else if (value instanceof Collection) {
        for (Object element : (Collection<?>) value) {
          list.add(canonicalLeafOrRecord(field, element));
        }
      } else if (value != null) {
        throw new AssertionError("REPEATED column " + field.getName() + " holds " + value);
      }
      return list;
    }
    return canonicalLeafOrRecord(field, value);
  }

  private static Object canonicalLeafOrRecord(TableFieldSchema field, Object value) {
    if (value == null || (value instanceof JsonNode && ((JsonNode) value).isNull())) {
      return null;
    }
    String type = field.getType();
    if ("RECORD".equals(type) || "STRUCT".equals(type)) {
      return canonicalRecord(field.getFields(), value);
    }
    String text;
    if (value instanceof JsonNode) {
      text = ((JsonNode) value).asText();
    } else if (value instanceof byte[]) {
      text = Base64.getEncoder().encodeToString((byte[]) value);
    } else if (value instanceof ByteBuffer) {
      ByteBuffer copy = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      text = Base64.getEncoder().encodeToString(bytes);
    } else {
      text = String.valueOf(value);
    }
    switch (type) {
      case "INTEGER":
      case "INT64":
        return new BigDecimal(text).toBigIntegerExact().toString();
      case "FLOAT":
      case "FLOAT64":
        return Double.toString(Double.parseDouble(text));
      case "BOOLEAN":
      case "BOOL":
        return Boolean.toString(Boolean.parseBoolean(text));
      case "TIMESTAMP":
        return Long.toString(timestampMicros(text));
      case "BYTES":
        // Both sides are base64; decoding and re-encoding removes padding differences.
        return Base64.getEncoder().encodeToString(Base64.getDecoder().decode(text));
      default:
        return text;
    }
  }

  private static long timestampMicros(String text) {
    try {
      return new BigDecimal(text).movePointRight(6).longValueExact();
    } catch (NumberFormatException | ArithmeticException notSeconds) {
      Instant instant = Instant.parse(text.replace(' ', 'T').replace("UTC", "Z").trim());
      return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
    }
  }
}
