package io.thriftbq.ingest.change;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.TestConverters;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.TestData;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation.MutationType;
import org.apache.thrift.TBase;
import org.junit.Test;

/**
 * PROTO_MESSAGE's pseudo-columns: the appended bytes parse, with the descriptor BigQueryIO is
 * given, as the row's own columns plus {@code _CHANGE_TYPE} and {@code _CHANGE_SEQUENCE_NUMBER};
 * the column reader reads the row as the other formats' readers do.
 */
public class ChangeColumnsTest {

  private static Object row(StorageFormat format, TBase<?, ?> event) throws Exception {
    EventConverter<Object> converter =
        TestConverters.create(
            ConverterConfig.of(TestData.EVENT_CLASS, ThriftProtocol.BINARY, MetadataColumns.NONE),
            format);
    return converter.fromBytes(TestData.serialize(event), EventMetadata.EMPTY);
  }

  /** The change each format's row and reader give for {@code event}. */
  @SuppressWarnings("unchecked")
  private static List<Change> changes(TBase<?, ?> event, ChangeRule rule) throws Exception {
    List<Change> changes = new ArrayList<>();
    for (StorageFormat format : StorageFormat.values()) {
      ColumnReader<Object> reader = (ColumnReader<Object>) Format.of(format).columnReader();
      changes.add(rule.decide(row(format, event), reader, EventMetadata.EMPTY));
    }
    return changes;
  }

  @Test
  public void stampedRowsParseAsTheRowPlusThePseudoColumns() throws Exception {
    EventSchemas schemas = EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.NONE);
    Descriptor plain = schemas.rowDescriptor();
    Descriptor withChange = ChangeColumns.withChangeColumns(plain);
    int columns = schemas.tableSchema().getFields().size();
    assertEquals(columns + 2, withChange.getFields().size());
    assertEquals(
        ChangeColumns.changeTypeNumber(columns),
        withChange.findFieldByName(ChangeColumns.CHANGE_TYPE).getNumber());

    EncodedRow row = (EncodedRow) row(StorageFormat.PROTO_MESSAGE, TestData.event(3));
    EncodedRow stamped =
        ChangeColumns.stamp(
            row,
            new Change(MutationType.DELETE, "FF/00AB"),
            ChangeColumns.changeTypeNumber(columns));
    DynamicMessage parsed = DynamicMessage.parseFrom(withChange, stamped.bytes());
    assertEquals("DELETE", parsed.getField(withChange.findFieldByName("_CHANGE_TYPE")));
    assertEquals("FF/00AB", parsed.getField(withChange.findFieldByName("_CHANGE_SEQUENCE_NUMBER")));
    assertEquals(0, parsed.getUnknownFields().asMap().size());
    DynamicMessage original = DynamicMessage.parseFrom(plain, row.bytes());
    for (var field : plain.getFields()) {
      if (field.isRepeated()) {
        assertEquals(
            field.getName(),
            original.getRepeatedFieldCount(field),
            parsed.getRepeatedFieldCount(withChange.findFieldByName(field.getName())));
      } else if (original.hasField(field)
          && field.getJavaType()
              != com.google.protobuf.Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        assertEquals(
            field.getName(),
            original.getField(field),
            parsed.getField(withChange.findFieldByName(field.getName())));
      }
    }

    EncodedRow noSequence =
        ChangeColumns.stamp(
            row, new Change(MutationType.UPSERT, null), ChangeColumns.changeTypeNumber(columns));
    DynamicMessage upsert = DynamicMessage.parseFrom(withChange, noSequence.bytes());
    assertEquals("UPSERT", upsert.getField(withChange.findFieldByName("_CHANGE_TYPE")));
    assertFalse(upsert.hasField(withChange.findFieldByName("_CHANGE_SEQUENCE_NUMBER")));
  }

  @Test
  public void theOnePassWriterStampsTheBytesTheGeneralPathStamps() throws Exception {
    EventSchemas schemas = EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.NONE);
    List<String> problems = new ArrayList<>();
    ChangeRule rule =
        ChangeRule.of(
            io.thriftbq.change.ChangeSpec.parse(
                "event_id", null, "field:event_time", null, null, problems),
            "Event",
            schemas.tableSchema(),
            problems);
    ConverterConfig config =
        ConverterConfig.of(TestData.EVENT_CLASS, ThriftProtocol.BINARY, MetadataColumns.NONE);
    @SuppressWarnings("unchecked")
    EventConverter<EncodedRow> stamping =
        (EventConverter<EncodedRow>)
            Format.of(StorageFormat.PROTO_MESSAGE).newConverter(config, rule);
    EventConverter<EncodedRow> plain = TestConverters.create(config, StorageFormat.PROTO_MESSAGE);
    int columns = schemas.tableSchema().getFields().size();
    int inPlace = 0;
    for (int i = 0; i < 50; i++) {
      byte[] payload = TestData.bytes(i);
      EncodedRow written = stamping.fromBytes(payload, EventMetadata.EMPTY);
      EncodedRow row = plain.fromBytes(payload, EventMetadata.EMPTY);
      Change change = rule.decide(row, ColumnReaders.encodedRows(), EventMetadata.EMPTY);
      EncodedRow expected =
          written.hasChangeColumns()
              ? ChangeColumns.stamp(row, change, ChangeColumns.changeTypeNumber(columns))
              : row;
      inPlace += written.hasChangeColumns() ? 1 : 0;
      org.junit.Assert.assertArrayEquals("event " + i, expected.bytes(), written.bytes());
    }
    assertEquals("the one-pass writer stamps every sample event", 50, inPlace);
  }

  @Test
  public void everyFormatsReaderGivesTheSameChange() throws Exception {
    EventSchemas schemas = EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.NONE);
    List<String> problems = new ArrayList<>();
    ChangeRule rule =
        ChangeRule.of(
            io.thriftbq.change.ChangeSpec.parse(
                "event_id", "field:user_id", "field:event_time", List.of("u"), null, problems),
            "Event",
            schemas.tableSchema(),
            problems);
    assertEquals(List.of(), problems);
    for (int i = 0; i < 20; i++) {
      io.thriftbq.sample.Event event = TestData.event(i);
      event.setUser_id("u");
      List<Change> changes = changes(event, rule);
      assertEquals(4, changes.size());
      for (Change change : changes) {
        assertEquals(changes.get(0), change);
      }
      assertEquals(
          io.thriftbq.change.ChangeSequence.ofSigned(event.getEvent_time()),
          changes.get(0).sequence());
    }
  }

  @Test
  public void aMissingKeyOrAnUnknownTypeMakesNoChange() throws Exception {
    EventSchemas schemas = EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.NONE);
    List<String> problems = new ArrayList<>();
    ChangeRule rule =
        ChangeRule.of(
            io.thriftbq.change.ChangeSpec.parse(
                "user_id", "field:user_id", null, null, null, problems),
            "Event",
            schemas.tableSchema(),
            problems);
    io.thriftbq.sample.Event event = TestData.event(1);
    event.unsetUser_id();
    ChangeException missing =
        org.junit.Assert.assertThrows(ChangeException.class, () -> changes(event, rule));
    org.hamcrest.MatcherAssert.assertThat(
        missing.getMessage(), org.hamcrest.Matchers.containsString("user_id is NULL"));
    event.setUser_id("MERGE");
    ChangeException unknown =
        org.junit.Assert.assertThrows(ChangeException.class, () -> changes(event, rule));
    org.hamcrest.MatcherAssert.assertThat(
        unknown.getMessage(), org.hamcrest.Matchers.containsString("'MERGE', which is neither"));
  }
}
