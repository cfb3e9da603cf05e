package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.schema.GeneratedTestIdl;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftIdl;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TBase;
import org.apache.thrift.protocol.TType;
import org.junit.Test;

/**
 * Each rule of the decoder, as every reader asks it: the limits, UTF-8, container element types,
 * required fields and union members, the row-size costs, and how skipped fields are counted and
 * named for the report.
 */
public class DecodingRulesTest {
  private static final Path LEGACY = GeneratedTestIdl.LEGACY.idl();

  private static DecodingRules rules() {
    return new DecodingRules(
        1024, 1024, 1_000_000, UnknownEnumValues.KEEP, InvalidUtf8.DEAD_LETTER);
  }

  private static DecodingRules replacing() {
    return new DecodingRules(1024, 1024, 1_000_000, UnknownEnumValues.KEEP, InvalidUtf8.REPLACE);
  }

  private static final ThriftType STRING =
      new ThriftType.Primitive(ThriftType.PrimitiveKind.STRING, null);
  private static final ThriftType I64 =
      new ThriftType.Primitive(ThriftType.PrimitiveKind.I64, null);

  @Test
  public void lengthsAndSizesUpToTheLimitFitAndOneMoreIsRefused() throws Exception {
    DecodingRules rules = rules();
    assertTrue(rules.lengthFits(1024));
    assertFalse(rules.lengthFits(1025));
    assertTrue(rules.sizeFits(1024));
    assertFalse(rules.sizeFits(1025));

    rules.startRow();
    rules.checkLength(1024);
    assertEquals(1024, rules.rowBytes());
    InvalidFieldValueException tooLong =
        assertThrows(InvalidFieldValueException.class, () -> rules.checkLength(1025));
    assertTrue(tooLong.getMessage(), tooLong.getMessage().contains("--maxThriftStringBytes=1024"));
    assertThrows(InvalidFieldValueException.class, () -> rules.checkBinary(1025));
    InvalidFieldValueException tooMany =
        assertThrows(InvalidFieldValueException.class, () -> rules.checkElements(1025));
    assertTrue(
        tooMany.getMessage(), tooMany.getMessage().contains("--maxThriftContainerElements=1024"));
  }

  @Test
  public void aRowFitsUpToMaxRowBytesWithItsMetadataAndOneByteMoreIsRefused() throws Exception {
    DecodingRules rules = rules(); // --maxRowBytes=1000000
    assertTrue(rules.rowFits(999_900, 100));
    assertFalse(rules.rowFits(999_901, 100));

    rules.startRow();
    rules.addRowBytes(999_900);
    rules.checkRowSize(100);
    ThriftDecodeException refused =
        assertThrows(ThriftDecodeException.class, () -> rules.checkRowSize(101));
    assertTrue(refused.getMessage(), refused.getMessage().contains("1000001 bytes"));
  }

  @Test
  public void aBinaryValueWeighsItsBytesAndTheirBase64() throws Exception {
    DecodingRules rules = rules();
    rules.startRow();
    rules.checkBinary(300);
    assertEquals(300 + 100 + 4, rules.rowBytes());
    assertEquals(404, DecodingRules.binaryRowBytes(300));
  }

  @Test
  public void utf8IsJudgedTheSameFromTheBytesAndFromTheirDecodedText() {
    byte[][] wellFormed = {
      "plain".getBytes(StandardCharsets.UTF_8),
      "d\u00e9j\u00e0 \u20ac".getBytes(StandardCharsets.UTF_8),
      "\uFFFD is a character too".getBytes(StandardCharsets.UTF_8),
    };
    byte[][] malformed = {
      {'a', (byte) 0xC3}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}
    };
    for (byte[] bytes : wellFormed) {
      assertTrue(DecodingRules.isWellFormed(bytes, 0, bytes.length));
      assertTrue(DecodingRules.isWellFormed(decoded(bytes), bytes, 0, bytes.length));
    }
    for (byte[] bytes : malformed) {
      assertFalse(DecodingRules.isWellFormed(bytes, 0, bytes.length));
      assertFalse(DecodingRules.isWellFormed(decoded(bytes), bytes, 0, bytes.length));
    }
  }

  private static String decoded(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  public void malformedUtf8IsADeadLetterOrReplacedAndCounted() throws Exception {
    byte[] bytes = {'a', (byte) 0xFF, 'b'};
    assertThrows(InvalidFieldValueException.class, () -> rules().string(bytes, 0, 3));

    DecodingRules replacing = replacing();
    assertEquals("a\uFFFDb", replacing.string(bytes, 0, 3));
    assertFalse(replacing.acceptUtf8(bytes, 0, 3));
    assertTrue(replacing.acceptUtf8(bytes, 0, 1));
    assertEquals(2, replacing.takeInvalidUtf8Replaced());
  }

  @Test
  public void containerElementsMustBeOfTheIdlTypeUnlessThereAreNone() {
    assertTrue(DecodingRules.elementsMatch(3, TType.STRING, TType.STRING));
    assertFalse(DecodingRules.elementsMatch(3, TType.I32, TType.STRING));
    assertTrue(DecodingRules.elementsMatch(0, TType.I32, TType.STRING));
    assertEquals(
        "Container holds elements of wire type 8 where the IDL says 11",
        DecodingRules.elementsMismatch(TType.I32, TType.STRING).getMessage());
  }

  @Test
  public void everyRequiredFieldMustBePresentAndAUnionHoldsExactlyOneKnownMember() {
    assertTrue(DecodingRules.requiredPresent(0b111, 0b101));
    assertFalse(DecodingRules.requiredPresent(0b011, 0b101));
    assertTrue(DecodingRules.requiredPresent(0, 0));
    assertTrue(
        DecodingRules.missingRequired("Event", "id")
            .getMessage()
            .startsWith("Required field 'id' of Event is missing"));

    assertTrue(DecodingRules.unionHoldsOne(1, 0));
    assertFalse(DecodingRules.unionHoldsOne(0, 0));
    assertFalse(DecodingRules.unionHoldsOne(2, 0));
    assertFalse(DecodingRules.unionHoldsOne(1, 1));
    assertEquals(
        "Union Choice has 1 fields set and 1 the IDL does not know;"
            + " a union holds exactly one known field",
        DecodingRules.notOneMember("Choice", 1, 1).getMessage());
  }

  @Test
  public void everyNaNBecomesTheOneCanonicalNaN() {
    double otherNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0123L);
    assertEquals(
        Double.doubleToRawLongBits(Double.NaN),
        Double.doubleToRawLongBits(DecodingRules.canonical(otherNaN)));
    assertEquals(-0.0, DecodingRules.canonical(-0.0), 0.0);
    assertEquals(
        Double.doubleToRawLongBits(-0.0),
        Double.doubleToRawLongBits(DecodingRules.canonical(-0.0)));
  }

  @Test
  public void anIdlDefaultFillsAnAbsentStringButNotAnAbsentNumber() {
    ThriftStruct struct = ThriftIdl.load(LEGACY, List.of(), "Point");
    byte[] encoded = {0, 0, 0, 1, 'x'};
    assertTrue(DecodingRules.takesDefault(struct, null, idlField(STRING, encoded)));
    assertFalse(DecodingRules.takesDefault(struct, null, idlField(I64, new byte[8])));
    assertFalse(DecodingRules.takesDefault(struct, null, idlField(STRING, null)));
  }

  /** The member with a default is what a new union object is set to, never what one read holds. */
  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void aUnionMembersDefaultNeverFillsAColumn() throws Exception {
    ThriftStruct fromIdl = ThriftIdl.load(LEGACY, List.of(), "Choice");
    ThriftStruct fromClass = ThriftStruct.of(io.thriftbq.testing.legacy.Choice.class);
    ThriftField label = fromIdl.fields().get(0);
    assertEquals("label", label.name());
    assertNotNull(label.idlDefault());
    assertFalse(DecodingRules.takesDefault(fromIdl, null, label));
    assertTrue(((TBase) fromClass.newInstance()).isSet(fromClass.fields().get(0).fieldEnum()));
    assertFalse(
        DecodingRules.takesDefault(fromClass, fromClass.newInstance(), fromClass.fields().get(0)));
  }

  private static ThriftField idlField(ThriftType type, byte[] idlDefault) {
    return new ThriftField(
        (short) 1, "f", ThriftField.Requirement.DEFAULT, type, null, idlDefault, null);
  }

  @Test
  public void rowCostsCountTheJsonAroundEachValue() {
    assertEquals(2 + 1, DecodingRules.listElementCost(STRING)); // "x",
    assertEquals(2 + 12, DecodingRules.listElementCost(new ThriftType.ListOf(STRING)));
    assertEquals(20 + 2 + 22, DecodingRules.mapEntryCost(STRING, I64));
    assertEquals("\"name\":".length() + 1 + 22, DecodingRules.fieldCost("name", I64));
    assertEquals(5, DecodingRules.enumNameCost("GREEN"));
    assertEquals("UNKNOWN_".length() + 12, DecodingRules.enumNameCost(null));
  }

  @Test
  public void skippedFieldsAreNamedByStructAndIdAndAKnownIdAlsoByItsWireType() {
    DecodingRules rules = rules();
    rules.unknownField("Event", (short) 99, (byte) 11, false);
    rules.unknownField(
        "Event", (short) 99, (byte) 8, false); // an unknown id: the type is not named
    rules.unknownField("Event", (short) 3, (byte) 10, true);
    rules.unknownField("Inner", (short) 99, (byte) 8, false);
    rules.unknownField("Event", (short) -2, (byte) 1, false);

    UnknownFields taken = rules.takeUnknownFields();

    assertEquals(5, taken.count());
    assertEquals(
        Map.of(
            "Event.99", 2L,
            "Event.3 (wire type 10, not the IDL's)", 1L,
            "Inner.99", 1L,
            "Event.-2", 1L),
        taken.byField());
    assertSame("taken means reset", UnknownFields.NONE, rules.takeUnknownFields());
  }

  @Test
  public void onlyTheFirstDistinctFieldsAreNamedButEveryOneIsCounted() {
    DecodingRules rules = rules();
    int distinct = DecodingRules.MAX_NAMED_UNKNOWN_FIELDS + 10;
    for (int round = 0; round < 3; round++) {
      for (short id = 100; id < 100 + distinct; id++) {
        rules.unknownField("Event", id, (byte) 8, false);
      }
    }
    UnknownFields taken = rules.takeUnknownFields();
    assertEquals(3L * distinct, taken.count());
    assertEquals(DecodingRules.MAX_NAMED_UNKNOWN_FIELDS, taken.byField().size());
    assertEquals(Long.valueOf(3), taken.byField().get("Event.100"));
    assertEquals(null, taken.byField().get("Event." + (100 + distinct - 1)));

    // After a report the names start over.
    rules.unknownField("Event", (short) (100 + distinct - 1), (byte) 8, false);
    assertEquals(Map.of("Event." + (100 + distinct - 1), 1L), rules.takeUnknownFields().byField());
  }
}
