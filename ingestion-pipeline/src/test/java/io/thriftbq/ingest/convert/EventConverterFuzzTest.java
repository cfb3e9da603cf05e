package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import io.thriftbq.schema.ThriftSource;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz tests of the Thrift converters (sample {@link Event}, binary and compact protocol). The
 * property: any payload ends as a row or as a dead letter ({@link ThriftDecodeException} or {@link
 * ConversionException}) with a reason; never another exception, a hang, or an allocation far out of
 * proportion to the payload. Each input file is the raw Pub/Sub message data.
 *
 * <p>Regression mode (every {@code ./mvnw verify}) replays {@code
 * src/test/resources/io/thriftbq/ingest/convert/EventConverterFuzzTestInputs/<method>/**} and the
 * generator seeds below; fuzzing: docs/FUZZING.md.
 */
class EventConverterFuzzTest {
  private static final String EVENT = Event.class.getName();
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("a", "b"));

  /**
   * Heuristic allocation bound: a decoded value costs a few dozen bytes of objects per wire byte at
   * most (a one-byte bool or an empty string becomes a boxed value in a list and a row cell).
   */
  private static final long ALLOCATION_PER_PAYLOAD_BYTE = 512;

  private static final long ALLOCATION_SLACK = 2L * 1024 * 1024;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static final ConverterConfig BINARY =
      ConverterConfig.of(EVENT, ThriftProtocol.BINARY, MetadataColumns.NONE);

  private static final EventConverter<TableRow> TABLE_ROWS =
      TestConverters.create(BINARY, StorageFormat.TABLE_ROW);

  private static final EventConverter<TableRow> TABLE_ROWS_COMPACT =
      TestConverters.create(
          ConverterConfig.of(EVENT, ThriftProtocol.COMPACT, MetadataColumns.NONE),
          StorageFormat.TABLE_ROW);

  /** Real events from the data generator: default shape, and small complete ones. */
  static Stream<byte[]> binaryEvents() {
    return generatorSeeds(ThriftProtocol.BINARY);
  }

  static Stream<byte[]> compactEvents() {
    return generatorSeeds(ThriftProtocol.COMPACT);
  }

  static Stream<byte[]> generatorSeeds(ThriftProtocol protocol) {
    List<byte[]> seeds = new ArrayList<>();
    RandomEventGenerator typical =
        new RandomEventGenerator(
            GeneratorConfig.builder().className(EVENT).seed(1).protocol(protocol).build());
    RandomEventGenerator small =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .className(EVENT)
                .seed(2)
                .protocol(protocol)
                .completeObjects(true)
                .minStringLength(0)
                .maxStringLength(4)
                .maxCollectionSize(2)
                .build());
    for (long i = 0; i < 4; i++) {
      seeds.add(typical.serialize(i));
      seeds.add(small.serialize(i));
    }
    return seeds.stream();
  }

  @MethodSource("binaryEvents")
  @FuzzTest(maxDuration = "5m")
  void tableRowBinary(byte[] payload) {
    assertRowOrDeadLetterInProportion(TABLE_ROWS, payload);
  }

  /** The compact protocol has its own varint and size decoding: the same property, fuzzed apart. */
  @MethodSource("compactEvents")
  @FuzzTest(maxDuration = "5m")
  void tableRowCompact(byte[] payload) {
    assertRowOrDeadLetterInProportion(TABLE_ROWS_COMPACT, payload);
  }

  private static void assertRowOrDeadLetterInProportion(
      EventConverter<TableRow> converter, byte[] payload) {
    Callable<TableRow> convert = () -> converter.fromBytes(payload, METADATA);
    long before = THREADS.getCurrentThreadAllocatedBytes();
    Outcome<TableRow> outcome = Outcome.of(convert);
    assertAllocationInProportion(
        THREADS.getCurrentThreadAllocatedBytes() - before, convert, payload);
    if (outcome.row != null) {
      assertFalse(outcome.row.isEmpty(), "a row without columns");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Differential: every format and both decoding paths must agree on the same payload.

  private static final StorageWriteBytes STORAGE_BYTES =
      StorageWriteBytes.forTable(EventSchemas.of(EVENT, MetadataColumns.NONE));

  /** The four formats' converters for one protocol. */
  private record Formats(
      EventConverter<TableRow> tableRows,
      EventConverter<Row> rows,
      EventConverter<GenericRecord> records,
      EventConverter<Message> messages,
      ThriftProtocol protocol) {
    static Formats of(ConverterConfig config) {
      return new Formats(
          TestConverters.create(config, StorageFormat.TABLE_ROW),
          TestConverters.create(config, StorageFormat.BEAM_ROW),
          TestConverters.create(config, StorageFormat.AVRO_GENERIC_RECORD),
          TestConverters.create(config, StorageFormat.PROTO_MESSAGE),
          config.protocol());
    }
  }

  private static final Formats BINARY_FORMATS = Formats.of(BINARY);
  private static final Formats COMPACT_FORMATS =
      Formats.of(ConverterConfig.of(EVENT, ThriftProtocol.COMPACT, MetadataColumns.NONE));

  /**
   * decode()'s one pass against the two-pass decode it replaces (one converter each, with the
   * unknown-fields column): the same object or reason, and the same counts, on every input.
   */
  private static final Map<ThriftProtocol, ThriftRowConverter<?, ?>[]> ONE_AND_TWO_PASS =
      new EnumMap<>(ThriftProtocol.class);

  private static void assertOnePassAgrees(
      String className, ThriftProtocol protocol, byte[] payload) {
    ThriftRowConverter<?, ?>[] pair =
        ONE_AND_TWO_PASS.computeIfAbsent(
            protocol,
            p -> {
              ConverterConfig config =
                  ConverterConfig.of(className, p, MetadataColumns.NONE.withUnknownFields(true));
              return new ThriftRowConverter<?, ?>[] {
                (ThriftRowConverter<?, ?>) TestConverters.create(config, StorageFormat.TABLE_ROW),
                (ThriftRowConverter<?, ?>) TestConverters.create(config, StorageFormat.TABLE_ROW)
              };
            });
    ObjectDecodeTest.assertSameOutcome(className, pair[0], pair[1], payload);
  }

  @MethodSource("binaryEvents")
  @FuzzTest(maxDuration = "5m")
  void allFormatsBinary(byte[] payload) {
    assertFormatsAgree(BINARY_FORMATS, payload);
  }

  @MethodSource("compactEvents")
  @FuzzTest(maxDuration = "5m")
  void allFormatsCompact(byte[] payload) {
    assertFormatsAgree(COMPACT_FORMATS, payload);
  }

  private static void assertFormatsAgree(Formats formats, byte[] payload) {
    EventConverter<TableRow> tableRows = formats.tableRows();
    assertOnePassAgrees(EVENT, formats.protocol(), payload);
    // What each format would hand the Storage Write API, or the dead letter it would produce.
    Outcome<ByteString> tableRow =
        Outcome.of(() -> STORAGE_BYTES.of(tableRows.fromBytes(payload, METADATA)));
    Outcome<ByteString> row =
        Outcome.of(() -> STORAGE_BYTES.of(formats.rows().fromBytes(payload, METADATA)));
    Outcome<ByteString> avro =
        Outcome.of(() -> STORAGE_BYTES.of(formats.records().fromBytes(payload, METADATA)));
    Outcome<ByteString> proto =
        Outcome.of(() -> STORAGE_BYTES.of(formats.messages().fromBytes(payload, METADATA)));
    assertSame("BEAM_ROW", tableRow, row);
    assertSame("AVRO_GENERIC_RECORD", tableRow, avro);
    assertSame("PROTO_MESSAGE", tableRow, proto);
    long unknownEnumValues = tableRows.takeUnknownEnumValues();
    for (EventConverter<?> converter :
        List.of(formats.rows(), formats.records(), formats.messages())) {
      assertEquals(
          unknownEnumValues,
          converter.takeUnknownEnumValues(),
          "formats disagree on how many unknown enum values the payload holds");
    }
    assertChangesAgree(formats, payload, tableRow.row != null);
    // Its conversions counted unknown enum values again; what follows counts afresh.
    for (EventConverter<?> converter :
        List.of(tableRows, formats.rows(), formats.records(), formats.messages())) {
      converter.takeUnknownEnumValues();
    }

    // The user-function path: decode to the Thrift object, then convert it. It must accept
    // exactly the payloads the bytes path accepts. Its sets and maps come out in the object's
    // (hash) order rather than the wire order, so its row is compared with the bytes path on the
    // object re-serialized, which has that same order.
    Outcome<TBase<?, ?>> decoded = Outcome.of(() -> tableRows.decode(payload));
    tableRows.takeUnknownEnumValues();
    if (tableRow.row != null && unknownEnumValues > 0) {
      // The contract's one difference: the generated class cannot hold an enum number its IDL
      // does not name, so the object path refuses what the bytes path keeps as UNKNOWN_<n>.
      assertNotNull(decoded.deadLetter, "decode() accepted an unknown enum value");
      assertTrue(decoded.deadLetter.getMessage().contains("has no value"), decoded.describe());
      return;
    }
    assertEquals(
        tableRow.describe(),
        decoded.describe(),
        "decode() disagrees with fromBytes() on whether the payload is a row");
    if (decoded.row != null) {
      byte[] reserialized = serialize(decoded.row, formats.protocol());
      Outcome<ByteString> viaObject =
          Outcome.of(() -> STORAGE_BYTES.of(tableRows.fromEvent(decoded.row, METADATA)));
      Outcome<ByteString> viaBytes =
          Outcome.of(() -> STORAGE_BYTES.of(tableRows.fromBytes(reserialized, METADATA)));
      assertSame("decode() + fromEvent()", viaBytes, viaObject);
    }
  }

  // Change mode: the same rule read from each format's row gives the same change, or refuses the
  // event for the same reason; PROTO_MESSAGE's one-pass writer stamps the same pseudo-columns as
  // the general path. The rule's fields are ones hostile input reaches: an optional key (missing
  // keys), an enum change type (values in neither list, unknown enum numbers), a required i64
  // sequence.
  private static final io.thriftbq.ingest.change.ChangeRule CHANGE_RULE = changeRule();

  private static final Map<ThriftProtocol, EventConverter<EncodedRow>> STAMPING =
      new EnumMap<>(ThriftProtocol.class);

  private static io.thriftbq.ingest.change.ChangeRule changeRule() {
    List<String> problems = new java.util.ArrayList<>();
    io.thriftbq.ingest.change.ChangeRule rule =
        io.thriftbq.ingest.change.ChangeRule.of(
            io.thriftbq.change.ChangeSpec.parse(
                "user_id",
                "field:event_type",
                "field:event_time",
                List.of("PAGE_VIEW", "CLICK", "ADD_TO_CART", "SEARCH"),
                List.of("PURCHASE"),
                problems),
            "Event",
            EventSchemas.of(EVENT, MetadataColumns.NONE).tableSchema(),
            problems);
    assertEquals(List.of(), problems);
    return rule;
  }

  @SuppressWarnings("unchecked")
  private static void assertChangesAgree(Formats formats, byte[] payload, boolean isRow) {
    if (!isRow) {
      return;
    }
    try {
      List<String> outcomes = new java.util.ArrayList<>();
      for (Map.Entry<StorageFormat, EventConverter<?>> format :
          Map.<StorageFormat, EventConverter<?>>of(
                  StorageFormat.TABLE_ROW, formats.tableRows(),
                  StorageFormat.BEAM_ROW, formats.rows(),
                  StorageFormat.AVRO_GENERIC_RECORD, formats.records(),
                  StorageFormat.PROTO_MESSAGE, formats.messages())
              .entrySet()) {
        Object row = format.getValue().fromBytes(payload, METADATA);
        io.thriftbq.ingest.change.ColumnReader<Object> reader =
            (io.thriftbq.ingest.change.ColumnReader<Object>)
                io.thriftbq.ingest.format.Format.of(format.getKey()).columnReader();
        outcomes.add(changeOf(() -> CHANGE_RULE.decide(row, reader, METADATA).toString()));
      }
      assertEquals(1, new java.util.HashSet<>(outcomes).size(), "formats disagree: " + outcomes);

      // The one-pass writer's stamp against the general path's: the same bytes, or the same
      // refusal.
      EncodedRow plain = (EncodedRow) formats.messages().fromBytes(payload, METADATA);
      int changeTypeNumber =
          io.thriftbq.ingest.change.ChangeColumns.changeTypeNumber(
              EventSchemas.of(EVENT, MetadataColumns.NONE).tableSchema().getFields().size());
      String reference =
          changeOf(
              () ->
                  java.util.HexFormat.of()
                      .formatHex(
                          io.thriftbq.ingest.change.ChangeColumns.stamp(
                                  plain,
                                  CHANGE_RULE.decide(
                                      plain,
                                      io.thriftbq.ingest.change.ColumnReaders.encodedRows(),
                                      METADATA),
                                  changeTypeNumber)
                              .bytes()));
      EventConverter<EncodedRow> stamping =
          STAMPING.computeIfAbsent(
              formats.protocol(),
              p ->
                  (EventConverter<EncodedRow>)
                      io.thriftbq.ingest.format.Format.of(StorageFormat.PROTO_MESSAGE)
                          .newConverter(
                              ConverterConfig.of(EVENT, p, MetadataColumns.NONE), CHANGE_RULE));
      String written =
          changeOf(
              () -> {
                EncodedRow row = stamping.fromBytes(payload, METADATA);
                EncodedRow complete =
                    row.hasChangeColumns()
                        ? row
                        : io.thriftbq.ingest.change.ChangeColumns.stamp(
                            row,
                            CHANGE_RULE.decide(
                                row,
                                io.thriftbq.ingest.change.ColumnReaders.encodedRows(),
                                METADATA),
                            changeTypeNumber);
                return java.util.HexFormat.of().formatHex(complete.bytes());
              });
      assertEquals(reference, written, "the stamping converter against the general path");
      assertEquals(
          outcomes.get(0).startsWith("no change"),
          reference.startsWith("no change"),
          "the stamp and the formats' rule disagree on whether the event is a change");
    } catch (ThriftDecodeException e) {
      throw new AssertionError("a payload that decoded once did not decode again", e);
    }
  }

  /** {@code change}'s result, or {@code no change: <reason>} when the rule refuses the event. */
  private static String changeOf(Callable<String> change) throws ThriftDecodeException {
    try {
      return change.call();
    } catch (io.thriftbq.ingest.change.ChangeException e) {
      return "no change: " + e.getMessage();
    } catch (ThriftDecodeException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] serialize(TBase<?, ?> event, ThriftProtocol protocol) {
    try {
      return new TSerializer(
              protocol == ThriftProtocol.BINARY
                  ? new TBinaryProtocol.Factory()
                  : new org.apache.thrift.protocol.TCompactProtocol.Factory())
          .serialize(event);
    } catch (TException e) {
      throw new AssertionError("a decoded event does not serialize", e);
    }
  }

  private static void assertSame(
      String what, Outcome<ByteString> expected, Outcome<ByteString> actual) {
    assertEquals(
        expected.describe(),
        actual.describe(),
        what + " disagrees with TABLE_ROW on whether the payload is a row");
    assertEquals(expected.row, actual.row, what + " gives another row than TABLE_ROW");
  }

  // ---------------------------------------------------------------------------------------------
  // An IDL given at launch (no generated class): the codec tree is built from the parsed IDL. It
  // must treat every payload exactly as the generated class of the same IDL does, in every format
  // and both protocols: the same rows, and dead letters with the same reason. AllTypes has every
  // Thrift type, typedefs, a union, nested and keyed structs, and fields with IDL defaults.

  private static final String ALL_TYPES_CLASS = "io.thriftbq.testing.AllTypes";
  private static final ThriftSource ALL_TYPES_IDL =
      ThriftSource.idl("../thrift-common/src/test/thrift/all_types.thrift", List.of(), "AllTypes");

  /** The converters of one source, in the order TABLE_ROW, BEAM_ROW, AVRO, PROTO_MESSAGE. */
  private record SourceFormats(List<EventConverter<?>> converters) {
    static SourceFormats of(ThriftSource source, ThriftProtocol protocol) {
      ConverterConfig config = ConverterConfig.of(source, protocol, MetadataColumns.ALL);
      List<EventConverter<?>> converters = new ArrayList<>();
      for (StorageFormat format : StorageFormat.values()) {
        converters.add(TestConverters.create(config, format));
      }
      return new SourceFormats(converters);
    }
  }

  private static final StorageWriteBytes ALL_TYPES_STORAGE_BYTES =
      StorageWriteBytes.forTable(
          EventSchemas.of(ThriftSource.generatedClass(ALL_TYPES_CLASS), MetadataColumns.ALL));

  private static final Map<ThriftProtocol, ThriftRowConverter<?, ?>[]> ALL_TYPES_ONE_AND_TWO_PASS =
      new EnumMap<>(ThriftProtocol.class);

  private static void assertOnePassAgreesAllTypes(ThriftProtocol protocol, byte[] payload) {
    ThriftRowConverter<?, ?>[] pair =
        ALL_TYPES_ONE_AND_TWO_PASS.computeIfAbsent(
            protocol,
            p -> {
              ConverterConfig config =
                  ConverterConfig.of(
                      ALL_TYPES_CLASS, p, MetadataColumns.ALL.withUnknownFields(true));
              return new ThriftRowConverter<?, ?>[] {
                (ThriftRowConverter<?, ?>) TestConverters.create(config, StorageFormat.BEAM_ROW),
                (ThriftRowConverter<?, ?>) TestConverters.create(config, StorageFormat.BEAM_ROW)
              };
            });
    ObjectDecodeTest.assertSameOutcome(ALL_TYPES_CLASS, pair[0], pair[1], payload);
  }

  private static final Map<ThriftProtocol, SourceFormats> FROM_IDL =
      new EnumMap<>(ThriftProtocol.class);
  private static final Map<ThriftProtocol, SourceFormats> FROM_CLASS =
      new EnumMap<>(ThriftProtocol.class);

  static {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      FROM_IDL.put(protocol, SourceFormats.of(ALL_TYPES_IDL, protocol));
      FROM_CLASS.put(
          protocol, SourceFormats.of(ThriftSource.generatedClass(ALL_TYPES_CLASS), protocol));
    }
  }

  /**
   * Seeds for {@link #idlAtLaunch}: the first byte chooses the protocol (even: BINARY, odd:
   * COMPACT), the rest is the payload; sparse and complete AllTypes events of both protocols.
   */
  static Stream<byte[]> allTypesEvents() {
    List<byte[]> seeds = new ArrayList<>();
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      for (boolean complete : new boolean[] {false, true}) {
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder()
                    .className(ALL_TYPES_CLASS)
                    .protocol(protocol)
                    .seed(complete ? 3 : 4)
                    .completeObjects(complete)
                    .optionalFieldProbability(0.5)
                    .minStringLength(0)
                    .maxStringLength(6)
                    .maxCollectionSize(3)
                    .build());
        for (long i = 0; i < 3; i++) {
          seeds.add(withProtocolByte(protocol, generator.serialize(i)));
        }
      }
    }
    return seeds.stream();
  }

  private static byte[] withProtocolByte(ThriftProtocol protocol, byte[] payload) {
    byte[] input = new byte[payload.length + 1];
    input[0] = (byte) (protocol == ThriftProtocol.BINARY ? 0 : 1);
    System.arraycopy(payload, 0, input, 1, payload.length);
    return input;
  }

  @MethodSource("allTypesEvents")
  @FuzzTest(maxDuration = "5m")
  void idlAtLaunch(byte[] input) {
    if (input.length == 0) {
      return;
    }
    ThriftProtocol protocol = (input[0] & 1) == 0 ? ThriftProtocol.BINARY : ThriftProtocol.COMPACT;
    byte[] payload = Arrays.copyOfRange(input, 1, input.length);
    List<EventConverter<?>> fromIdl = FROM_IDL.get(protocol).converters();
    List<EventConverter<?>> fromClass = FROM_CLASS.get(protocol).converters();

    EventConverter<?> idlTableRows = fromIdl.get(0);
    Callable<Object> convert = () -> idlTableRows.fromBytes(payload, METADATA);
    long before = THREADS.getCurrentThreadAllocatedBytes();
    Outcome.of(convert);
    assertAllocationInProportion(
        THREADS.getCurrentThreadAllocatedBytes() - before, convert, payload);
    idlTableRows.takeUnknownEnumValues(); // counted again below
    assertOnePassAgreesAllTypes(protocol, payload);

    Outcome<ByteString> first = null;
    for (int f = 0; f < fromIdl.size(); f++) {
      EventConverter<?> idl = fromIdl.get(f);
      EventConverter<?> generated = fromClass.get(f);
      Outcome<ByteString> viaIdl =
          Outcome.of(() -> ALL_TYPES_STORAGE_BYTES.of(idl.fromBytes(payload, METADATA)));
      Outcome<ByteString> viaClass =
          Outcome.of(() -> ALL_TYPES_STORAGE_BYTES.of(generated.fromBytes(payload, METADATA)));
      String format = StorageFormat.values()[f].name();
      assertSame(format + " from the IDL, against the generated class", viaClass, viaIdl);
      if (viaClass.deadLetter != null) {
        assertEquals(
            viaClass.deadLetter.getMessage(),
            viaIdl.deadLetter.getMessage(),
            format + ": the IDL gives another dead-letter reason than the generated class");
      }
      assertEquals(
          generated.takeUnknownEnumValues(),
          idl.takeUnknownEnumValues(),
          format + ": another count of unknown enum values from the IDL");
      if (first == null) {
        first = viaIdl;
      } else {
        assertSame(format + " from the IDL", first, viaIdl);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Fails if converting {@code payload} allocates far more than its size. The first run of a new
   * code path also loads (and, when fuzzing, instruments) classes on this thread, which shows up as
   * allocation; so an input over the limit is converted again, and only that second run counts.
   */
  private static void assertAllocationInProportion(
      long allocated, Callable<?> convert, byte[] payload) {
    long limit = ALLOCATION_PER_PAYLOAD_BYTE * payload.length + ALLOCATION_SLACK;
    if (allocated > limit) {
      allocated = allocation(convert);
    }
    assertTrue(
        allocated <= limit,
        "decoding "
            + payload.length
            + " bytes allocated "
            + allocated
            + " bytes (limit "
            + limit
            + ")");
  }

  private static long allocation(Callable<?> convert) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    Outcome.of(convert);
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }
}
