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
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.proto.EventRow;
import io.thriftbq.sample.proto.EventRowWithMetadata;
import io.thriftbq.testing.AllTypes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
  public void checkedInSampleProtosAreWhatTheExporterWrites() throws Exception {
    // Surefire runs in the module directory.
    assertEquals(
        "src/main/proto/event_row.proto is stale: run scripts/regenerate-proto.sh",
        SchemaExporter.protoSource(sample(MetadataColumns.NONE), SAMPLE_PACKAGE, "EventRow"),
        Files.readString(Path.of("src/main/proto/event_row.proto"), StandardCharsets.UTF_8));
    assertEquals(
        "src/main/proto/event_row_with_metadata.proto is stale: run scripts/regenerate-proto.sh",
        SchemaExporter.protoSource(
            sample(MetadataColumns.ALL), SAMPLE_PACKAGE, "EventRowWithMetadata"),
        Files.readString(
            Path.of("src/main/proto/event_row_with_metadata.proto"), StandardCharsets.UTF_8));
  }

  @Test
  public void generatedClassesCarryExactlyTheDerivedMessage() {
    // protoc's view of the rendered text equals the descriptor built in memory: the renderer
    // loses nothing, and the checked-in classes are current.
    assertEquals(
        ProtoSchemas.fileFor(sample(MetadataColumns.NONE).tableSchema(), SAMPLE_PACKAGE, "EventRow")
            .getMessageType(0),
        withSimpleTypeNames(EventRow.getDescriptor().toProto()));
    assertEquals(
        ProtoSchemas.fileFor(
                sample(MetadataColumns.ALL).tableSchema(), SAMPLE_PACKAGE, "EventRowWithMetadata")
            .getMessageType(0),
        withSimpleTypeNames(EventRowWithMetadata.getDescriptor().toProto()));
  }

  /** protoc writes fully qualified type names; the derived file uses the nested message's name. */
  private static DescriptorProto withSimpleTypeNames(DescriptorProto message) {
    DescriptorProto.Builder builder = message.toBuilder();
    for (FieldDescriptorProto.Builder field : builder.getFieldBuilderList()) {
      if (field.hasTypeName()) {
        String name = field.getTypeName();
        field.setTypeName(name.substring(name.lastIndexOf('.') + 1));
      }
    }
    builder.clearNestedType();
    for (DescriptorProto nested : message.getNestedTypeList()) {
      builder.addNestedType(withSimpleTypeNames(nested));
    }
    return builder.build();
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
  public void mismatchesNameEveryDifference() {
    TableSchema withMetadata = sample(MetadataColumns.ALL).tableSchema();
    List<String> missing = ProtoSchemas.mismatches(EventRow.getDescriptor(), withMetadata);
    assertThat(missing, hasItem(startsWith("column _message_id has no field")));
    assertThat(missing, hasItem(startsWith("column _attributes has no field")));
    assertEquals(3, missing.size());

    TableSchema plain = sample(MetadataColumns.NONE).tableSchema();
    List<String> extra = ProtoSchemas.mismatches(EventRowWithMetadata.getDescriptor(), plain);
    assertThat(extra, hasItem(containsString("field _publish_time has no column")));
    assertEquals(3, extra.size());

    List<TableFieldSchema> columns = new ArrayList<>(plain.getFields());
    columns.set(0, new TableFieldSchema().setName("event_id").setType("INTEGER"));
    TableSchema retyped = new TableSchema().setFields(columns);
    assertThat(
        ProtoSchemas.mismatches(EventRow.getDescriptor(), retyped),
        hasItem("field event_id is required but the column is NULLABLE (expected optional)"));
    assertThat(
        ProtoSchemas.mismatches(EventRow.getDescriptor(), retyped),
        hasItem("field event_id is STRING but the INTEGER column needs INT64"));
  }

  @Test
  public void loadingAClassChecksItAgainstTheTable() {
    TableSchema withMetadata = sample(MetadataColumns.ALL).tableSchema();
    assertEquals(
        EventRowWithMetadata.class,
        ProtoMessageClass.load(EventRowWithMetadata.class.getName(), withMetadata).type());
    IllegalArgumentException mismatch =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProtoMessageClass.load(EventRow.class.getName(), withMetadata));
    assertThat(mismatch.getMessage(), containsString("column _message_id has no field"));
    assertThat(mismatch.getMessage(), containsString("scripts/export-schema.sh --proto-message"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> ProtoMessageClass.load(Event.class.getName(), withMetadata))
            .getMessage(),
        containsString("is not a protoc-generated message class"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> ProtoMessageClass.load("com.example.Missing", withMetadata))
            .getMessage(),
        containsString("is not on the classpath"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class, () -> ProtoMessageClass.load(" ", withMetadata))
            .getMessage(),
        containsString("PROTO_MESSAGE needs --protoClassName"));
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
