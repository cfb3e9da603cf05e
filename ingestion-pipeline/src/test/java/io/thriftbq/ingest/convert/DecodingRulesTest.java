package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.UnknownEnumValues;
import java.util.Map;
import org.junit.Test;

/** How skipped fields are counted and named for the report. */
public class DecodingRulesTest {
  private static DecodingRules rules() {
    return new DecodingRules(
        1024, 1024, 1_000_000, UnknownEnumValues.KEEP, InvalidUtf8.DEAD_LETTER);
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
