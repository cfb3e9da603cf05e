package io.thriftbq.ingest.format;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.schema.EventSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * BigQueryIO's Avro schema factory for a write of Avro records to several tables: hands back, for
 * each destination's table schema, the Avro schema (with its logical types) that struct's records
 * were built with, rather than one re-derived from the table schema. BigQueryIO calls it once per
 * destination with the schema the destinations give; tables are told apart by their schema's JSON.
 * Holds the schemas as JSON because Avro schemas are not reliably serializable.
 */
final class AvroSchemaByTable
    implements SerializableFunction<@Nullable TableSchema, org.apache.avro.Schema> {
  private static final long serialVersionUID = 1L;

  private final List<String> tableSchemasJson;
  private final List<String> avroSchemasJson;
  private transient @Nullable Map<String, Schema> byTableSchema;

  private AvroSchemaByTable(List<String> tableSchemasJson, List<String> avroSchemasJson) {
    this.tableSchemasJson = tableSchemasJson;
    this.avroSchemasJson = avroSchemasJson;
  }

  static AvroSchemaByTable of(List<EventSchemas> schemas) {
    List<String> tables = new ArrayList<>();
    List<String> avro = new ArrayList<>();
    for (EventSchemas table : schemas) {
      tables.add(BigQueryHelpers.toJsonString(table.tableSchema()));
      avro.add(table.avroSchema().toString());
    }
    return new AvroSchemaByTable(List.copyOf(tables), List.copyOf(avro));
  }

  @Override
  public Schema apply(@Nullable TableSchema tableSchema) {
    if (byTableSchema == null) {
      Map<String, Schema> map = new HashMap<>();
      for (int i = 0; i < tableSchemasJson.size(); i++) {
        // Keyed by the JSON of a parsed copy: BigQueryIO hands over parsed copies too.
        String key =
            BigQueryHelpers.toJsonString(
                BigQueryHelpers.fromJsonString(tableSchemasJson.get(i), TableSchema.class));
        map.putIfAbsent(key, new Schema.Parser().parse(avroSchemasJson.get(i)));
      }
      byTableSchema = map;
    }
    Schema schema =
        tableSchema == null ? null : byTableSchema.get(BigQueryHelpers.toJsonString(tableSchema));
    if (schema == null) {
      throw new IllegalStateException(
          "BigQueryIO asked for the Avro schema of a table schema that none of this write's "
              + byTableSchema.size()
              + " tables has: "
              + tableSchema);
    }
    return schema;
  }
}
