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
import com.google.protobuf.Message;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Device;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.EventType;
import io.thriftbq.sample.Platform;
import io.thriftbq.sample.Product;
import io.thriftbq.sample.Session;
import io.thriftbq.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
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

  private ConverterConfig config() {
    return ConverterConfig.of(className, protocol, MetadataColumns.ALL);
  }

  private <T> EventConverter<T> converter(StorageFormat format) {
    return TestConverters.create(config(), format);
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

  /** The PROTO_MESSAGE converter: rows written straight to the derived message's bytes. */
  private EventConverter<EncodedRow> protoConverter() {
    return protoConverter(config());
  }

  private EventConverter<EncodedRow> protoConverter(ConverterConfig config) {
    return EventConverters.encodedRows(config);
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
    EventConverter<EncodedRow> messages = protoConverter();
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

  /** With {@code --invalidUtf8=REPLACE}: every format stores the same repaired text. */
  @Test
  public void nonAsciiAndMalformedUtf8StringsGiveTheSameRowInEveryFormat() throws Exception {
    assumeTrue("needs the sample event's string fields", className.equals(Event.class.getName()));
    ConverterConfig replace = config().withRules(UnknownEnumValues.KEEP, InvalidUtf8.REPLACE);
    EventConverter<TableRow> tableRows = TestConverters.create(replace, StorageFormat.TABLE_ROW);
    EventConverter<Row> rows = TestConverters.create(replace, StorageFormat.BEAM_ROW);
    EventConverter<EncodedRow> messages = protoConverter(replace);
    byte[] payload = malformedUtf8Event();
    ByteString expected = tableRowProto(tableRows.fromBytes(payload, METADATA));
    assertEquals("counted", 1, tableRows.takeInvalidUtf8Replaced());
    assertEquals("counted once", 0, tableRows.takeInvalidUtf8Replaced());
    assertEquals(expected, rowProto(rows.fromBytes(payload, METADATA)));
    assertEquals(expected, messages.fromBytes(payload, METADATA).toByteString());
    assertEquals(1, messages.takeInvalidUtf8Replaced());
    assertEquals("Zürich ✓ 東京 😀", tableRows.fromBytes(payload, METADATA).get("page_url"));
    assertThat(
        (String) tableRows.fromBytes(payload, METADATA).get("user_id"), containsString("\uFFFD"));
    // The object path (with a user function) gives the same text.
    assertEquals(
        tableRows.fromBytes(payload, METADATA).get("user_id"),
        tableRows.fromEvent(tableRows.decode(payload), METADATA).get("user_id"));
  }

  /** By default a string that is not UTF-8 is a DECODE dead letter in every format and path. */
  @Test
  public void malformedUtf8IsADeadLetterNamingTheFieldInEveryFormat() throws Exception {
    assumeTrue("needs the sample event's string fields", className.equals(Event.class.getName()));
    byte[] payload = malformedUtf8Event();
    List<EventConverter<?>> converters =
        List.of(
            converter(StorageFormat.TABLE_ROW),
            converter(StorageFormat.BEAM_ROW),
            converter(StorageFormat.AVRO_GENERIC_RECORD),
            protoConverter());
    for (EventConverter<?> converter : converters) {
      ThriftDecodeException error =
          assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(payload, METADATA));
      assertThat(error.getMessage(), containsString("Field 'user_id': string is not valid UTF-8"));
      ThriftDecodeException objectPath =
          assertThrows(ThriftDecodeException.class, () -> converter.decode(payload));
      assertEquals(error.getMessage(), objectPath.getMessage());
      assertEquals(0, converter.takeInvalidUtf8Replaced());
    }
  }

  private List<EventConverter<?>> everyFormat(ConverterConfig config) throws Exception {
    return List.of(
        TestConverters.create(config, StorageFormat.TABLE_ROW),
        TestConverters.create(config, StorageFormat.BEAM_ROW),
        TestConverters.create(config, StorageFormat.AVRO_GENERIC_RECORD),
        protoConverter(config));
  }

  /** The Storage Write API bytes of a row of any format, as the sinks would send them. */
  private ByteString storageApiBytes(Object row) throws Exception {
    if (row instanceof TableRow tableRow) {
      return tableRowProto(tableRow);
    } else if (row instanceof Row beamRow) {
      return rowProto(beamRow);
    } else if (row instanceof GenericRecord record) {
      return avroProto(record);
    }
    return ((Message) row).toByteString();
  }

  /**
   * An enum number the IDL does not name (a producer on a newer IDL), in a required top-level field
   * and in a required field of a nested optional struct: by default every format keeps it as
   * UNKNOWN_<n>, the same row, and counts it; the object path, whose generated class cannot hold
   * it, refuses it.
   */
  @Test
  public void unknownEnumValuesAreKeptAsUnknownNInEveryFormatAndCounted() throws Exception {
    assumeTrue("needs the sample event's enums", className.equals(Event.class.getName()));
    Event event = TestEvents.sampleEvent(new Random(23));
    event.setSession(
        new Session()
            .setSession_id("s-1")
            .setDevice(new Device().setPlatform(Platform.IOS).setModel("m")));
    byte[] topLevel = TestEvents.serializeWithI32(event, protocol, 999, 2);
    byte[] nested = TestEvents.serializeWithI32(event, protocol, -7, 5, 5, 1);

    EventConverter<TableRow> tableRows = converter(StorageFormat.TABLE_ROW);
    TableRow row = tableRows.fromBytes(topLevel, METADATA);
    assertEquals("UNKNOWN_999", row.get("event_type"));
    ByteString expectedTop = tableRowProto(row);
    ByteString expectedNested = tableRowProto(tableRows.fromBytes(nested, METADATA));
    for (EventConverter<?> converter : everyFormat(config())) {
      assertEquals(expectedTop, storageApiBytes(converter.fromBytes(topLevel, METADATA)));
      assertEquals(expectedNested, storageApiBytes(converter.fromBytes(nested, METADATA)));
      assertEquals(2, converter.takeUnknownEnumValues());
      ThriftDecodeException objectPath =
          assertThrows(ThriftDecodeException.class, () -> converter.decode(nested));
      assertThat(
          objectPath.getMessage(),
          containsString("Field 'session.device.platform': enum Platform has no value -7"));
      assertEquals(1, converter.takeUnknownEnumValues());
    }
    TableRow nestedRow = tableRows.fromBytes(nested, METADATA);
    assertEquals(
        "UNKNOWN_-7",
        ((TableRow) ((TableRow) nestedRow.get("session")).get("device")).get("platform"));
  }

  @Test
  public void unknownEnumValuesAreDeadLettersWhenAskedInEveryFormat() throws Exception {
    assumeTrue("needs the sample event's enums", className.equals(Event.class.getName()));
    byte[] payload =
        TestEvents.serializeWithI32(TestEvents.sampleEvent(new Random(29)), protocol, 999, 2);
    ConverterConfig deadLetter =
        config().withRules(UnknownEnumValues.DEAD_LETTER, InvalidUtf8.DEAD_LETTER);
    for (EventConverter<?> converter : everyFormat(deadLetter)) {
      ThriftDecodeException error =
          assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(payload, METADATA));
      assertThat(
          error.getMessage(),
          containsString("Field 'event_type': enum EventType has no value 999"));
      assertEquals(1, converter.takeUnknownEnumValues());
    }
  }

  /**
   * The string and binary limits hold in every format and on the object path: a value one byte over
   * is a DECODE dead letter, a value at the limit is a row.
   */
  @Test
  public void sizeLimitsHoldInEveryFormat() throws Exception {
    assumeTrue("needs the sample event's fields", className.equals(Event.class.getName()));
    int limit = 1000;
    ConverterConfig limited = config().withLimits(limit, 100);
    Event atLimit = TestEvents.sampleEvent(new Random(31));
    atLimit.setUser_id("u".repeat(limit));
    atLimit.setPayload_signature(new byte[limit]);
    Event longString = atLimit.deepCopy().setUser_id("u".repeat(limit + 1));
    Event longBinary = atLimit.deepCopy().setPayload_signature(new byte[limit + 1]);
    List<String> terms = new ArrayList<>();
    for (int i = 0; i <= 100; i++) {
      terms.add("t" + i);
    }
    Event longList = atLimit.deepCopy().setSearch_terms(terms);
    Map<String, Long> counters = new java.util.HashMap<>();
    for (int i = 0; i <= 100; i++) {
      counters.put("c" + i, (long) i);
    }
    Event largeMap = atLimit.deepCopy().setCounters(counters);
    for (EventConverter<?> converter : everyFormat(limited)) {
      converter.fromBytes(TestEvents.serialize(atLimit, protocol), METADATA);
      for (Event over : List.of(longString, longBinary, longList, largeMap)) {
        byte[] payload = TestEvents.serialize(over, protocol);
        assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(payload, METADATA));
        assertThrows(ThriftDecodeException.class, () -> converter.decode(payload));
      }
    }
  }

  /** Writes the sample event's three required fields, then {@code extra}, then STOP. */
  private byte[] craft(ThriftWriting extra) throws Exception {
    TMemoryBuffer buffer = new TMemoryBuffer(256);
    TProtocol out = protocol.newWriter(buffer);
    out.writeStructBegin(new TStruct("Event"));
    out.writeFieldBegin(new TField("event_id", TType.STRING, (short) 1));
    out.writeString("id-1");
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("event_type", TType.I32, (short) 2));
    out.writeI32(EventType.CLICK.getValue());
    out.writeFieldEnd();
    out.writeFieldBegin(new TField("event_time", TType.I64, (short) 3));
    out.writeI64(1_700_000_000_000L);
    out.writeFieldEnd();
    extra.write(out);
    out.writeFieldStop();
    out.writeStructEnd();
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  private interface ThriftWriting {
    void write(TProtocol out) throws Exception;
  }

  private static void stringField(TProtocol out, int id, String value) throws Exception {
    out.writeFieldBegin(new TField("", TType.STRING, (short) id));
    out.writeString(value);
    out.writeFieldEnd();
  }

  /**
   * The lines of the decoding contract (README) that need a hand-made payload, in every format and
   * both protocols, on both paths: fields a newer IDL added or retyped are skipped, the last of a
   * repeated field wins, and an empty union, mistyped container elements, trailing bytes and empty
   * payloads are dead letters.
   */
  @Test
  public void everyFormatFollowsTheDecodingContract() throws Exception {
    assumeTrue("hand-made sample events", className.equals(Event.class.getName()));
    byte[] plain = craft(out -> {});
    byte[] unknownField = craft(out -> stringField(out, 99, "from a newer IDL"));
    byte[] retypedField =
        craft(
            out -> {
              out.writeFieldBegin(new TField("user_id", TType.I64, (short) 4));
              out.writeI64(7);
              out.writeFieldEnd();
            });
    byte[] twice =
        craft(
            out -> {
              stringField(out, 4, "first");
              stringField(out, 4, "second");
            });
    byte[] emptyUnion =
        craft(
            out -> {
              out.writeFieldBegin(new TField("payment", TType.STRUCT, (short) 18));
              out.writeStructBegin(new TStruct("PaymentMethod"));
              out.writeFieldStop();
              out.writeStructEnd();
              out.writeFieldEnd();
            });
    byte[] unionOfANewerIdl =
        craft(
            out -> {
              out.writeFieldBegin(new TField("payment", TType.STRUCT, (short) 18));
              out.writeStructBegin(new TStruct("PaymentMethod"));
              stringField(out, 9, "a member a newer IDL added");
              out.writeFieldStop();
              out.writeStructEnd();
              out.writeFieldEnd();
            });
    byte[] mistypedElements =
        craft(
            out -> {
              out.writeFieldBegin(new TField("products", TType.LIST, (short) 6));
              out.writeListBegin(new TList(TType.I32, 1));
              out.writeI32(5);
              out.writeListEnd();
              out.writeFieldEnd();
            });
    byte[] trailing = Arrays.copyOf(plain, plain.length + 2);

    for (EventConverter<?> converter : everyFormat(config())) {
      ByteString expected = storageApiBytes(converter.fromBytes(plain, METADATA));
      assertEquals(expected, storageApiBytes(converter.fromBytes(unknownField, METADATA)));
      assertEquals(expected, storageApiBytes(converter.fromBytes(retypedField, METADATA)));
      assertEquals(
          storageApiBytes(converter.fromBytes(twice, METADATA)),
          storageApiBytes(
              converter.fromBytes(craft(out -> stringField(out, 4, "second")), METADATA)));
      assertEquals("second", ((Event) converter.decode(twice)).getUser_id());
      assertEquals(null, ((Event) converter.decode(retypedField)).getUser_id());

      Map<byte[], String> deadLetters = new java.util.LinkedHashMap<>();
      deadLetters.put(emptyUnion, "Union PaymentMethod has 0 fields set");
      deadLetters.put(
          unionOfANewerIdl, "Union PaymentMethod has 0 fields set and 1 the IDL does not know");
      deadLetters.put(mistypedElements, "Container holds elements of wire type 8");
      deadLetters.put(trailing, "2 bytes left after the end of the struct");
      deadLetters.put(new byte[0], "Empty payload");
      deadLetters.put(
          TestEvents.serialize(new Product().setSku("sku-1").setQuantity(3), protocol),
          "Required field 'event_type' of Event is missing");
      deadLetters.put(Arrays.copyOf(plain, plain.length - 1), "Cannot decode a Event");
      for (Map.Entry<byte[], String> bad : deadLetters.entrySet()) {
        ThriftDecodeException bytesPath =
            assertThrows(
                ThriftDecodeException.class, () -> converter.fromBytes(bad.getKey(), METADATA));
        assertThat(bytesPath.getMessage(), containsString(bad.getValue()));
        ThriftDecodeException objectPath =
            assertThrows(ThriftDecodeException.class, () -> converter.decode(bad.getKey()));
        assertEquals(bytesPath.getMessage(), objectPath.getMessage());
      }
    }
  }

  /** The sample event with bad UTF-8 in user_id and valid non-ASCII text in page_url. */
  private byte[] malformedUtf8Event() {
    Event event = TestEvents.sampleEvent(new Random(17));
    event.setPage_url("Zürich ✓ 東京 😀");
    event.setUser_id("@@@@@@");
    byte[] payload = TestEvents.serialize(event, protocol);
    // Bad UTF-8 in place of the marker: a lone continuation byte, a truncated sequence, an
    // invalid byte, an encoded surrogate.
    byte[] malformed = {(byte) 0x80, 'a', (byte) 0xC3, (byte) 0xFF, (byte) 0xED, (byte) 0xA0};
    int at = indexOf(payload, "@@@@@@".getBytes(StandardCharsets.UTF_8));
    System.arraycopy(malformed, 0, payload, at, malformed.length);
    return payload;
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

  /**
   * A converter carries nothing from one payload to the next: every saved fuzz input of this
   * protocol, run through one converter in a row, gives what a fresh converter gives. (The compact
   * protocol keeps state between reads, and a payload that failed halfway once made the next valid
   * payload a dead letter; found by the differential fuzz test.)
   */
  @Test
  public void aConverterCarriesNothingFromOnePayloadToTheNext() throws Exception {
    assumeTrue("the saved fuzz inputs are sample events", className.equals(Event.class.getName()));
    List<byte[]> inputs = new ArrayList<>();
    String suffix = protocol == ThriftProtocol.BINARY ? "Binary" : "Compact";
    Path root = Path.of(getClass().getResource("EventConverterFuzzTestInputs").toURI());
    try (var files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        if (root.relativize(file).getName(0).toString().endsWith(suffix)) {
          inputs.add(Files.readAllBytes(file));
        }
      }
    }
    assertTrue("saved inputs for " + protocol + ": " + inputs.size(), inputs.size() > 100);
    EventConverter<TableRow> shared = converter(StorageFormat.TABLE_ROW);
    for (byte[] input : inputs) {
      EventConverter<TableRow> fresh = converter(StorageFormat.TABLE_ROW);
      assertEquals(
          outcome(() -> fresh.fromBytes(input, METADATA)),
          outcome(() -> shared.fromBytes(input, METADATA)));
      assertEquals(outcome(() -> fresh.decode(input)), outcome(() -> shared.decode(input)));
    }
  }

  /**
   * The compact protocol holds a bool's value between reading its field header and readBool. A
   * payload that fails in between (an unknown field nested deeper than the skip limit, ending in a
   * bool) must not leave that value for the next payload, whose first bool without a header (an
   * element of an unknown list<bool>) would then take it and read one byte short.
   */
  @Test
  public void aBoolLeftPendingByAFailedPayloadDoesNotReachTheNext() throws Exception {
    assumeTrue("hand-made sample events", className.equals(Event.class.getName()));
    byte[] tooDeep =
        craft(
            out -> {
              out.writeFieldBegin(new TField("", TType.STRUCT, (short) 99));
              // The bool sits in the struct where the decoder's skip limit (64 levels) runs out.
              for (int depth = 1; depth < 64; depth++) {
                out.writeStructBegin(new TStruct(""));
                out.writeFieldBegin(new TField("", TType.STRUCT, (short) 1));
              }
              out.writeStructBegin(new TStruct(""));
              out.writeFieldBegin(new TField("", TType.BOOL, (short) 1));
              out.writeBool(true);
              out.writeFieldEnd();
            });
    byte[] boolsOfANewerIdl =
        craft(
            out -> {
              out.writeFieldBegin(new TField("", TType.LIST, (short) 98));
              out.writeListBegin(new TList(TType.BOOL, 2));
              out.writeBool(false);
              out.writeBool(false);
              out.writeListEnd();
              out.writeFieldEnd();
            });
    for (EventConverter<?> converter : everyFormat(config())) {
      ByteString expected = storageApiBytes(converter.fromBytes(boolsOfANewerIdl, METADATA));
      assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(tooDeep, METADATA));
      assertEquals(expected, storageApiBytes(converter.fromBytes(boolsOfANewerIdl, METADATA)));
      assertThrows(ThriftDecodeException.class, () -> converter.decode(tooDeep));
      converter.decode(boolsOfANewerIdl);
    }
  }

  private static String outcome(java.util.concurrent.Callable<?> decode) {
    try {
      return "row " + decode.call();
    } catch (Exception e) {
      return "dead letter " + e.getMessage();
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
