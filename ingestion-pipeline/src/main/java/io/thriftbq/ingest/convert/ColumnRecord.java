package io.thriftbq.ingest.convert;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * A {@code GenericData.Record} whose values are the column array the converter filled, used as is
 * instead of copied in: the Avro counterpart of {@link ColumnMap}. It extends {@code
 * GenericData.Record} rather than only implementing {@code GenericRecord} so that equality stays
 * symmetric with plain records ({@code GenericData.Record.equals} accepts only its own class);
 * equality, ordering, hashing and text are the superclass's, which read values through {@link
 * #get(int)}. The superclass still allocates its own (unused) array: cheaper than copying into it.
 * One Avro entry point reads that array directly, the copy constructor {@code new
 * GenericData.Record(record, deepCopy)}; copy with {@code GenericData.get().deepCopy(schema,
 * record)}, which goes through {@link #get(int)}, as Avro and Beam do.
 */
final class ColumnRecord extends GenericData.Record {
  private final Object[] columns;

  /** Takes ownership of {@code columns}, which must hold one value per field of {@code schema}. */
  ColumnRecord(Schema schema, Object[] columns) {
    super(schema);
    this.columns = columns;
  }

  @Override
  public Object get(int i) {
    return columns[i];
  }

  @Override
  public void put(int i, Object v) {
    columns[i] = v;
  }

  @Override
  public Object get(String key) {
    Schema.Field field = getSchema().getField(key);
    return field == null ? null : columns[field.pos()];
  }

  @Override
  public void put(String key, Object value) {
    Schema.Field field = getSchema().getField(key);
    if (field == null) {
      throw new AvroRuntimeException("Not a valid schema field: " + key);
    }
    columns[field.pos()] = value;
  }
}
