package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.LocalRun;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.QueryRows;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Each tuning step (the study's seven and step 8) end to end on the real emulators: generator →
 * Pub/Sub emulator → ingestion (the local engine, embedded Flink) → BigQuery emulator, with
 * malformed messages mixed in.
 */
@RunWith(Parameterized.class)
public class TuningStepsEndToEndTest {
  private static final int EVENTS = 300;
  private static final double BAD_RATIO = 0.04; // 12 malformed: every kind three times

  @Parameterized.Parameters(name = "{0} {1}")
  public static List<Object[]> steps() {
    List<Object[]> steps = new ArrayList<>();
    for (TuningStep step : TuningStep.all()) {
      steps.add(new Object[] {step, step.format()});
    }
    // Direct proto bytes exactly-once too (step 8 is at-least-once): the emulator's Storage Write
    // API must accept the derived descriptor and the decoder's bytes on both paths.
    steps.add(new Object[] {TuningStep.of(6), StorageFormat.PROTO_MESSAGE});
    return steps;
  }

  @Parameterized.Parameter(0)
  public TuningStep step;

  @Parameterized.Parameter(1)
  public StorageFormat format;

  @Rule public Timeout timeout = Timeout.seconds(300);

  /** Frees the shared emulator's streams that the run's cancelled pipeline left open. */
  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void everyEventArrivesIntactAndEveryMalformedMessageIsDeadLettered() throws Exception {
    EmulatorStack stack = SharedEmulators.get();
    String table =
        "e2e_step"
            + step.number()
            + "_"
            + format.name().toLowerCase(java.util.Locale.ROOT)
            + "_"
            + UUID.randomUUID().toString().substring(0, 6);
    LocalRunConfig config =
        LocalRunConfig.defaults()
            .step(step)
            .format(format)
            .events(EVENTS)
            .rate(300)
            .badRatio(BAD_RATIO)
            .table(table)
            .progress(false)
            .directRunnerChecks(true)
            // Step 7 publishes the way run-local.sh does by default; the others run the
            // generator pipeline itself, so both paths are covered end to end.
            .generatorPipeline(step.number() != 7)
            .timeout(Duration.ofSeconds(180));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    LocalReport report =
        new LocalRun(stack, config, new PrintStream(log, true, StandardCharsets.UTF_8)).execute();
    String context = step.describe() + " " + format + "\n" + log + report.format();
    System.out.println(report.format());

    assertEquals(context, List.of(), report.problems);
    assertThat(context, report.missingIds, empty());
    assertThat(context, report.malformedMissing, empty());
    assertThat(context, report.malformedWrongStage, empty());
    assertEquals(context, Map.of(), report.validEventsDeadLettered);
    assertEquals(context, 0, report.rowsWithoutEventId);
    assertEquals(context, EVENTS, report.distinctEventIds);
    assertEquals(context, 12, report.malformedStages.size());
    if (step.exactlyOnce()) {
      assertEquals(context, Map.of(), report.duplicates);
      assertEquals(context, EVENTS, report.rowsInTable);
    }
    assertThat(context, report.latencySamples.length, greaterThan(0));
    // The progress poll counts rows from the table's metadata, not with a query: the same number
    // for every write method (streaming inserts, pending and default streams) and for dead letters.
    for (String written : List.of(table, table + DeadLetterTables.DEFAULT_SUFFIX)) {
      assertEquals(
          context + "\nnumRows of " + written,
          EndToEndTables.count(stack, written),
          stack.bigquery().tableRows(LocalRunConfig.DATASET, written));
    }
    assertEquals(0, stack.bigquery().tableRows(LocalRunConfig.DATASET, table + "_absent"));

    assertRowsEqualGeneratedEvents(stack, config, table);
    assertDeadLettersKeepTheRawPayload(stack, config, table);
  }

  private static void assertRowsEqualGeneratedEvents(
      EmulatorStack stack, LocalRunConfig config, String table) throws Exception {
    List<String> genArgs =
        GeneratorArgs.of(
            List.of(),
            config.events(),
            1,
            config.seed(),
            1,
            false,
            LocalRunConfig.defaults().datagenStructArgs());
    ExpectedRows expected =
        new ExpectedRows(GeneratorArgs.generatorFor(genArgs), ThriftProtocol.BINARY);
    JsonNode result = stack.bigquery().rawQuery("SELECT * FROM " + TableQueries.qualified(table));
    JsonNode fields = result.path("schema").path("fields");
    List<String> mismatches = new ArrayList<>();
    int compared = 0;
    for (JsonNode raw : result.path("rows")) {
      JsonNode row = QueryRows.toObject(fields, raw);
      String id = QueryRows.attribute(row.path("_attributes"), "event_id");
      Map<String, Object> want = expected.expected(Long.parseLong(id));
      Map<String, Object> got = expected.actual(row);
      compared++;
      if (!want.equals(got) && mismatches.size() < 3) {
        mismatches.add("event " + id + "\n  expected " + want + "\n  actual   " + got);
      }
    }
    assertThat(String.join("\n", mismatches), mismatches, empty());
    assertTrue("compared " + compared + " rows", compared >= config.events());
  }

  private static void assertDeadLettersKeepTheRawPayload(
      EmulatorStack stack, LocalRunConfig config, String table) throws Exception {
    List<String> genArgs =
        GeneratorArgs.of(
            List.of(),
            config.events(),
            1,
            config.seed(),
            1,
            false,
            LocalRunConfig.defaults().datagenStructArgs());
    Map<String, byte[]> published = new HashMap<>();
    for (MalformedMessages.Malformed bad :
        MalformedMessages.create(
            config.malformedCount(),
            config.seed(),
            GeneratorArgs.generatorFor(genArgs)::serialize)) {
      published.put(bad.id(), bad.message().data());
    }
    List<Map<String, JsonNode>> rows =
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id, d.payload AS payload FROM "
                    + TableQueries.qualified(table + DeadLetterTables.DEFAULT_SUFFIX)
                    + " AS d, UNNEST(d.attributes) AS a WHERE a.key = '"
                    + MalformedMessages.ID_ATTRIBUTE
                    + "'");
    assertEquals(published.size(), rows.size());
    for (Map<String, JsonNode> row : rows) {
      String id = row.get("id").asText();
      byte[] payload = Base64.getDecoder().decode(row.get("payload").asText());
      assertTrue("payload of " + id, Arrays.equals(published.get(id), payload));
    }
  }
}
