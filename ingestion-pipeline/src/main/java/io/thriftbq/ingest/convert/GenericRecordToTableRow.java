package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableRow;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Converts the Avro rows this template produces into TableRows for streaming inserts, which
 * BigQueryIO does not accept Avro for. The result equals what the TABLE_ROW format gives for the
 * same event.
 */
public final class GenericRecordToTableRow implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  public TableRow apply(GenericRecord record) {
    return (TableRow) convertRecord(record);
  }

  private static Object convertRecord(GenericRecord record) {
    List<Schema.Field> fields = record.getSchema().getFields();
    HashMap<String, Object> columns = new HashMap<>(fields.size() * 2);
    for (Schema.Field field : fields) {
      Object value = record.get(field.pos());
      if (value == null || (value instanceof Collection<?> c && c.isEmpty())) {
        continue;
      }
      columns.put(field.name(), convert(field.schema(), value));
    }
    TableRow row = new TableRow();
    row.setUnknownKeys(columns);
    return row;
  }

  private static Object convert(Schema schema, Object value) {
    if (schema.getType() == Schema.Type.UNION) {
      schema = schema.getTypes().get(1);
    }
    switch (schema.getType()) {
      case RECORD:
        return convertRecord((GenericRecord) value);
      case ARRAY:
        Collection<?> items = (Collection<?>) value;
        List<Object> converted = new ArrayList<>(items.size());
        for (Object item : items) {
          converted.add(convert(schema.getElementType(), item));
        }
        return converted;
      case BYTES:
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return BASE64.encodeToString(bytes);
      case STRING:
        return value.toString();
      case LONG:
        LogicalType logicalType = schema.getLogicalType();
        if (logicalType instanceof LogicalTypes.TimestampMicros) {
          long micros = (Long) value;
          return Instant.ofEpochSecond(
                  Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L)
              .toString();
        }
        return value;
      default:
        return value;
    }
  }
}
