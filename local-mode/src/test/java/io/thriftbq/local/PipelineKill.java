package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.assertResumeReplaysAtMostTheDeadJob;
import static io.thriftbq.local.EndToEndTables.duplicates;
import static io.thriftbq.local.EndToEndTables.idCountsOnceSettled;
import static io.thriftbq.local.EndToEndTables.missing;
import static io.thriftbq.local.EndToEndTables.rowsLeftByKilledJob;
import static io.thriftbq.local.EndToEndTables.seconds;
import static io.thriftbq.local.EndToEndTables.waitForRows;
import static io.thriftbq.local.EndToEndTables.waitUntilWritten;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.LocalEngine;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.stack.EmulatorStack;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline's own JVM killed with SIGKILL mid-run and a second job started after it, as after a
 * crashed machine: the one scenario the Pub/Sub and the Kafka fault suites both run, each giving
 * only what its source does differently (the job's flags, and how a new exactly-once job rewinds to
 * before the crash). Nothing may be lost; duplicates are counted, and bounded where the steps
 * promise a bound (change mode: none; resuming an exactly-once job: at most what the dead job
 * wrote).
 *
 * @param source the source's name in the printed line ("Pub/Sub", "Kafka")
 * @param argsFor the ingestion job's flags on a given engine
 * @param rewind how a new exactly-once job (not resumed from a checkpoint) replays what the dead
 *     one may have lost: rows of a buffered stream not yet flushed die with it, while its source
 *     already counts them as read
 */
record PipelineKill(
    EmulatorStack stack,
    TuningStep step,
    EventSource channel,
    String table,
    String source,
    long events,
    int recoveryBoundSeconds,
    ArgsFor argsFor,
    Rewind rewind) {

  /** The ingestion job's flags on {@code engine}. */
  @FunctionalInterface
  interface ArgsFor {
    List<String> on(LocalEngine engine) throws Exception;
  }

  /** Rewinds the source for a new exactly-once job whose flags would be {@code args}. */
  @FunctionalInterface
  interface Rewind {
    Restart before(List<String> args) throws Exception;
  }

  /** How the second job starts ({@code how}, for the printed line) and its flags. */
  record Restart(String how, List<String> args) {}

  /**
   * Starts a job, publishes {@code publisher}'s events, kills the job once 200 rows are in, starts
   * another (from the dead one's last checkpoint when {@code resume}) and checks every event lands.
   */
  void run(boolean resume, PacedPublisher publisher) throws Exception {
    Path checkpoints = stack.workDir().resolve("checkpoints-" + table);
    LocalEngine engine = LocalEngine.fromSystemProperties();
    if (resume) {
      engine = engine.withCheckpointDir(checkpoints);
    }
    List<String> args = argsFor.on(engine);
    Process first = IngestionProcess.start(stack, args, "first-" + table);
    Process second = null;
    CompletableFuture<Void> publishing = publisher.runAsync();
    try {
      long rowsAtKill = waitForRows(stack, table, 200, 180);
      IngestionProcess.kill(first);
      assertFalse("killed", first.isAlive());
      long killedAt = System.nanoTime();
      long rowsByDeadJob = rowsLeftByKilledJob(stack, table);
      Restart restart;
      if (resume) {
        Path checkpoint =
            LocalEngine.latestCheckpoint(checkpoints)
                .orElseThrow(() -> new AssertionError("no checkpoint kept in " + checkpoints));
        restart =
            new Restart(
                "resumed from " + checkpoints.relativize(checkpoint),
                argsFor.on(engine.withResumeFrom(checkpoint)));
      } else if (step.exactlyOnce()) {
        restart = rewind.before(args);
      } else {
        restart = new Restart("a new job", args);
      }
      second = IngestionProcess.start(stack, restart.args(), "second-" + table);
      long allIn =
          waitUntilWritten(
              stack,
              table,
              channel.attributesColumn(),
              0,
              events,
              publishing::isDone,
              killedAt + recoveryBoundSeconds * 1_000_000_000L);
      publishing.get(60, TimeUnit.SECONDS);
      Map<Long, Long> ids = idCountsOnceSettled(stack, table, channel.attributesColumn());
      List<Long> lost = missing(ids, 0, events);
      long duplicates = duplicates(ids);
      System.out.printf(
          "Pipeline JVM killed, %s source (%s; %s): %d rows before the kill, %d when it died;"
              + " every event written %s after it (a new JVM and job included); %d missing;"
              + " %d duplicate rows%n",
          source,
          step.describe(),
          restart.how(),
          rowsAtKill,
          rowsByDeadJob,
          seconds(allIn, killedAt),
          lost.size(),
          duplicates);
      assertThat("events lost across the kill", lost, empty());
      if (step.changeMode()) {
        // What the dead job wrote and the new one writes again are upserts of the same keys, so
        // the table keeps one row per event (step 8 on the same kill: 0 to 262 duplicate rows).
        assertEquals("rows beyond one per key in change mode", 0, duplicates);
      }
      if (resume && step.exactlyOnce()) {
        assertResumeReplaysAtMostTheDeadJob(duplicates, rowsByDeadJob);
      }
      assertTrue("the new job is still up", second.isAlive());
    } finally {
      publishing.cancel(true);
      IngestionProcess.kill(first);
      IngestionProcess.kill(second);
    }
  }
}
