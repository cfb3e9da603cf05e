package io.thriftbq.ingest.convert;

import java.util.Arrays;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Beam Rows over the schema {@code BigQueryUtils.fromTableSchema} derives from the table schema:
 * INT64 as Long, BYTES as byte[], TIMESTAMP as a Joda Instant (DATETIME), REPEATED as a List.
 */
final class BeamRowAssembler extends RowAssembler<Row, Schema> {
  private final Schema root;

  BeamRowAssembler(Schema schema) {
    this.root = schema;
  }

  @Override
  Schema rootShape() {
    return root;
  }

  @Override
  Schema childShape(Schema parent, int index) {
    Schema.FieldType type = parent.getField(index).getType();
    if (type.getTypeName().isCollectionType()) {
      type = type.getCollectionElementType();
    }
    return type.getRowSchema();
  }

  @Override
  Row row(Object[] values) {
    return record(rootShape(), values);
  }

  @Override
  Row record(Schema shape, Object[] values) {
    // attachValues skips Row.Builder's per-value type verification: the converter produced the
    // values from the same schema, and the tests check them against it.
    return Row.withSchema(shape).attachValues(Arrays.asList(values));
  }

  @Override
  Object bytes(byte[] value) {
    return value;
  }

  @Override
  Object timestampMillis(long epochMillis) {
    return new org.joda.time.Instant(epochMillis);
  }
}
