package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SaturationRun;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
 * Each tuning step end to end from a real Kafka broker: generator events and malformed messages →
 * Kafka (4 partitions, attributes as headers) → ingestion (embedded Flink, KafkaIO) → BigQuery
 * emulator. Zero loss on every step, no duplicate on the exactly-once ones, every malformed message
 * dead-lettered with its raw bytes and the topic, partition and offset it was read at, and the
 * Kafka metadata columns filled.
 */
@RunWith(Parameterized.class)
public class KafkaStepsEndToEndTest {
  private static final int EVENTS = 300;
  private static final double BAD_RATIO = 0.04;

  @Parameterized.Parameters(name = "step {0}")
  public static List<Object[]> steps() {
    return SharedEmulators.steps(1, 2, 3, 4, 5, 6, 7, 8);
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Rule public Timeout timeout = Timeout.seconds(300);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void everyEventArrivesOnceWithItsKafkaOriginAndMalformedOnesAreDeadLettered()
      throws Exception {
    EmulatorStack stack = SharedEmulators.withKafka();
    TuningStep step = TuningStep.of(stepNumber);
    String table = "kafka_step" + stepNumber + "_" + UUID.randomUUID().toString().substring(0, 6);
    LocalRunConfig config =
        LocalRunConfig.defaults()
            .source(SourceKind.KAFKA)
            .step(step)
            .events(EVENTS)
            // Step 8 as a saturation run: its rows are handed to writers in threads of their own.
            .rate(stepNumber == 8 ? SaturationRun.RATE : 300)
            .badRatio(BAD_RATIO)
            .table(table)
            .progress(false)
            .directRunnerChecks(true)
            // The generator pipeline's Kafka sink on one step, the runner's publisher on the rest.
            .generatorPipeline(stepNumber == 6)
            .timeout(Duration.ofSeconds(180));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    LocalReport report =
        new io.thriftbq.local.run.LocalRun(
                stack, config, new PrintStream(log, true, StandardCharsets.UTF_8))
            .execute();
    String context = step.describe() + " from Kafka\n" + log + report.format();
    System.out.println(report.format());

    assertEquals(context, List.of(), report.problems);
    assertEquals(
        context,
        stepNumber == 8,
        log.toString(StandardCharsets.UTF_8)
            .contains("handed to " + SaturationRun.WRITERS + " writers"));
    assertThat(context, report.missingIds, empty());
    assertThat(context, report.malformedMissing, empty());
    assertThat(context, report.malformedWrongStage, empty());
    assertEquals(context, Map.of(), report.validEventsDeadLettered);
    assertEquals(context, 0, report.rowsWithoutEventId);
    assertEquals(context, EVENTS, report.distinctEventIds);
    if (step.exactlyOnce()) {
      assertEquals(context, Map.of(), report.duplicates);
      assertEquals(context, EVENTS, report.rowsInTable);
    }
    assertThat(context, report.latencySamples.length, greaterThan(0));

    // Every row names the record it was read from; no two rows name the same one unless the step
    // is at-least-once (and then only as a redelivery of the same record).
    JsonNode positions =
        stack
            .bigquery()
            .rawQuery(
                "SELECT COUNT(*) AS n, COUNT(DISTINCT CONCAT(_kafka_topic, '/',"
                    + " CAST(_kafka_partition AS STRING), '/', CAST(_kafka_offset AS STRING))) AS"
                    + " records, COUNTIF(_kafka_timestamp IS NULL) AS untimed,"
                    + " MIN(_kafka_partition) AS low, MAX(_kafka_partition) AS high FROM "
                    + TableQueries.qualified(table));
    JsonNode row = positions.path("rows").get(0).path("f");
    long rows = row.get(0).path("v").asLong();
    long records = row.get(1).path("v").asLong();
    assertEquals(context, EVENTS, records);
    if (step.exactlyOnce()) {
      assertEquals(context, rows, records);
    }
    assertEquals("every row has the record's timestamp", 0, row.get(2).path("v").asLong());
    assertTrue("rows from more than one partition", row.get(4).path("v").asLong() > 0);

    // Dead letters keep the record's position beside the raw bytes.
    JsonNode letters =
        stack
            .bigquery()
            .rawQuery(
                "SELECT COUNT(*) AS n, COUNTIF(kafka_topic IS NULL OR kafka_partition IS NULL OR"
                    + " kafka_offset IS NULL OR payload IS NULL) AS without FROM "
                    + TableQueries.qualified(table + DeadLetterTables.DEFAULT_SUFFIX));
    JsonNode counts = letters.path("rows").get(0).path("f");
    assertEquals(context, config.malformedCount(), counts.get(0).path("v").asLong());
    assertEquals("dead letters without their Kafka position", 0, counts.get(1).path("v").asLong());
  }
}
