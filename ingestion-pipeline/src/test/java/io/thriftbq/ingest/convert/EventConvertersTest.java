package io.thriftbq.ingest.convert;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.schema.ProtoSchemas;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.Product;
import io.thriftbq.sample.proto.EventRowWithMetadata;
import io.thriftbq.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.gcp.bigquery.AvroGenericRecordToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.BeamRowToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.Row;
import org.apache.thrift.TBase;
import org.apache.thrift.protocol.TType;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The converters against Beam's own Storage Write API converters: for the same event, all four
 * formats, both decoding paths and both protocols must give byte-identical Storage API protos.
 */
@RunWith(Parameterized.class)
public class EventConvertersTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("event_id", "7", "a", "b"));

  @Parameters(name = "{0} {1}")
  public static List<Object[]> parameters() {
    List<Object[]> parameters = new ArrayList<>();
    for (String className : List.of(Event.class.getName(), AllTypes.class.getName())) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        parameters.add(new Object[] {className, protocol});
      }
    }
    return parameters;
  }

  private final String className;
  private final ThriftProtocol protocol;
  private final EventSchemas schemas;
  private final Descriptor descriptor;

  public EventConvertersTest(String className, ThriftProtocol protocol) throws Exception {
    this.className = className;
    this.protocol = protocol;
    this.schemas = EventSchemas.of(className, MetadataColumns.ALL);
    this.descriptor =
        TableRowToStorageApiProto.getDescriptorFromTableSchema(schemas.tableSchema(), true, false);
  }

  private TBase<?, ?> event(Random random) {
    return className.equals(Event.class.getName())
        ? TestEvents.sampleEvent(random)
        : TestEvents.allTypes(random);
  }

  private <T> EventConverter<T> converter(StorageFormat format) {
    return EventConverters.create(
        ConverterConfig.of(className, protocol, MetadataColumns.ALL), format);
  }

  private ByteString tableRowProto(TableRow row) throws Exception {
    return TableRowToStorageApiProto.messageFromTableRow(
            TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
                TableRowToStorageApiProto.schemaToProtoTableSchema(schemas.tableSchema())),
            descriptor,
            row,
            false,
            false,
            null,
            null,
            -1)
        .toByteString();
  }

  private ByteString rowProto(Row row) {
    return BeamRowToStorageApiProto.messageFromBeamRow(descriptor, row, null, -1).toByteString();
  }

  /**
   * The PROTO_MESSAGE converter: the sample's generated class for the sample event; for the other
   * test struct, which has no generated class, a DynamicMessage over the same derived descriptor.
   */
  private EventConverter<Message> protoConverter() throws Exception {
    ConverterConfig config = ConverterConfig.of(className, protocol, MetadataColumns.ALL);
    if (className.equals(Event.class.getName())) {
      return EventConverters.create(
          config.withProtoClassName(EventRowWithMetadata.class.getName()),
          StorageFormat.PROTO_MESSAGE);
    }
    Descriptor message =
        FileDescriptor.buildFrom(
                ProtoSchemas.fileFor(schemas.tableSchema(), "io.example", "AllTypesRow"),
                new FileDescriptor[0])
            .getMessageTypes()
            .get(0);
    // Only the top-level record is a message; nested records stay encoded bytes.
    @SuppressWarnings({"unchecked", "rawtypes"})
    EventConverter<Message> converter =
        (EventConverter)
            new ThriftRowConverter<>(
                config,
                schemas,
                new ProtoMessageFormat(
                    schemas.tableSchema(),
                    message,
                    DynamicMessage.getDefaultInstance(message).getParserForType()));
    return converter;
  }

  private ByteString avroProto(GenericRecord record) {
    return AvroGenericRecordToStorageApiProto.messageFromGenericRecord(descriptor, record, null, -1)
        .toByteString();
  }

  @Test
  public void allFormatsAndBothPathsGiveTheSameStorageApiRow() throws Exception {
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    EventConverter<Row> rows = converter(StorageFormat.BEAM_ROW);
    EventConverter<GenericRecord> records = converter(StorageFormat.AVRO_GENERIC_RECORD);
    EventConverter<Message> messages = protoConverter();
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      TBase<?, ?> event = event(random);
      byte[] payload = TestEvents.serialize(event, protocol);

      ByteString expected = tableRowProto(tableRows.fromBytes(payload, METADATA));
      assertEquals(
          "TableRow from object", expected, tableRowProto(tableRows.fromEvent(event, METADATA)));
      assertEquals("Row from bytes", expected, rowProto(rows.fromBytes(payload, METADATA)));
      assertEquals("Row from object", expected, rowProto(rows.fromEvent(event, METADATA)));
      GenericRecord record = records.fromBytes(payload, METADATA);
      assertEquals("Avro from bytes", expected, avroProto(record));
      assertEquals("Avro from object", expected, avroProto(records.fromEvent(event, METADATA)));
      // What the sink sends for PROTO_MESSAGE is the message's own bytes.
      assertEquals(
          "Proto from bytes", expected, messages.fromBytes(payload, METADATA).toByteString());
      assertEquals(
          "Proto from object", expected, messages.fromEvent(event, METADATA).toByteString());
      assertEquals("decode() round trip", event, tableRows.decode(payload));
    }
  }

  @Test
  public void nonAsciiAndMalformedUtf8StringsGiveTheSameRowInEveryFormat() throws Exception {
    assumeTrue("needs the sample event's string fields", className.equals(Event.class.getName()));
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    EventConverter<Row> rows = converter(StorageFormat.BEAM_ROW);
    EventConverter<Message> messages = protoConverter();
    Event event = TestEvents.sampleEvent(new Random(17));
    event.setPage_url("Zürich ✓ 東京 😀");
    event.setUser_id("@@@@@@");
    byte[] payload = TestEvents.serialize(event, protocol);
    // Bad UTF-8 in place of the marker: a lone continuation byte, a truncated sequence, an
    // invalid byte, an encoded surrogate. Thrift's readString turns each into U+FFFD.
    byte[] malformed = {(byte) 0x80, 'a', (byte) 0xC3, (byte) 0xFF, (byte) 0xED, (byte) 0xA0};
    int at = indexOf(payload, "@@@@@@".getBytes(StandardCharsets.UTF_8));
    System.arraycopy(malformed, 0, payload, at, malformed.length);

    ByteString expected = tableRowProto(tableRows.fromBytes(payload, METADATA));
    assertEquals(expected, rowProto(rows.fromBytes(payload, METADATA)));
    assertEquals(expected, messages.fromBytes(payload, METADATA).toByteString());
    assertEquals("Zürich ✓ 東京 😀", tableRows.fromBytes(payload, METADATA).get("page_url"));
    assertThat(
        (String) tableRows.fromBytes(payload, METADATA).get("user_id"), containsString("\uFFFD"));
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("marker not found");
  }

  @Test
  public void rowsSurviveTheirCoders() throws Exception {
    EventConverter<Row> rows = converter(StorageFormat.BEAM_ROW);
    EventConverter<GenericRecord> records = converter(StorageFormat.AVRO_GENERIC_RECORD);
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    RowCoder rowCoder = RowCoder.of(schemas.beamSchema());
    org.apache.beam.sdk.coders.Coder<GenericRecord> avroCoder = AvroCoder.of(schemas.avroSchema());
    Random random = new Random(7);
    for (int i = 0; i < 50; i++) {
      byte[] payload = TestEvents.serialize(event(random), protocol);
      Row row = rows.fromBytes(payload, METADATA);
      // RowCoder verifies every value against the schema's types when it encodes.
      assertEquals(rowProto(row), rowProto(CoderUtils.clone(rowCoder, row)));
      GenericRecord record = records.fromBytes(payload, METADATA);
      assertTrue(GenericData.get().validate(schemas.avroSchema(), record));
      assertEquals(avroProto(record), avroProto(CoderUtils.clone(avroCoder, record)));
      TableRow tableRow = tableRows.fromBytes(payload, METADATA);
      assertEquals(
          tableRowProto(tableRow),
          tableRowProto(CoderUtils.clone(TableRowJsonCoder.of(), tableRow)));
    }
  }

  @Test
  public void everyTruncationIsADecodeError() throws Exception {
    EventConverter<GenericRecord> records = converter(StorageFormat.AVRO_GENERIC_RECORD);
    byte[] payload = TestEvents.serialize(event(new Random(3)), protocol);
    for (int length = 0; length < payload.length; length++) {
      byte[] truncated = Arrays.copyOf(payload, length);
      assertThrows(ThriftDecodeException.class, () -> records.fromBytes(truncated, METADATA));
      assertThrows(ThriftDecodeException.class, () -> records.decode(truncated));
    }
  }

  @Test
  public void randomBytesNeverEscapeAsAnotherException() {
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    Random random = new Random(11);
    int failures = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] garbage = TestEvents.bytes(random, 1 + random.nextInt(2000));
      try {
        tableRows.fromBytes(garbage, METADATA);
      } catch (ThriftDecodeException expected) {
        failures++;
      }
    }
    assertThat("random bytes must not decode as valid events", failures, equalTo(2000));
  }

  @Test
  public void trailingBytesAreRejected() {
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    byte[] payload = TestEvents.serialize(event(new Random(5)), protocol);
    byte[] longer = Arrays.copyOf(payload, payload.length + 3);
    ThriftDecodeException error =
        assertThrows(ThriftDecodeException.class, () -> tableRows.fromBytes(longer, METADATA));
    assertThat(error.getMessage(), containsString("bytes left after the end of the struct"));
  }

  @Test
  public void anotherStructTypeIsRejected() {
    if (!className.equals(Event.class.getName())) {
      return;
    }
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    byte[] product = TestEvents.serialize(new Product().setSku("sku-1").setQuantity(3), protocol);
    ThriftDecodeException error =
        assertThrows(ThriftDecodeException.class, () -> tableRows.fromBytes(product, METADATA));
    assertThat(error.getMessage(), containsString("Required field"));
    assertThrows(ThriftDecodeException.class, () -> tableRows.decode(product));
  }

  @Test
  public void hugeDeclaredLengthsFailWithoutAllocating() throws IOException {
    if (protocol != ThriftProtocol.BINARY || !className.equals(Event.class.getName())) {
      return;
    }
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    // Field 1 (string) declaring 2 GB, then field 6 (list<Product>) declaring 2^31-1 elements.
    ByteArrayOutputStream hugeString = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(hugeString);
    out.writeByte(TType.STRING);
    out.writeShort(1);
    out.writeInt(Integer.MAX_VALUE);
    out.write(new byte[16]);
    ThriftDecodeException stringError =
        assertThrows(
            ThriftDecodeException.class,
            () -> tableRows.fromBytes(hugeString.toByteArray(), METADATA));
    assertThat(stringError.getMessage(), containsString("Cannot decode"));

    ByteArrayOutputStream hugeList = new ByteArrayOutputStream();
    out = new DataOutputStream(hugeList);
    out.writeByte(TType.LIST);
    out.writeShort(6);
    out.writeByte(TType.STRUCT);
    out.writeInt(Integer.MAX_VALUE);
    out.write(new byte[16]);
    assertThrows(
        ThriftDecodeException.class, () -> tableRows.fromBytes(hugeList.toByteArray(), METADATA));
    assertThrows(ThriftDecodeException.class, () -> tableRows.decode(hugeList.toByteArray()));
  }

  @Test
  public void emptyPayloadIsADecodeError() {
    EventConverter<Row> rows = converter(StorageFormat.BEAM_ROW);
    ThriftDecodeException error =
        assertThrows(ThriftDecodeException.class, () -> rows.fromBytes(new byte[0], METADATA));
    assertThat(error.getMessage(), containsString("Empty payload"));
  }

  @Test
  public void defaultsMatchTheGeneratedObject() throws Exception {
    if (!className.equals(AllTypes.class.getName())) {
      return;
    }
    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    AllTypes minimal = TestEvents.allTypes(new Random(1)).setA_enum(null);
    minimal.unsetInt_with_default();
    minimal.setWith_default(null);
    byte[] payload = TestEvents.serialize(minimal, protocol);
    TableRow fromBytes = tableRows.fromBytes(payload, EventMetadata.EMPTY);
    // The generated reader leaves a defaulted string set ("hello") and a defaulted i32 unset.
    assertEquals(tableRows.fromEvent(tableRows.decode(payload), EventMetadata.EMPTY), fromBytes);
    assertThat(fromBytes.get("int_with_default"), nullValue());
  }

  @Test
  public void clearedRequiredFieldIsAConversionError() {
    if (!className.equals(Event.class.getName())) {
      return;
    }
    EventConverter<GenericRecord> records = converter(StorageFormat.AVRO_GENERIC_RECORD);
    Event event = TestEvents.sampleEvent(new Random(9));
    event.setEvent_id(null);
    ConversionException error =
        assertThrows(ConversionException.class, () -> records.fromEvent(event, METADATA));
    assertThat(error.getMessage(), containsString("event_id"));
  }
}
