package io.thriftbq.local.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The machine's ceilings beside the compared steps: the line, the share column, the JSON. */
public class MachineCeilingsTest {
  private static final MachineCeilings CEILINGS =
      new MachineCeilings(
          10_000,
          List.of(
              new MachineCeilings.Ceiling("pubsub_pull_ack", "Pub/Sub pull + ack", 5000.4),
              new MachineCeilings.Ceiling(
                  MachineCeilings.appendKey(500), "Storage Write append, 500 rows", 1800),
              new MachineCeilings.Ceiling(
                  MachineCeilings.appendKey(10), "Storage Write append, 10 rows", 900)));

  /** A step whose steady rate is {@code rowsPerSec} and whose sustained rate is 0.8 of it. */
  private static StepFigures step(int number, Double rowsPerSec) {
    return new StepFigures(
        number,
        "STEP " + number,
        true,
        2000,
        rowsPerSec == null ? null : rowsPerSec * 0.8,
        rowsPerSec,
        1.0,
        2.0,
        3.0,
        4.0,
        null,
        5L,
        9L,
        Map.of());
  }

  @Test
  public void eachStepIsAShareOfTheAppendCeilingAt500Rows() {
    assertEquals(1800.0, CEILINGS.appendCeiling(), 0);
    assertEquals(0.5, CEILINGS.ofAppendCeiling(900.0), 1e-9);
    assertNull(CEILINGS.ofAppendCeiling(null));
    assertNull(new MachineCeilings(1, List.of(CEILINGS.ceilings().get(0))).ofAppendCeiling(900.0));
  }

  @Test
  public void theComparisonPrintsTheCeilingsAndEachStepsShare() {
    CompareReport report =
        new CompareReport(
            List.of(step(6, 900.0), step(8, 1620.0), step(7, null)),
            "test",
            "Pub/Sub emulator",
            CEILINGS);
    String table = report.table();
    assertThat(
        table,
        containsString(
            "This machine's bare ceilings (10,000 events each): Pub/Sub pull + ack 5,000/s;"
                + " Storage Write append, 500 rows 1,800/s; Storage Write append, 10 rows 900/s."));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("6 ") && l.contains(" 0.50 ")));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("8 ") && l.contains(" 0.90 ")));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("7 ") && l.contains(" n/a ")));
    String html = report.html();
    assertThat(html, containsString("<th>of append ceiling</th>"));
    assertThat(html, containsString("<td>720</td><td>900</td><td>0.50</td>"));
    assertThat(html, containsString("Storage Write append, 500 rows 1,800/s"));
  }

  @Test
  public void aRunWithoutASteadyWindowHasNoShareRatherThanTheSustainedRatesOne() {
    StepFigures noWindow =
        new StepFigures(
            8, "STEP 8", true, 2000, 900.0, null, 1.0, 2.0, 3.0, 4.0, null, 5L, 9L, Map.of());
    String table = new CompareReport(List.of(noWindow), "test", "Kafka broker", CEILINGS).table();
    String line = table.lines().filter(l -> l.startsWith("8 ")).findFirst().orElseThrow();
    assertTrue(line, line.contains(" n/a "));
    assertFalse(line, line.contains("0.50"));
  }

  @Test
  public void theShareIsOfThePipelinedCeilingNotTheOneInFlight() {
    MachineCeilings ceilings =
        new MachineCeilings(
            1,
            List.of(
                new MachineCeilings.Ceiling(
                    MachineCeilings.oneInFlightAppendKey(500), "one in flight", 1500),
                new MachineCeilings.Ceiling(MachineCeilings.appendKey(500), "pipelined", 1800)));
    assertEquals(1800.0, ceilings.appendCeiling(), 0);
    assertEquals(
        "storage_write_append_500_one_in_flight", MachineCeilings.oneInFlightAppendKey(500));
  }

  @Test
  public void withoutCeilingsTheShareIsNotAvailable() {
    String table = new CompareReport(List.of(step(6, 900.0)), "test").table();
    assertFalse(table, table.contains("bare ceilings"));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("6 ") && l.contains(" n/a ")));
  }

  @Test
  public void theJsonHoldsTheCeilingsAndTheStepsShare() {
    JsonNode json = CEILINGS.toJson(720.0, 900.0);
    assertEquals(10_000, json.path("events").asInt());
    assertEquals(0.4, json.path("sustained_per_append_ceiling").asDouble(), 0);
    assertEquals(0.5, json.path("steady_per_append_ceiling").asDouble(), 0);
    assertEquals("pubsub_pull_ack", json.path("ceilings").get(0).path("key").asText());
    assertEquals(5000.4, json.path("ceilings").get(0).path("per_sec").asDouble(), 0);
    assertEquals(CEILINGS, MachineCeilings.fromJson(json));
    assertFalse(CEILINGS.toJson(null, 900.0).has("sustained_per_append_ceiling"));
    assertFalse(CEILINGS.toJson(720.0, null).has("steady_per_append_ceiling"));
  }
}
