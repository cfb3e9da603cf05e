package io.thriftbq.ingest.schema;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.SchemaExporter;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import io.thriftbq.testing.recursive.TreeNode;
import java.util.List;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryUtils;
import org.apache.beam.sdk.schemas.Schema;
import org.junit.Test;

public class EventSchemasTest {

  private static TableFieldSchema field(List<TableFieldSchema> fields, String name) {
    return fields.stream()
        .filter(f -> f.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no column " + name + " in " + fields));
  }

  private static String typeAndMode(TableFieldSchema field) {
    return field.getType() + " " + field.getMode();
  }

  @Test
  public void mapsEveryThriftType() {
    List<TableFieldSchema> fields =
        EventSchemas.of(AllTypes.class.getName(), MetadataColumns.NONE).tableSchema().getFields();
    assertEquals("BOOLEAN REQUIRED", typeAndMode(field(fields, "a_bool")));
    assertEquals("INTEGER REQUIRED", typeAndMode(field(fields, "a_byte")));
    assertEquals("INTEGER REQUIRED", typeAndMode(field(fields, "a_i16")));
    assertEquals("INTEGER REQUIRED", typeAndMode(field(fields, "a_i32")));
    assertEquals("INTEGER REQUIRED", typeAndMode(field(fields, "a_i64")));
    assertEquals("FLOAT REQUIRED", typeAndMode(field(fields, "a_double")));
    assertEquals("STRING REQUIRED", typeAndMode(field(fields, "a_string")));
    assertEquals("BYTES REQUIRED", typeAndMode(field(fields, "a_binary")));
    assertEquals("STRING NULLABLE", typeAndMode(field(fields, "a_enum")));
    assertEquals("INTEGER NULLABLE", typeAndMode(field(fields, "a_typedef")));
    assertEquals("STRING REPEATED", typeAndMode(field(fields, "a_typedef_list")));
    assertEquals("INTEGER REPEATED", typeAndMode(field(fields, "a_list")));
    assertEquals("STRING REPEATED", typeAndMode(field(fields, "a_set")));
    assertEquals("STRING NULLABLE", typeAndMode(field(fields, "default_requirement")));

    TableFieldSchema map = field(fields, "a_map");
    assertEquals("RECORD REPEATED", typeAndMode(map));
    assertEquals("STRING REQUIRED", typeAndMode(field(map.getFields(), "key")));
    assertEquals("INTEGER REQUIRED", typeAndMode(field(map.getFields(), "value")));

    TableFieldSchema mapOfStructs = field(fields, "a_map_of_structs");
    assertEquals("RECORD REQUIRED", typeAndMode(field(mapOfStructs.getFields(), "value")));

    TableFieldSchema listOfLists = field(fields, "a_list_of_lists");
    assertEquals("RECORD REPEATED", typeAndMode(listOfLists));
    assertEquals("INTEGER REPEATED", typeAndMode(field(listOfLists.getFields(), "value")));

    TableFieldSchema mapOfLists = field(fields, "a_map_of_lists");
    assertEquals("STRING REPEATED", typeAndMode(field(mapOfLists.getFields(), "value")));

    TableFieldSchema nested = field(fields, "a_nested");
    assertEquals("RECORD NULLABLE", typeAndMode(nested));
    TableFieldSchema inners = field(nested.getFields(), "inners");
    assertEquals("RECORD REPEATED", typeAndMode(inners));
    assertEquals("STRING REQUIRED", typeAndMode(field(inners.getFields(), "name")));

    TableFieldSchema union = field(fields, "a_union");
    assertEquals("RECORD NULLABLE", typeAndMode(union));
    for (TableFieldSchema member : union.getFields()) {
      assertEquals("NULLABLE", member.getMode());
    }
    assertEquals("RECORD NULLABLE", typeAndMode(field(fields, "a_struct_typedef")));
    assertEquals("BYTES REPEATED", typeAndMode(field(fields, "a_binary_set")));
  }

  @Test
  public void metadataColumnsComeLast() {
    List<String> names =
        EventSchemas.of(Event.class.getName(), MetadataColumns.ALL).topLevelColumnNames();
    assertEquals(
        List.of("_message_id", "_publish_time", "_attributes"),
        names.subList(names.size() - 3, names.size()));
    TableSchema schema = EventSchemas.of(Event.class.getName(), MetadataColumns.ALL).tableSchema();
    assertEquals("TIMESTAMP NULLABLE", typeAndMode(field(schema.getFields(), "_publish_time")));
  }

  @Test
  public void beamAndAvroSchemasDescribeTheSameTable() {
    EventSchemas schemas = EventSchemas.of(AllTypes.class.getName(), MetadataColumns.ALL);
    Schema beam = schemas.beamSchema();
    assertEquals(schemas.tableSchema().getFields().size(), beam.getFieldCount());
    // Beam's own mapping back to a table schema gives the same column tree.
    assertEquals(
        normalized(schemas.tableSchema().getFields()),
        normalized(BigQueryUtils.toTableSchema(beam).getFields()));
    assertEquals(beam.getFieldCount(), schemas.avroSchema().getFields().size());
    assertEquals(
        org.apache.avro.Schema.Type.ARRAY,
        schemas.avroSchema().getField("a_list_of_lists").schema().getType());
  }

  private static String normalized(List<TableFieldSchema> fields) {
    StringBuilder text = new StringBuilder();
    for (TableFieldSchema field : fields) {
      String type =
          switch (field.getType()) {
            case "INT64" -> "INTEGER";
            case "FLOAT64" -> "FLOAT";
            case "BOOL" -> "BOOLEAN";
            case "STRUCT" -> "RECORD";
            default -> field.getType();
          };
      text.append(field.getName())
          .append(':')
          .append(type)
          .append(':')
          .append(field.getMode() == null ? "NULLABLE" : field.getMode());
      if (field.getFields() != null) {
        text.append('(').append(normalized(field.getFields())).append(')');
      }
      text.append(',');
    }
    return text.toString();
  }

  @Test
  public void recursiveStructsAreRejectedWithAClearMessage() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> EventSchemas.of(TreeNode.class.getName(), MetadataColumns.NONE));
    assertThat(error.getMessage(), containsString("recursive"));
  }

  @Test
  public void classThatIsNotAStructIsRejected() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> EventSchemas.of(String.class.getName(), MetadataColumns.NONE));
    assertThat(error.getMessage(), containsString("is not a Thrift struct"));
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> EventSchemas.of("com.example.Missing", MetadataColumns.NONE));
    assertThat(missing.getMessage(), containsString("not on the classpath"));
  }

  @Test
  public void exportedJsonNamesEveryColumn() throws Exception {
    String json =
        SchemaExporter.toJson(
            EventSchemas.of(Event.class.getName(), MetadataColumns.NONE).tableSchema().getFields());
    assertThat(json, containsString("\"name\": \"payment\""));
    assertThat(json, containsString("\"mode\": \"REQUIRED\""));
  }
}
