package io.thriftbq.ingest.schema;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.thriftbq.ingest.SchemaExporter;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class ProtoSchemasTest {
  private static final String SAMPLE_PACKAGE = "io.thriftbq.sample.proto";

  private static EventSchemas sample(MetadataColumns metadata) {
    return EventSchemas.of(Event.class.getName(), metadata);
  }

  private static Descriptor build(FileDescriptorProto file) throws Exception {
    return FileDescriptor.buildFrom(file, new FileDescriptor[0]).getMessageTypes().get(0);
  }

  @Test
  public void theRowDescriptorIsTheDerivedMessageAndTheExportRendersIt() throws Exception {
    EventSchemas schemas = sample(MetadataColumns.ALL);
    Descriptor row = schemas.rowDescriptor();
    assertEquals(
        ProtoSchemas.fileFor(
                schemas.tableSchema(),
                EventSchemas.ROW_MESSAGE_PACKAGE,
                EventSchemas.ROW_MESSAGE_NAME)
            .getMessageType(0),
        row.toProto());
    assertEquals(List.of(), ProtoSchemas.mismatches(row, schemas.tableSchema()));
    String source = SchemaExporter.protoSource(schemas, SAMPLE_PACKAGE, "EventRowWithMetadata");
    assertThat(source, containsString("message EventRowWithMetadata {"));
    assertThat(source, containsString("_publish_time"));
  }

  @Test
  public void everyThriftTypeHasAValidMessageThatMatchesItsTable() throws Exception {
    TableSchema schema =
        EventSchemas.of(AllTypes.class.getName(), MetadataColumns.ALL).tableSchema();
    Descriptor message = build(ProtoSchemas.fileFor(schema, "io.example", "AllTypesRow"));
    assertEquals(List.of(), ProtoSchemas.mismatches(message, schema));
    assertEquals(schema.getFields().size(), message.getFields().size());
    assertEquals("a_map", message.getFields().get(indexOf(schema, "a_map")).getName());
    assertTrue(message.findFieldByName("a_map").isRepeated());
    assertEquals("AMapRecord", message.findFieldByName("a_map").getMessageType().getName());
  }

  @Test
  public void mismatchesNameEveryDifference() throws Exception {
    TableSchema withMetadata = sample(MetadataColumns.ALL).tableSchema();
    Descriptor eventRow =
        build(
            ProtoSchemas.fileFor(
                sample(MetadataColumns.NONE).tableSchema(), SAMPLE_PACKAGE, "EventRow"));
    Descriptor eventRowWithMetadata =
        build(ProtoSchemas.fileFor(withMetadata, SAMPLE_PACKAGE, "EventRowWithMetadata"));
    List<String> missing = ProtoSchemas.mismatches(eventRow, withMetadata);
    assertThat(missing, hasItem(startsWith("column _message_id has no field")));
    assertThat(missing, hasItem(startsWith("column _attributes has no field")));
    assertEquals(3, missing.size());

    TableSchema plain = sample(MetadataColumns.NONE).tableSchema();
    List<String> extra = ProtoSchemas.mismatches(eventRowWithMetadata, plain);
    assertThat(extra, hasItem(containsString("field _publish_time has no column")));
    assertEquals(3, extra.size());

    List<TableFieldSchema> columns = new ArrayList<>(plain.getFields());
    columns.set(0, new TableFieldSchema().setName("event_id").setType("INTEGER"));
    TableSchema retyped = new TableSchema().setFields(columns);
    assertThat(
        ProtoSchemas.mismatches(eventRow, retyped),
        hasItem("field event_id is required but the column is NULLABLE (expected optional)"));
    assertThat(
        ProtoSchemas.mismatches(eventRow, retyped),
        hasItem("field event_id is STRING but the INTEGER column needs INT64"));
  }

  @Test
  public void nestedNamesStayUniqueAndUnlikeTheirEnclosingMessages() throws Exception {
    TableFieldSchema inner =
        new TableFieldSchema()
            .setName("row")
            .setType("RECORD")
            .setMode("NULLABLE")
            .setFields(List.of(new TableFieldSchema().setName("x").setType("INTEGER")));
    TableSchema schema =
        new TableSchema()
            .setFields(
                List.of(
                    new TableFieldSchema()
                        .setName("a_b")
                        .setType("RECORD")
                        .setFields(List.of(inner)),
                    new TableFieldSchema()
                        .setName("aB")
                        .setType("RECORD")
                        .setFields(List.of(new TableFieldSchema().setName("y").setType("BOOL")))));
    Descriptor message = build(ProtoSchemas.fileFor(schema, "io.example", "RowRecord"));
    assertEquals("ABRecord", message.findFieldByName("a_b").getMessageType().getName());
    assertEquals("ABRecord2", message.findFieldByName("aB").getMessageType().getName());
    assertEquals(
        "RowRecord2",
        message
            .findFieldByName("a_b")
            .getMessageType()
            .findFieldByName("row")
            .getMessageType()
            .getName());
    assertEquals(List.of(), ProtoSchemas.mismatches(message, schema));
  }

  @Test
  public void namesProtocolBuffersCannotHoldAreRejected() {
    TableSchema schema =
        new TableSchema()
            .setFields(List.of(new TableFieldSchema().setName("has-dash").setType("STRING")));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> ProtoSchemas.fileFor(schema, "io.example", "Row"))
            .getMessage(),
        containsString("not a valid protocol buffer field name"));
    TableSchema plain = sample(MetadataColumns.NONE).tableSchema();
    assertThrows(IllegalArgumentException.class, () -> ProtoSchemas.fileFor(plain, "io..x", "Row"));
    assertThrows(
        IllegalArgumentException.class, () -> ProtoSchemas.fileFor(plain, "io.x", "lowerCase"));
  }

  @Test
  public void fileNamesFollowProtocolBufferStyle() {
    assertEquals("event_row_with_metadata.proto", ProtoSchemas.fileName("EventRowWithMetadata"));
    assertEquals("row2_x.proto", ProtoSchemas.fileName("Row2X"));
  }

  private static int indexOf(TableSchema schema, String column) {
    for (int i = 0; i < schema.getFields().size(); i++) {
      if (schema.getFields().get(i).getName().equals(column)) {
        return i;
      }
    }
    throw new AssertionError(column);
  }
}
