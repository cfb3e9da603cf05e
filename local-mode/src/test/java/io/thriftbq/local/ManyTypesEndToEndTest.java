package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.report.TableReport;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.LocalRun;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Many event types end to end (issue 22): the shop IDL's Order, Refund and Click in one run, named
 * by the {@code thrift_struct} attribute or wrapped in the AnyEvent union, through steps 6
 * (exactly-once), 7 and 8 (at-least-once). Every published event of each struct must be in its
 * struct's table and no other; the malformed messages (damaged events of a struct, missing and
 * unknown struct names, empty unions, unknown and non-struct members) must be dead letters at the
 * expected stage with the expected {@code struct} column, and nothing else may be. Step 7's union
 * run keeps payloads, so its structs share one BigQuery write (dynamic destinations); every other
 * run writes each struct with its own.
 */
@RunWith(Parameterized.class)
public class ManyTypesEndToEndTest {
  private static final int EVENTS = 300;
  // 21 malformed: each of the attribute layout's 6 kinds 3-4 times, the union layout's 7 thrice.
  private static final double BAD_RATIO = 0.07;
  private static final String STRUCTS = "Order:3,Refund:1,Click:6";
  private static final Path IDL =
      Path.of(System.getProperty("basedir", "."))
          .resolve("../thrift-common/src/main/idl/shop_events.thrift")
          .normalize();

  @Parameterized.Parameters(name = "step {0} {1}")
  public static List<Object[]> runs() {
    List<Object[]> runs = new ArrayList<>();
    for (Object[] step : SharedEmulators.steps(6, 7, 8)) {
      runs.add(new Object[] {step[0], "attribute"});
      runs.add(new Object[] {step[0], "union"});
    }
    return runs;
  }

  @Parameterized.Parameter(0)
  public int step;

  @Parameterized.Parameter(1)
  public String layout;

  @Rule public Timeout timeout = Timeout.seconds(300);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void eachStructLandsInItsTableAndRoutingFailuresAreDeadLetters() throws Exception {
    EmulatorStack stack = SharedEmulators.get();
    String base =
        "e2e_many_" + step + "_" + layout + "_" + UUID.randomUUID().toString().substring(0, 6);
    boolean union = layout.equals("union");
    LocalRunConfig config =
        LocalRunConfig.defaults()
            .step(TuningStep.of(step))
            .manyTypes(IDL.toString(), STRUCTS, union ? "AnyEvent" : null)
            .events(EVENTS)
            .rate(300)
            .badRatio(BAD_RATIO)
            .table(base)
            .progress(false)
            // Two runs publish with the generator pipeline (slow on the DirectRunner), the others
            // as run-local.sh does: both publishers' choice of each message's struct, in both
            // layouts, is checked against the report's.
            .generatorPipeline(union ? step == 6 : step == 8)
            .timeout(Duration.ofSeconds(180));
    if (step == 7 && union) {
      // Kept payloads let the Storage API write every Avro struct with one write (dynamic
      // destinations); the other runs write each struct with its own.
      config.engine(config.engine().withExtraPipelineArg("--keepPayloadForWriteFailures=true"));
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    LocalReport report =
        new LocalRun(stack, config, new PrintStream(log, true, StandardCharsets.UTF_8)).execute();
    String context = "step " + step + " " + layout + "\n" + log + report.format();
    System.out.println(report.format());

    assertEquals(context, List.of(), report.problems);
    assertThat(context, report.missingIds, empty());
    assertThat(context, report.malformedMissing, empty());
    assertThat(context, report.malformedWrongStage, empty());
    assertThat(context, report.malformedWrongStruct, empty());
    assertEquals(context, Map.of(), report.validEventsDeadLettered);
    assertEquals(context, EVENTS, report.distinctEventIds);

    // The expected figures, computed here from the generator's own choice of type.
    EventMix mix = GeneratorArgs.mixFor(config);
    Map<String, Integer> expectedPerStruct = new TreeMap<>();
    for (long id = 0; id < EVENTS; id++) {
      expectedPerStruct.merge(mix.name(mix.chooseType(id)), 1, Integer::sum);
    }
    assertEquals(context, Set.of("Order", "Refund", "Click"), expectedPerStruct.keySet());
    List<MalformedMessages.Malformed> malformed =
        MalformedMessages.create(
            config.malformedCount(), config.seed(), mix, mix.generator(0).config().protocol());
    TableReport tables = report.tables();
    assertNotNull(context, tables);
    assertEquals(context, 3, tables.rows().size());
    for (TableReport.Row row : tables.rows()) {
      int expected = expectedPerStruct.get(row.struct());
      assertEquals(context + row, expected, row.published());
      assertEquals(context + row, expected, row.written());
      assertEquals(context + row, 0, row.missing());
      assertEquals(
          context + row,
          malformed.stream().filter(m -> row.struct().equals(m.expectedStruct())).count(),
          row.deadLetters());
      assertNotNull(context + row, row.p99Millis());
      if (step == 6) {
        assertEquals(context + row, 0, row.duplicateIds());
        assertEquals(context + row, expected, row.rows());
      }
      assertEachRowIsOfItsStruct(stack, mix, row, context);
    }
    assertEquals(context, EVENTS, tables.total().published());
    assertEquals(context, EVENTS, tables.total().written());

    assertDeadLettersExactly(stack, malformed, base, union, context);
    assertThat(context, report.latencySamples.length, greaterThan(0));
  }

  /** Every row of the struct's table is an event the generator made of that struct. */
  private static void assertEachRowIsOfItsStruct(
      EmulatorStack stack, EventMix mix, TableReport.Row row, String context) throws Exception {
    List<Map<String, JsonNode>> rows =
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id FROM "
                    + TableQueries.qualified(row.table())
                    + " AS t, UNNEST(t._attributes) AS a WHERE a.key = 'event_id'");
    Set<Long> ids = new HashSet<>();
    for (Map<String, JsonNode> r : rows) {
      long id = Long.parseLong(r.get("id").asText());
      ids.add(id);
      assertEquals(context + " event " + id, row.struct(), mix.name(mix.chooseType(id)));
    }
    assertEquals(context + row, row.published(), ids.size());
  }

  /** The dead-letter table holds the malformed messages, by (stage, struct), and nothing else. */
  private static void assertDeadLettersExactly(
      EmulatorStack stack,
      List<MalformedMessages.Malformed> malformed,
      String base,
      boolean union,
      String context)
      throws Exception {
    Map<String, Long> expected = new TreeMap<>();
    Set<MalformedMessages.Kind> kinds = new HashSet<>();
    for (MalformedMessages.Malformed bad : malformed) {
      kinds.add(bad.kind());
      String struct = bad.expectedStruct() == null ? "" : bad.expectedStruct();
      expected.merge(bad.expectedStage() + "/" + struct, 1L, Long::sum);
    }
    Set<MalformedMessages.Kind> wanted =
        union
            ? Set.of(
                MalformedMessages.Kind.EMPTY_UNION,
                MalformedMessages.Kind.UNKNOWN_MEMBER,
                MalformedMessages.Kind.NON_STRUCT_MEMBER,
                MalformedMessages.Kind.TRUNCATED)
            : Set.of(
                MalformedMessages.Kind.MISSING_STRUCT,
                MalformedMessages.Kind.UNKNOWN_STRUCT,
                MalformedMessages.Kind.CORRUPTED);
    assertTrue(context + kinds, kinds.containsAll(wanted));
    // Both routing failures and decode failures with a struct are among them.
    assertTrue(
        context + expected, expected.keySet().stream().anyMatch(k -> k.startsWith("ROUTE/")));
    assertTrue(
        context + expected,
        expected.keySet().stream()
            .anyMatch(k -> k.startsWith(Stage.DECODE + "/") && !k.endsWith("/")));
    Map<String, Long> actual = new TreeMap<>();
    for (Map<String, JsonNode> row :
        stack
            .bigquery()
            .query(
                "SELECT stage, COALESCE(struct, '') AS s, COUNT(*) AS n FROM "
                    + TableQueries.qualified(base + "_dead_letter")
                    + " GROUP BY stage, COALESCE(struct, '')")) {
      actual.put(
          row.get("stage").asText() + "/" + row.get("s").asText(),
          Long.parseLong(row.get("n").asText()));
    }
    assertEquals(context, expected, actual);
  }
}
