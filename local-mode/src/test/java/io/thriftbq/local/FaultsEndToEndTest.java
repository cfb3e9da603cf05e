package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.bigquery.StorageApiClientCaches;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * The BigQuery emulator killed with SIGKILL in the middle of a run and started again on the same
 * ports and data directory, while events keep arriving: nothing may be lost, an exactly-once step
 * may write nothing twice, and the pipeline must recover by itself. The emulator keeps tables on
 * disk but its write streams in memory, so a restart also takes away every stream the pipeline had
 * open: the harshest form of a backend outage the local stack can play.
 */
@RunWith(Parameterized.class)
public class FaultsEndToEndTest {
  private static final long EVENTS = 1500;
  private static final long RATE = 100; // 15 s of publishing
  private static final java.time.Duration DOWNTIME = java.time.Duration.ofSeconds(5);
  private static final int RECOVERY_BOUND_SECONDS = 180;

  @Parameterized.Parameters(name = "step {0}")
  public static List<Object[]> steps() {
    // Step 6 (exactly-once) does not recover on the emulator yet: see docs/RELIABILITY.md. Run it
    // with -Dthriftbq.test.steps=6.
    return SharedEmulators.steps(7, 8);
  }

  /**
   * One private pair for the class: a restart keeps the ports, so the Storage Write connection pool
   * (static in the client library) always talks to the same endpoint, as a real pipeline would.
   */
  private static EmulatorStack stack;

  @BeforeClass
  public static void startEmulators() throws Exception {
    stack = SharedEmulators.startPrivate();
  }

  @AfterClass
  public static void stopEmulators() {
    if (stack != null) {
      stack.close();
    }
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Rule public Timeout timeout = Timeout.seconds(420);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void bigQueryKilledAndRestartedMidRunLosesNothing() throws Exception {
    {
      TuningStep step = TuningStep.of(stepNumber);
      String table =
          "fault_bq_step" + stepNumber + "_" + UUID.randomUUID().toString().substring(0, 6);
      LocalRun.createTables(stack, table);
      LocalRun.Channel channel = LocalRun.createChannel(stack, "fault-bq");
      List<String> args =
          LocalRun.ingestionArgs(
              stack, step, step.format(), null, channel.subscription(), table, false);
      PipelineResult pipeline = LocalRun.startIngestion(stack, args);
      PacedPublisher publisher =
          new PacedPublisher(
              stack.pubsub(),
              channel.topic(),
              LocalRun.generatorFor(
                  LocalRun.datagenArgs(stack, channel.topic(), EVENTS, RATE, 11, 1, false)),
              EVENTS,
              RATE,
              1);
      CompletableFuture<Void> publishing =
          CompletableFuture.runAsync(
              () -> {
                try {
                  publisher.run();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      try {
        long rowsAtKill = waitForRows(stack, table, 200, 120);
        stack.killAndRestartBigQuery(DOWNTIME);
        long restartedAt = System.nanoTime();
        long firstRowAfter = -1;
        long rows = rowsAtKill;
        long deadline = restartedAt + RECOVERY_BOUND_SECONDS * 1_000_000_000L;
        while (System.nanoTime() < deadline && rows < EVENTS) {
          rows = countRows(stack, table);
          if (firstRowAfter < 0 && rows > rowsAtKill) {
            firstRowAfter = System.nanoTime();
          }
          Thread.sleep(500);
        }
        long allIn = System.nanoTime();
        publishing.get(60, TimeUnit.SECONDS);
        Thread.sleep(3000); // a late duplicate gets the chance to show

        Map<Long, Long> ids = idCounts(stack, table);
        List<Long> missing = new ArrayList<>();
        long duplicates = 0;
        for (long id = 0; id < EVENTS; id++) {
          Long n = ids.get(id);
          if (n == null) {
            missing.add(id);
          } else if (n > 1) {
            duplicates += n - 1;
          }
        }
        System.out.printf(
            "BigQuery emulator killed (%s): %d rows before the kill, down %d s; first new row %s"
                + " after the restart, all %d events %s after it; %d ids missing, %d duplicate"
                + " rows; pipeline %s%n",
            step.describe(),
            rowsAtKill,
            DOWNTIME.toSeconds(),
            firstRowAfter < 0
                ? "never"
                : String.format("%.1f s", (firstRowAfter - restartedAt) / 1e9),
            EVENTS,
            rows >= EVENTS ? String.format("%.1f s", (allIn - restartedAt) / 1e9) : "never",
            missing.size(),
            duplicates,
            pipeline.getState());
        assertThat("ids lost across the outage", missing, empty());
        if (step.exactlyOnce()) {
          assertEquals("rows written twice on an exactly-once step", 0, duplicates);
        }
        assertThat(
            "recovered in bounded time",
            (allIn - restartedAt) / 1_000_000_000L,
            lessThan((long) RECOVERY_BOUND_SECONDS));
        assertEquals(PipelineResult.State.RUNNING, pipeline.getState());
      } finally {
        publishing.cancel(true);
        LocalRun.cancelQuietly(pipeline);
      }
    }
  }

  private static long countRows(EmulatorStack stack, String table) {
    try {
      return stack.bigquery().queryLong("SELECT COUNT(*) FROM " + LocalReport.qualified(table));
    } catch (Exception e) {
      return 0; // the emulator is still starting
    }
  }

  private static long waitForRows(EmulatorStack stack, String table, long atLeast, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long rows = 0;
    while (System.nanoTime() < deadline) {
      rows = countRows(stack, table);
      if (rows >= atLeast) {
        return rows;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("only " + rows + " rows after " + seconds + " s");
  }

  private static Map<Long, Long> idCounts(EmulatorStack stack, String table) throws Exception {
    Map<Long, Long> ids = new HashMap<>();
    for (Map<String, JsonNode> row :
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id, COUNT(*) AS n FROM "
                    + LocalReport.qualified(table)
                    + " AS t, UNNEST(t._attributes) AS a WHERE a.key = 'event_id'"
                    + " GROUP BY a.value")) {
      ids.put(Long.parseLong(row.get("id").asText()), Long.parseLong(row.get("n").asText()));
    }
    return ids;
  }
}
