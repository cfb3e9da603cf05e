package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.duplicates;
import static io.thriftbq.local.EndToEndTables.idCountsOnceSettled;
import static io.thriftbq.local.EndToEndTables.missing;
import static io.thriftbq.local.EndToEndTables.seconds;
import static io.thriftbq.local.EndToEndTables.waitForRows;
import static io.thriftbq.local.EndToEndTables.waitUntilWritten;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.junit.Assert.assertEquals;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.FlinkMetrics;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.PubsubEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * The Pub/Sub emulator killed mid-run and restarted; see {@link
 * #pubsubKilledAndRestartedMidRunRecovers}.
 */
@RunWith(Parameterized.class)
public class PubsubRestartEndToEndTest {
  private static final long RATE = 100;
  private static final java.time.Duration DOWNTIME = java.time.Duration.ofSeconds(5);

  /** How long after the emulator is back the subscription is missing (pulls answer 404). */
  private static final long SUBSCRIPTION_MISSING_MS = 10_000;

  private static final int RECOVERY_BOUND_SECONDS = 180;

  @Parameterized.Parameters(name = "step {0}")
  public static List<Object[]> steps() {
    return SharedEmulators.steps(6, 7, 8);
  }

  /** The shared pair, for the reason {@link FaultsEndToEndTest} gives. */
  private static EmulatorStack stack;

  @BeforeClass
  public static void startEmulators() throws Exception {
    stack = SharedEmulators.get();
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Rule public Timeout timeout = Timeout.seconds(420);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  /**
   * The Pub/Sub emulator killed with SIGKILL mid-run and started again on the same port. It keeps
   * everything in memory, so it comes back empty: the topic and subscription are created again with
   * the same names, as an operator would, and what it held is gone (events published before the
   * kill and not yet pulled cannot be asserted; they are counted). The subscription is created
   * {@link #SUBSCRIPTION_MISSING_MS} after the emulator is back, so the pipeline meets refused
   * connections and then a subscription that does not exist. What is asserted: the pipeline rides
   * out both without a failover (Flink never restarts the job, so nothing is replayed), every event
   * published after the subscription is back is written, and an exactly-once step writes nothing
   * twice.
   */
  @Test
  public void pubsubKilledAndRestartedMidRunRecovers() throws Exception {
    TuningStep step = TuningStep.of(stepNumber);
    String table =
        "fault_ps_step" + stepNumber + "_" + UUID.randomUUID().toString().substring(0, 6);
    EmulatorTables.create(stack, RunTables.forOutputTable(table));
    PubsubSource channel = PubsubSource.create(stack, "fault-ps");
    List<String> args =
        IngestionArgs.forStep(step)
            .toList(channel, stack.bigquery(), RunTables.forOutputTable(table));
    RandomEventGenerator events =
        GeneratorArgs.generatorFor(
            GeneratorArgs.of(
                List.of(),
                1300,
                RATE,
                13,
                1,
                false,
                LocalRunConfig.defaults().datagenStructArgs()));
    long before = 300;
    long after = 300;
    long afterFrom = 1000;
    PipelineResult pipeline = Ingestion.start(stack, args);
    try {
      publishPaced(events, channel.topic(), 0, before);
      long rowsAtKill = waitForRows(stack, table, 100, 120);
      stack.killAndRestartPubsub(DOWNTIME);
      long restartedAt = System.nanoTime();
      Thread.sleep(SUBSCRIPTION_MISSING_MS);
      stack.pubsub().createTopic(channel.topic());
      stack
          .pubsub()
          .createSubscription(
              channel.subscription(), channel.topic(), PubsubSource.ACK_DEADLINE_SECONDS, false);
      skipReusedMessageIds(table);
      publishPaced(events, channel.topic(), afterFrom, after);
      long allIn =
          waitUntilWritten(
              stack,
              table,
              afterFrom,
              afterFrom + after,
              () -> true,
              restartedAt + RECOVERY_BOUND_SECONDS * 1_000_000_000L);
      Map<Long, Long> ids = idCountsOnceSettled(stack, table);
      List<Long> lostAfter = missing(ids, afterFrom, afterFrom + after);
      long writtenBefore = before - missing(ids, 0, before).size();
      long duplicates = duplicates(ids);
      long restarts = FlinkMetrics.latestJobRestarts();
      System.out.printf(
          "Pub/Sub emulator killed (%s): %d rows before the kill; of %d events published before"
              + " it, %d written; every one of %d published after the restart %s after it, %d"
              + " missing; %d duplicate rows; %d job restarts; pipeline %s%n",
          step.describe(),
          rowsAtKill,
          before,
          writtenBefore,
          after,
          seconds(allIn, restartedAt),
          lostAfter.size(),
          duplicates,
          restarts,
          pipeline.getState());
      assertThat("events published after the restart that were lost", lostAfter, empty());
      assertEquals("times Flink restarted the job (a failover replays)", 0, restarts);
      if (step.exactlyOnce()) {
        assertEquals("rows written twice on an exactly-once step", 0, duplicates);
      }
      assertEquals(PipelineResult.State.RUNNING, pipeline.getState());
    } finally {
      PipelineControl.cancelQuietly(pipeline);
    }
  }

  /**
   * A restarted emulator numbers messages from 1 again; real Pub/Sub never reuses a message id.
   * Beam's Pub/Sub source asks the runner to drop a message id it saw in the last 10 minutes (Flink
   * keeps that memory in its checkpoints), so new messages numbered like ones the pipeline read
   * before the kill would vanish silently: the first run of this test on step 6 lost all 300 so.
   * Publishing to a scratch topic up to the highest id the pipeline wrote moves the emulator past
   * them, as Pub/Sub's own ids would be.
   */
  private static void skipReusedMessageIds(String table) throws Exception {
    long highest =
        stack
            .bigquery()
            .queryLong(
                "SELECT MAX(CAST(_message_id AS INT64)) FROM " + TableQueries.qualified(table));
    String scratch = "scratch-" + UUID.randomUUID().toString().substring(0, 8);
    stack.pubsub().createTopic(scratch);
    List<PubsubEmulator.RawMessage> burn = new ArrayList<>();
    for (long i = 0; i < highest; i++) {
      burn.add(new PubsubEmulator.RawMessage(new byte[] {0}, Map.of()));
    }
    stack.pubsub().publish(scratch, burn);
  }

  /** Publishes events {@code from} .. {@code from + count - 1} at {@link #RATE} per second. */
  private static void publishPaced(RandomEventGenerator events, String topic, long from, long count)
      throws Exception {
    long batch = RATE / 10;
    for (long first = from; first < from + count; first += batch) {
      List<PubsubEmulator.RawMessage> messages = new ArrayList<>();
      for (long id = first; id < Math.min(from + count, first + batch); id++) {
        messages.add(
            new PubsubEmulator.RawMessage(
                events.serialize(id),
                Map.of(
                    EventAttributes.EVENT_ID,
                    Long.toString(id),
                    EventAttributes.EVENT_TIME_MS,
                    Long.toString(System.currentTimeMillis()))));
      }
      stack.pubsub().publish(topic, messages);
      Thread.sleep(100);
    }
  }
}
