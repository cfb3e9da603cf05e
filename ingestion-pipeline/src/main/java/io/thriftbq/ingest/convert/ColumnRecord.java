package io.thriftbq.ingest.convert;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A GenericRecord over the column array the converter filled, without copying it into a {@code
 * GenericData.Record}: the Avro counterpart of {@link ColumnMap}. Everything that reads records
 * through {@code IndexedRecord.get(int)} or {@code GenericRecord.get(String)} (Avro's datum
 * writers, AvroCoder, Beam's Storage API converter) sees an ordinary record; equality, ordering,
 * hashing and text follow {@link GenericData}, like {@code GenericData.Record}'s. One asymmetry
 * remains: {@code GenericData.Record.equals} accepts only its own class, so a decoded copy is not
 * equal to this record, though this record is equal to it.
 */
final class ColumnRecord implements GenericRecord, Comparable<GenericRecord> {
  private final Schema schema;
  private final Object[] values;

  /** Takes ownership of {@code values}, which must hold one value per field of {@code schema}. */
  ColumnRecord(Schema schema, Object[] values) {
    this.schema = schema;
    this.values = values;
  }

  @Override
  public Schema getSchema() {
    return schema;
  }

  @Override
  public Object get(int i) {
    return values[i];
  }

  @Override
  public void put(int i, Object v) {
    values[i] = v;
  }

  @Override
  public Object get(String key) {
    Schema.Field field = schema.getField(key);
    return field == null ? null : values[field.pos()];
  }

  @Override
  public void put(String key, Object value) {
    Schema.Field field = schema.getField(key);
    if (field == null) {
      throw new AvroRuntimeException("Not a valid schema field: " + key);
    }
    values[field.pos()] = value;
  }

  @Override
  public boolean equals(Object other) {
    if (other == this) {
      return true;
    }
    return other instanceof GenericRecord that
        && schema.getFullName().equals(that.getSchema().getFullName())
        && GenericData.get().compare(this, that, schema) == 0;
  }

  @Override
  public int hashCode() {
    return GenericData.get().hashCode(this, schema);
  }

  @Override
  public int compareTo(GenericRecord that) {
    return GenericData.get().compare(this, that, schema);
  }

  @Override
  public String toString() {
    return GenericData.get().toString(this);
  }
}
