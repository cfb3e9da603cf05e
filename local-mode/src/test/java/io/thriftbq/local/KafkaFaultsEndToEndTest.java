package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.duplicates;
import static io.thriftbq.local.EndToEndTables.idCounts;
import static io.thriftbq.local.EndToEndTables.idCountsOnceSettled;
import static io.thriftbq.local.EndToEndTables.missing;
import static io.thriftbq.local.EndToEndTables.seconds;
import static io.thriftbq.local.EndToEndTables.waitForRows;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;

import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.LocalEngine;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.stack.EmulatorStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.PipelineResult;
import org.junit.After;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Faults with Kafka as the source, on an exactly-once step (6) and an at-least-once step (8): the
 * broker killed with SIGKILL and restarted on its data directory, and the pipeline's JVM killed and
 * replaced by a new job on the same consumer group. Each test prints what it measured (recovery
 * time, duplicates); docs/RELIABILITY.md's table quotes those lines.
 */
@RunWith(Parameterized.class)
public class KafkaFaultsEndToEndTest {
  private static final long EVENTS = 1200;
  private static final long RATE = 100; // 12 s of publishing
  private static final java.time.Duration DOWNTIME = java.time.Duration.ofSeconds(5);
  private static final int RECOVERY_BOUND_SECONDS = 180;

  @Parameterized.Parameters(name = "step {0}")
  public static List<Object[]> steps() {
    return SharedEmulators.steps(6, 8, 9);
  }

  private static EmulatorStack stack;

  @BeforeClass
  public static void startEmulators() throws Exception {
    stack = SharedEmulators.withKafka();
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Rule public Timeout timeout = Timeout.seconds(420);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  /**
   * The broker killed with SIGKILL mid-run and started again on the same ports and data directory
   * after {@link #DOWNTIME}. Kafka keeps what it acknowledged on disk, and the publisher's producer
   * retries what it sent meanwhile, so every event published must be written: before the kill,
   * during the outage and after it. The job must ride the outage out (no failover, so nothing is
   * replayed: no duplicate on the exactly-once step).
   */
  @Test
  public void brokerKilledAndRestartedMidRunLosesNothing() throws Exception {
    Assume.assumeFalse(
        "step 9 (change mode) runs the pipeline kill, the fault whose duplicates it removes",
        stepNumber == 9);
    TuningStep step = TuningStep.of(stepNumber);
    String table = "kfault_broker_step" + stepNumber + "_" + suffix();
    KafkaSource channel = KafkaSource.create(stack, "kfault-broker");
    List<String> args = argsFor(step, channel, table, LocalEngine.fromSystemProperties());
    PipelineResult pipeline = Ingestion.start(stack, args);
    PacedPublisher publisher = publisher(channel, 23);
    CompletableFuture<Void> publishing = publisher.runAsync();
    try {
      long rowsAtKill = waitForRows(stack, table, 200, 120);
      long publishedAtKill = publisher.published();
      long killedAt = System.nanoTime();
      stack.killAndRestartKafka(DOWNTIME);
      long restartedAt = System.nanoTime();
      long firstRowAfter = -1;
      long allIn = -1;
      long deadline = restartedAt + RECOVERY_BOUND_SECONDS * 1_000_000_000L;
      while (System.nanoTime() < deadline) {
        Map<Long, Long> ids = idCounts(stack, table, channel.attributesColumn());
        long rows = ids.values().stream().mapToLong(Long::longValue).sum();
        if (firstRowAfter < 0 && rows > rowsAtKill) {
          firstRowAfter = System.nanoTime();
        }
        if (publishing.isDone() && missing(ids, 0, EVENTS).isEmpty()) {
          allIn = System.nanoTime();
          break;
        }
        Thread.sleep(1000);
      }
      publishing.get(60, TimeUnit.SECONDS);
      Map<Long, Long> ids = idCountsOnceSettled(stack, table, channel.attributesColumn());
      List<Long> lost = missing(ids, 0, EVENTS);
      long duplicates = duplicates(ids);
      System.out.printf(
          "Kafka broker killed (%s): %d rows written and %d events published before the kill,"
              + " broker back after %s (down %d s + start); first new row %s after the restart,"
              + " every event written %s after it; %d missing; %d duplicate rows; pipeline %s%n",
          step.describe(),
          rowsAtKill,
          publishedAtKill,
          seconds(restartedAt, killedAt),
          DOWNTIME.toSeconds(),
          seconds(firstRowAfter, restartedAt),
          seconds(allIn, restartedAt),
          lost.size(),
          duplicates,
          pipeline.getState());
      assertThat("events lost across the broker's outage", lost, empty());
      if (step.exactlyOnce()) {
        assertEquals("rows written twice on an exactly-once step", 0, duplicates);
      }
      assertThat("recovered in bounded time", allIn, greaterThan(0L));
      assertEquals(PipelineResult.State.RUNNING, pipeline.getState());
    } finally {
      publishing.cancel(true);
      PipelineControl.cancelQuietly(pipeline);
    }
  }

  /**
   * The pipeline's JVM killed with SIGKILL mid-run and a new job started on the same consumer
   * group. The new job starts at the offsets the dead one committed (it committed them when its
   * checkpoints completed), so on the at-least-once step nothing is lost and what the dead job read
   * after its last checkpoint is read again (duplicates, counted). On an exactly-once step the
   * committed offsets can be ahead of what is visible in BigQuery (rows of a buffered stream not
   * yet flushed die with the job), so the recipe for any stop without drain is the one the Pub/Sub
   * test uses with a seek: start the new job at a time before the crash ({@code
   * --kafkaStartOffset}), which re-reads and writes again what was written (duplicates, counted).
   */
  @Test
  public void pipelineKilledAndANewJobOnTheSameGroupLosesNothing() throws Exception {
    killPipelineAndStartAnother(false);
  }

  /**
   * The same crash, the new job resuming from the dead one's last completed checkpoint, as Flink
   * does when it restarts a failed job: KafkaIO's offsets and the sink's batches come back from the
   * checkpoint, nothing is rewound. Nothing may be lost; duplicates are bounded as
   * docs/RELIABILITY.md says of resuming on Flink (rows flushed between that checkpoint and the
   * crash are written again).
   */
  @Test
  public void pipelineKilledAndResumedFromItsCheckpointLosesNothing() throws Exception {
    Assume.assumeTrue("checkpoints are Flink's", LocalEngine.fromSystemProperties().flink());
    Assume.assumeTrue("one step is enough for the resume path", stepNumber == 6);
    killPipelineAndStartAnother(true);
  }

  private void killPipelineAndStartAnother(boolean resume) throws Exception {
    TuningStep step = TuningStep.of(stepNumber);
    String table =
        (resume ? "kfault_resume_step" : "kfault_job_step") + stepNumber + "_" + suffix();
    KafkaSource channel = KafkaSource.create(stack, "kfault-job");
    new PipelineKill(
            stack,
            step,
            channel,
            table,
            "Kafka",
            EVENTS,
            RECOVERY_BOUND_SECONDS,
            engine -> argsFor(step, channel, table, engine),
            args -> {
              // The committed offsets can be ahead of what is visible (rows of a buffered stream
              // not yet flushed die with the job): start the new job at a time before the crash.
              String rewindTo = java.time.Instant.now().minusSeconds(120).toString();
              List<String> rewound = new ArrayList<>(args);
              rewound.removeIf(arg -> arg.startsWith("--kafkaStartOffset="));
              rewound.add("--kafkaStartOffset=" + rewindTo);
              return new PipelineKill.Restart(
                  "a new job on the same group, started at " + rewindTo, rewound);
            })
        .run(resume, publisher(channel, 29));
  }

  private static List<String> argsFor(
      TuningStep step, KafkaSource channel, String table, LocalEngine engine) throws Exception {
    List<String> tableArgs = new ArrayList<>(LocalRunConfig.defaults().ingestionStructArgs());
    tableArgs.addAll(channel.ingestionArgs());
    if (!step.changeMode()) {
      // A change-mode job's launch creates its table with the primary key.
      EmulatorTables.create(stack, RunTables.forOutputTable(table), tableArgs);
    }
    return IngestionArgs.forStep(step)
        .withEngine(engine)
        .toList(channel, stack.bigquery(), RunTables.forOutputTable(table));
  }

  private static PacedPublisher publisher(KafkaSource channel, long seed) {
    return new PacedPublisher(
        channel,
        GeneratorArgs.generatorFor(
            GeneratorArgs.of(
                List.of(),
                EVENTS,
                RATE,
                seed,
                1,
                false,
                LocalRunConfig.defaults().datagenStructArgs())),
        EVENTS,
        RATE,
        1);
  }

  private static String suffix() {
    return UUID.randomUUID().toString().substring(0, 6);
  }
}
