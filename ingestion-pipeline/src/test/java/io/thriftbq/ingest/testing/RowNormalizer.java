package io.thriftbq.ingest.testing;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rows read back from Beam's fake BigQuery in one canonical form, so that rows written with
 * different formats and methods compare equal: streaming inserts keep the TableRow as handed over
 * (Longs, ISO timestamps), the Storage API path reads back from protos (numbers as strings,
 * timestamps as "yyyy-MM-dd HH:mm:ss.SSSSSS"). Nulls and empty repeated fields are dropped.
 */
public final class RowNormalizer {

  private RowNormalizer() {}

  public static Map<String, Object> normalize(Map<String, Object> row, TableSchema schema) {
    return record(row, schema.getFields());
  }

  private static Map<String, Object> record(Map<?, ?> row, List<TableFieldSchema> fields) {
    Map<String, Object> out = new TreeMap<>();
    for (TableFieldSchema field : fields) {
      Object value = row.get(field.getName());
      if (value == null) {
        continue;
      }
      if ("REPEATED".equalsIgnoreCase(field.getMode())) {
        List<Object> values = new ArrayList<>();
        for (Object element : (List<?>) value) {
          values.add(scalarOrRecord(element, field));
        }
        if (!values.isEmpty()) {
          out.put(field.getName(), values);
        }
      } else {
        out.put(field.getName(), scalarOrRecord(value, field));
      }
    }
    return out;
  }

  private static Object scalarOrRecord(Object value, TableFieldSchema field) {
    String type = field.getType().toUpperCase(Locale.ROOT);
    switch (type) {
      case "RECORD":
      case "STRUCT":
        return record((Map<?, ?>) value, field.getFields());
      case "INTEGER":
      case "INT64":
        return Long.parseLong(value.toString());
      case "FLOAT":
      case "FLOAT64":
        return Double.parseDouble(value.toString());
      case "BOOLEAN":
      case "BOOL":
        return Boolean.parseBoolean(value.toString());
      case "BYTES":
        return base64(value);
      case "TIMESTAMP":
        return epochMicros(value);
      default:
        return value.toString();
    }
  }

  private static String base64(Object value) {
    if (value instanceof byte[] bytes) {
      return Base64.getEncoder().encodeToString(bytes);
    }
    if (value instanceof ByteString bytes) {
      return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return Base64.getEncoder().encodeToString(bytes);
    }
    return Base64.getEncoder().encodeToString(Base64.getDecoder().decode(value.toString()));
  }

  /** Epoch microseconds of a TIMESTAMP in any of the representations the fake hands back. */
  public static long epochMicros(Object value) {
    if (value instanceof Long || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof org.joda.time.ReadableInstant instant) {
      return instant.getMillis() * 1000;
    }
    String text = value.toString().trim();
    java.time.Instant instant = io.thriftbq.ingest.write.Timestamps.parse(text);
    return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
  }
}
