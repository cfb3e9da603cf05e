package io.thriftbq.ingest.convert;

import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Avro GenericRecords over the schema {@code AvroSchemas} derives from the table schema: INT64 as
 * Long, STRING as String, BYTES as ByteBuffer, TIMESTAMP as Long microseconds, REPEATED as a List.
 */
final class AvroRecordAssembler extends RowAssembler<GenericRecord, Schema> {
  private final Schema root;

  AvroRecordAssembler(Schema schema) {
    this.root = schema;
  }

  @Override
  Schema rootShape() {
    return root;
  }

  @Override
  Schema childShape(Schema parent, int index) {
    Schema schema = parent.getFields().get(index).schema();
    if (schema.getType() == Schema.Type.UNION) {
      schema = schema.getTypes().get(1);
    }
    if (schema.getType() == Schema.Type.ARRAY) {
      schema = schema.getElementType();
    }
    return schema;
  }

  @Override
  GenericRecord row(Object[] values) {
    return record(rootShape(), values);
  }

  @Override
  GenericRecord record(Schema shape, Object[] values) {
    // The values array is ours (see RowAssembler#record): the record wraps it without copying.
    return new ColumnRecord(shape, values);
  }

  @Override
  Object bytes(byte[] value) {
    return ByteBuffer.wrap(value);
  }

  @Override
  Object timestampMillis(long epochMillis) {
    return epochMillis * 1000L;
  }
}
