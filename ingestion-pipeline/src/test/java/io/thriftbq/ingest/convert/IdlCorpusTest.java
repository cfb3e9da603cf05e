package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.ByteString;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.GeneratedTestIdl;
import io.thriftbq.schema.ThriftSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IDLs that are not the sample's, read at launch as a user's would be (no generated class):
 * typedefs across includes, negative and hex enum values, maps keyed by enums, numbers and bytes,
 * sets, containers three deep, field id 32767, an exception as a field type, unions with non-struct
 * members, fields named like SQL keywords ({@code src/test/resources/idl/corpus}). For every struct
 * and both protocols, every event the generator writes is a row, and every event and every damaged
 * copy of it (cut short, a byte changed, bytes appended) gives the same Storage Write bytes, or a
 * dead letter with the same reason, in all four formats.
 */
class IdlCorpusTest {
  private static final String CORPUS = "src/test/resources/idl/corpus/";
  private static final String LEGACY = GeneratedTestIdl.LEGACY.idl().toString();
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("k", "v"));
  private static final int EVENTS = 25;

  static Stream<Arguments> structs() {
    List<Arguments> structs = new ArrayList<>();
    // In a fixed order, so that the cases are numbered the same on every run.
    Map<String, List<String>> corpus = new LinkedHashMap<>();
    corpus.put(
        CORPUS + "fleet.thrift", List.of("Vehicle", "Trip", "FleetEvent", "common.Geo", "Oops"));
    corpus.put(CORPUS + "telemetry.thrift", List.of("Telemetry", "Payload", "Reading"));
    // fields written without an id (and its generated classes: IdlParityTest)
    corpus.put(LEGACY, List.of("Job", "Failure", "Step"));
    corpus.forEach(
        (idl, names) -> {
          for (String struct : names) {
            for (ThriftProtocol protocol : ThriftProtocol.values()) {
              structs.add(Arguments.of(idl, struct, protocol));
            }
          }
        });
    return structs.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("structs")
  void everyFormatTreatsEveryEventAndEveryDamagedCopyAlike(
      String idl, String struct, ThriftProtocol protocol) throws Exception {
    ThriftSource source = ThriftSource.idl(idl, List.of(), struct);
    ConverterConfig config = ConverterConfig.of(source, protocol, MetadataColumns.ALL);
    List<EventConverter<?>> converters = new ArrayList<>();
    for (StorageFormat format : StorageFormat.values()) {
      converters.add(TestConverters.create(config, format));
    }
    StorageWriteBytes storageBytes =
        StorageWriteBytes.forTable(EventSchemas.of(source, MetadataColumns.ALL));

    Random damage = new Random(struct.hashCode());
    int rows = 0;
    int deadLetters = 0;
    for (RandomEventGenerator generator : generators(source, protocol)) {
      for (long i = 0; i < EVENTS; i++) {
        byte[] event = generator.serialize(i);
        Outcome<ByteString> valid = assertFormatsAgree(converters, storageBytes, event);
        assertNotNull(
            valid.row,
            () -> "a generated " + struct + " event is a dead letter: " + valid.deadLetter);
        rows++;
        for (byte[] damaged : damagedCopies(event, damage)) {
          Outcome<ByteString> outcome = assertFormatsAgree(converters, storageBytes, damaged);
          if (outcome.row == null) {
            deadLetters++;
          }
        }
      }
    }
    assertEquals(2 * EVENTS, rows);
    assertTrue(deadLetters > 0, "no damaged copy was a dead letter: the damage is not exercised");
  }

  /**
   * A struct with no fields is a BOOLEAN column (BigQuery has no RECORD without fields): true where
   * the struct is on the wire, null where it is not, one true per element of a list of them. Its
   * unknown fields are skipped as any struct's, and keep the event in the unknown-fields column.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("protocols")
  void aStructWithNoFieldsIsTrueWhereItIsSent(ThriftProtocol protocol) throws Exception {
    ThriftSource source = ThriftSource.idl(CORPUS + "telemetry.thrift", List.of(), "Telemetry");
    ConverterConfig config =
        ConverterConfig.of(source, protocol, MetadataColumns.NONE.withUnknownFields(true));
    EventConverter<TableRow> tableRows = TestConverters.create(config, StorageFormat.TABLE_ROW);

    byte[] event =
        telemetry(
            protocol,
            out -> {
              out.writeFieldBegin(new TField("always", TType.STRUCT, (short) 13));
              out.writeStructBegin(new TStruct("Nothing"));
              out.writeFieldBegin(new TField("from_a_newer_idl", TType.I32, (short) 5));
              out.writeI32(42);
              out.writeFieldEnd();
              out.writeFieldStop();
              out.writeStructEnd();
              out.writeFieldEnd();
              out.writeFieldBegin(new TField("ticks", TType.LIST, (short) 14));
              out.writeListBegin(new TList(TType.STRUCT, 2));
              for (int i = 0; i < 2; i++) {
                out.writeStructBegin(new TStruct("Nothing"));
                out.writeFieldStop();
                out.writeStructEnd();
              }
              out.writeListEnd();
              out.writeFieldEnd();
            });

    TableRow row = tableRows.fromBytes(event, METADATA);
    assertEquals(Boolean.TRUE, row.get("always"));
    assertNull(row.get("empty"));
    assertEquals(List.of(Boolean.TRUE, Boolean.TRUE), row.get("ticks"));
    assertNotNull(row.get("_unknown_fields"), "the unknown field inside always was not kept");

    // Without "always" (required), the event is a dead letter naming it.
    byte[] withoutAlways = telemetry(protocol, out -> {});
    ThriftDecodeException missing =
        assertThrows(
            ThriftDecodeException.class, () -> tableRows.fromBytes(withoutAlways, METADATA));
    assertTrue(missing.getMessage().contains("always"), missing.getMessage());
  }

  static Stream<ThriftProtocol> protocols() {
    return Stream.of(ThriftProtocol.values());
  }

  private interface Fields {
    void write(TProtocol out) throws Exception;
  }

  /** A Telemetry event: its device, then {@code fields}. */
  private static byte[] telemetry(ThriftProtocol protocol, Fields fields) throws Exception {
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    TProtocol out = protocol.newWriter(buffer);
    out.writeStructBegin(new TStruct("Telemetry"));
    out.writeFieldBegin(new TField("device", TType.I64, (short) 1));
    out.writeI64(7);
    out.writeFieldEnd();
    fields.write(out);
    out.writeFieldStop();
    out.writeStructEnd();
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  private static List<RandomEventGenerator> generators(
      ThriftSource source, ThriftProtocol protocol) {
    GeneratorConfig.Builder sparse =
        GeneratorConfig.builder()
            .source(source)
            .protocol(protocol)
            .seed(11)
            .optionalFieldProbability(0.3)
            .minStringLength(0)
            .maxStringLength(5)
            .maxCollectionSize(3);
    return List.of(
        new RandomEventGenerator(sparse.build()),
        new RandomEventGenerator(
            sparse.seed(12).completeObjects(true).maxCollectionSize(2).build()));
  }

  /** Cut at a few places, one byte changed at a few places, and garbage after the end. */
  private static List<byte[]> damagedCopies(byte[] event, Random random) {
    List<byte[]> copies = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      copies.add(Arrays.copyOf(event, random.nextInt(event.length)));
      byte[] flipped = event.clone();
      flipped[random.nextInt(event.length)] = (byte) random.nextInt(256);
      copies.add(flipped);
    }
    byte[] longer = Arrays.copyOf(event, event.length + 3);
    longer[event.length] = 0x0B;
    longer[event.length + 1] = (byte) 0xFF;
    copies.add(longer);
    return copies;
  }

  private static Outcome<ByteString> assertFormatsAgree(
      List<EventConverter<?>> converters, StorageWriteBytes storageBytes, byte[] payload) {
    Outcome<ByteString> first = null;
    long firstUnknownEnums = 0;
    for (int f = 0; f < converters.size(); f++) {
      EventConverter<?> converter = converters.get(f);
      Outcome<ByteString> outcome =
          Outcome.of(() -> storageBytes.of(converter.fromBytes(payload, METADATA)));
      long unknownEnums = converter.takeUnknownEnumValues();
      if (first == null) {
        first = outcome;
        firstUnknownEnums = unknownEnums;
        continue;
      }
      String format = StorageFormat.values()[f].name();
      assertEquals(
          first.describe(), outcome.describe(), format + " disagrees with TABLE_ROW on a row");
      assertEquals(first.row, outcome.row, format + " gives another row than TABLE_ROW");
      assertEquals(first.reason(), outcome.reason(), format + " gives another dead-letter reason");
      assertEquals(firstUnknownEnums, unknownEnums, format + " counts other unknown enum values");
    }
    return first;
  }
}
