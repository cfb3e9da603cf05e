package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

/**
 * BigQuery table schema → Avro schema, as BigQuery's Storage Write API expects it for Avro rows
 * (TIMESTAMP as {@code long} with {@code timestamp-micros}, NULLABLE as a union with null first,
 * REPEATED as an array). Record names are the column path, which keeps them unique when two nested
 * records share a field name.
 */
public final class AvroSchemas {
  private static final String NAMESPACE = "io.thriftbq.rows";

  private AvroSchemas() {}

  public static Schema fromTableSchema(TableSchema tableSchema) {
    return record("root", tableSchema.getFields());
  }

  private static Schema record(String path, List<TableFieldSchema> columns) {
    List<Schema.Field> fields = new ArrayList<>(columns.size());
    for (TableFieldSchema column : columns) {
      fields.add(
          new Schema.Field(column.getName(), fieldSchema(path, column), null, (Object) null));
    }
    return Schema.createRecord(path, null, NAMESPACE, false, fields);
  }

  private static Schema fieldSchema(String parentPath, TableFieldSchema column) {
    Schema type =
        switch (column.getType()) {
          case "RECORD", "STRUCT" ->
              record(parentPath + "_" + column.getName(), column.getFields());
          case "INTEGER", "INT64" -> Schema.create(Schema.Type.LONG);
          case "FLOAT", "FLOAT64" -> Schema.create(Schema.Type.DOUBLE);
          case "BOOLEAN", "BOOL" -> Schema.create(Schema.Type.BOOLEAN);
          case "BYTES" -> Schema.create(Schema.Type.BYTES);
          case "STRING" -> stringSchema();
          case "TIMESTAMP" ->
              LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
          default ->
              throw new IllegalArgumentException(
                  "Column "
                      + column.getName()
                      + " has type "
                      + column.getType()
                      + ", not supported");
        };
    String mode = column.getMode() == null ? "NULLABLE" : column.getMode();
    return switch (mode) {
      case "REPEATED" -> Schema.createArray(type);
      case "REQUIRED" -> type;
      default -> SchemaBuilder.unionOf().nullType().and().type(type).endUnion();
    };
  }

  private static Schema stringSchema() {
    Schema string = Schema.create(Schema.Type.STRING);
    // Decoded records then hold java.lang.String, as the converters produce, not Avro's Utf8.
    string.addProp("avro.java.string", "String");
    return string;
  }
}
