package io.thriftbq.local.latency;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The latency probe reads {@code event_time_ms} straight from the wire format, skipping every other
 * field; these rows hold fields of every wire type before, between and after the attributes, so
 * that anything the skipping gets wrong shows.
 */
@RunWith(JUnit4.class)
public class EventTimeExtractorTest {
  private static final DescriptorProto ROW = rowDescriptor();
  private static final Descriptors.Descriptor DESCRIPTOR = descriptor(ROW);
  private final EventTimeExtractor extractor = new EventTimeExtractor(ROW, "t");

  @Before
  @After
  public void resetProbe() {
    HandOffLatencyProbe.reset();
  }

  @Test
  public void streamingInsertRowsFeedTheProbe() {
    long createdAt = System.currentTimeMillis() - 250;
    TableRow withTime =
        new TableRow()
            .set(
                "_attributes",
                List.of(
                    Map.of("key", "event_id", "value", "1"),
                    Map.of("key", "event_time_ms", "value", Long.toString(createdAt))));
    EventTimeExtractor.recordTableRows(List.of(withTime, new TableRow().set("x", 1)));
    long[] samples = HandOffLatencyProbe.samples();
    assertEquals(1, samples.length);
    assertThat(samples[0], greaterThanOrEqualTo(250L));
  }

  @Test
  public void readsTheEventTimeAmongFieldsOfEveryWireType() {
    assertTrue(extractor.enabled());
    DynamicMessage row = row("1718743901246", "event_id", "e-1");
    assertEquals(1718743901246L, extractor.eventTimeMillis(row.toByteString()));
  }

  @Test
  public void takesTheFirstEntryWithTheKeyAndToleratesValueBeforeKey() throws Exception {
    // Entry with value (field 2) written before key (field 1), then a second event_time_ms.
    ByteArrayOutputStream entry = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(entry);
    out.writeString(2, " 42 ");
    out.writeString(1, "event_time_ms");
    out.flush();
    ByteArrayOutputStream rowBytes = new ByteArrayOutputStream();
    CodedOutputStream row = CodedOutputStream.newInstance(rowBytes);
    row.writeString(1, "name");
    row.writeByteArray(5, entry.toByteArray());
    row.writeMessage(5, entry("event_time_ms", "7"));
    row.flush();
    assertEquals(42L, extractor.eventTimeMillis(ByteString.copyFrom(rowBytes.toByteArray())));
  }

  @Test
  public void rowsWithoutAUsableEventTimeAreMissing() {
    assertMissing(row(null, "event_id", "e-1").toByteString());
    assertMissing(row("not a number", "event_id", "e-1").toByteString());
    assertMissing(row("", "event_id", "e-1").toByteString());
    assertMissing(row(null, "event_time_msX", "5").toByteString());
    assertMissing(ByteString.EMPTY);
    assertMissing(ByteString.copyFrom(new byte[] {(byte) 0x2a, (byte) 0xff})); // truncated length
    assertMissing(ByteString.copyFrom(new byte[] {(byte) 0x0c})); // end-group tag, no group
  }

  @Test
  public void agreesWithAFullParseOnRandomRows() {
    Random random = new Random(20261126);
    for (int i = 0; i < 2_000; i++) {
      String time = random.nextInt(5) == 0 ? null : Long.toString(random.nextLong() >>> 20);
      String otherKey = random.nextBoolean() ? "event_id" : "event_time_msx";
      DynamicMessage row = row(time, otherKey, Integer.toString(random.nextInt()));
      long expected = fullParse(row.toByteString());
      assertEquals(expected, extractor.eventTimeMillis(row.toByteString()));
    }
  }

  @Test
  public void recordsAWholeAppendUnderOneTable() {
    long created = System.currentTimeMillis() - 500;
    extractor.recordAppend(
        ProtoRows.newBuilder()
            .addSerializedRows(row(Long.toString(created), "event_id", "a").toByteString())
            .addSerializedRows(row(null, "event_id", "b").toByteString())
            .addSerializedRows(row(Long.toString(created), "event_id", "c").toByteString())
            .build());
    assertEquals(2, HandOffLatencyProbe.samplesOfTable("t", 0).length);
    assertTrue(HandOffLatencyProbe.samplesOfTable("t", 0)[0] >= 500);
    assertEquals(1, HandOffLatencyProbe.rowsWithoutEventTime());
  }

  @Test
  public void countsEveryRequestAndItsRowsEvenWithoutAnAttributesColumn() {
    extractor.recordAppend(
        ProtoRows.newBuilder()
            .addSerializedRows(row("1", "event_id", "a").toByteString())
            .addSerializedRows(row("2", "event_id", "b").toByteString())
            .addSerializedRows(row("3", "event_id", "c").toByteString())
            .build());
    DescriptorProto plain =
        DescriptorProto.newBuilder()
            .setName("Plain")
            .addField(field("x", 1, Type.TYPE_STRING))
            .build();
    new EventTimeExtractor(plain, "t")
        .recordAppend(ProtoRows.newBuilder().addSerializedRows(ByteString.EMPTY).build());
    EventTimeExtractor.recordInsertAll(null, List.of("not a row", "nor this"));

    HandOffLatencyProbe.HandOffRequests requests = HandOffLatencyProbe.requests();
    assertEquals(3, requests.requests());
    assertEquals(6, requests.rows());
    assertEquals(2.0, requests.rowsPerRequest(), 0.0);
    HandOffLatencyProbe.reset();
    assertEquals(0, HandOffLatencyProbe.requests().requests());
    assertTrue(Double.isNaN(HandOffLatencyProbe.requests().rowsPerRequest()));
  }

  @Test
  public void isDisabledWithoutAnAttributesColumn() {
    DescriptorProto plain =
        DescriptorProto.newBuilder()
            .setName("Plain")
            .addField(field("x", 1, Type.TYPE_STRING))
            .build();
    EventTimeExtractor none = new EventTimeExtractor(plain, "t");
    assertFalse(none.enabled());
    none.recordAppend(ProtoRows.newBuilder().addSerializedRows(ByteString.EMPTY).build());
    assertEquals(0, HandOffLatencyProbe.samples().length);
    assertEquals(0, HandOffLatencyProbe.rowsWithoutEventTime());
  }

  /** What the probe did before: a full parse into a DynamicMessage. */
  private static long fullParse(ByteString bytes) {
    try {
      DynamicMessage message = DynamicMessage.parseFrom(DESCRIPTOR, bytes);
      Descriptors.FieldDescriptor attributes = DESCRIPTOR.findFieldByName("_attributes");
      Descriptors.Descriptor entry = attributes.getMessageType();
      for (int i = 0; i < message.getRepeatedFieldCount(attributes); i++) {
        DynamicMessage e = (DynamicMessage) message.getRepeatedField(attributes, i);
        if ("event_time_ms".equals(e.getField(entry.findFieldByName("key")))) {
          return Long.parseLong(e.getField(entry.findFieldByName("value")).toString().trim());
        }
      }
      return EventTimeExtractor.NO_EVENT_TIME;
    } catch (Exception e) {
      return EventTimeExtractor.NO_EVENT_TIME;
    }
  }

  private static void assertMissing(ByteString row) {
    assertEquals(
        EventTimeExtractor.NO_EVENT_TIME, new EventTimeExtractor(ROW, "t").eventTimeMillis(row));
  }

  private static DynamicMessage entry(String key, String value) {
    Descriptors.Descriptor type = DESCRIPTOR.findFieldByName("_attributes").getMessageType();
    return DynamicMessage.newBuilder(type)
        .setField(type.findFieldByName("key"), key)
        .setField(type.findFieldByName("value"), value)
        .build();
  }

  /** A row with fields of every wire type around the attributes. */
  private static DynamicMessage row(String eventTime, String otherKey, String otherValue) {
    Descriptors.Descriptor nested = DESCRIPTOR.findFieldByName("nested").getMessageType();
    DynamicMessage.Builder row =
        DynamicMessage.newBuilder(DESCRIPTOR)
            .setField(DESCRIPTOR.findFieldByName("name"), "n")
            .setField(DESCRIPTOR.findFieldByName("count"), 123_456_789_012L)
            .setField(DESCRIPTOR.findFieldByName("ratio"), 0.5)
            .setField(DESCRIPTOR.findFieldByName("small"), 1.5f)
            .setField(
                DESCRIPTOR.findFieldByName("nested"),
                DynamicMessage.newBuilder(nested)
                    .setField(nested.findFieldByName("key"), "event_time_ms")
                    .setField(nested.findFieldByName("value"), "999")
                    .build())
            .addRepeatedField(
                DESCRIPTOR.findFieldByName("_attributes"), entry(otherKey, otherValue));
    if (eventTime != null) {
      row.addRepeatedField(
          DESCRIPTOR.findFieldByName("_attributes"), entry("event_time_ms", eventTime));
    }
    row.addRepeatedField(DESCRIPTOR.findFieldByName("numbers"), 7L);
    row.addRepeatedField(DESCRIPTOR.findFieldByName("numbers"), 8L);
    row.setField(DESCRIPTOR.findFieldByName("tail"), ByteString.copyFromUtf8("tail"));
    return row.build();
  }

  private static DescriptorProto rowDescriptor() {
    DescriptorProto entry =
        DescriptorProto.newBuilder()
            .setName("Entry")
            .addField(field("key", 1, Type.TYPE_STRING))
            .addField(field("value", 2, Type.TYPE_STRING))
            .build();
    return DescriptorProto.newBuilder()
        .setName("Row")
        .addNestedType(entry)
        .addField(field("name", 1, Type.TYPE_STRING))
        .addField(field("count", 2, Type.TYPE_INT64))
        .addField(field("ratio", 3, Type.TYPE_DOUBLE))
        .addField(field("small", 4, Type.TYPE_FLOAT))
        .addField(
            field("_attributes", 5, Type.TYPE_MESSAGE)
                .setTypeName("Entry")
                .setLabel(Label.LABEL_REPEATED))
        .addField(field("nested", 6, Type.TYPE_MESSAGE).setTypeName("Entry"))
        .addField(field("numbers", 7, Type.TYPE_INT64).setLabel(Label.LABEL_REPEATED))
        .addField(field("tail", 8, Type.TYPE_BYTES))
        .build();
  }

  private static FieldDescriptorProto.Builder field(String name, int number, Type type) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(type)
        .setLabel(Label.LABEL_OPTIONAL);
  }

  private static Descriptors.Descriptor descriptor(DescriptorProto proto) {
    try {
      return Descriptors.FileDescriptor.buildFrom(
              FileDescriptorProto.newBuilder().addMessageType(proto).build(),
              new Descriptors.FileDescriptor[0])
          .findMessageTypeByName(proto.getName());
    } catch (Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(e);
    }
  }
}
