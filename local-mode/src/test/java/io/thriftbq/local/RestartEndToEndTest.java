package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.idCounts;
import static io.thriftbq.local.EndToEndTables.waitForRows;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertEquals;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.stack.EmulatorStack;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.PipelineResult;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * Stops the ingestion pipeline while the generator is still publishing and starts a new one on the
 * same subscription: every event must arrive. Messages the first pipeline had pulled but not
 * acknowledged come back after the subscription's ack deadline.
 */
@RunWith(JUnit4.class)
public class RestartEndToEndTest {
  private static final long EVENTS = 600;
  private static final long RATE = 40; // 15 s of publishing

  /** More than the worst hand-off latency seen on a loaded 2-core machine (about 70 s). */
  private static final java.time.Duration REPLAY_MARGIN = java.time.Duration.ofSeconds(120);

  @Rule public Timeout timeout = Timeout.seconds(360);

  @Test
  public void restartingIngestionMidStreamLosesNothing() throws Exception {
    try (EmulatorStack stack = SharedEmulators.startPrivate()) {
      restartMidStream(stack);
    }
  }

  private void restartMidStream(EmulatorStack stack) throws Exception {
    TuningStep step = TuningStep.of(6);
    String table = "e2e_restart_" + UUID.randomUUID().toString().substring(0, 6);
    PubsubSource channel = PubsubSource.create(stack, "restart", true);
    List<String> ingestArgs =
        IngestionArgs.forStep(step)
            .toList(channel, stack.bigquery(), RunTables.forOutputTable(table));

    PipelineResult first = Ingestion.start(stack, ingestArgs);
    // Paced, so the stop lands mid-stream however fast the engine drains what is published.
    PacedPublisher publisher =
        new PacedPublisher(
            channel,
            GeneratorArgs.generatorFor(
                GeneratorArgs.of(
                    List.of(),
                    EVENTS,
                    RATE,
                    7,
                    1,
                    false,
                    LocalRunConfig.defaults().datagenStructArgs())),
            EVENTS,
            RATE,
            1);
    CompletableFuture<Void> publishing = publisher.runAsync();
    PipelineResult second = null;
    try {
      long rowsAtStop = waitForRows(stack, table, 50, 120);
      Instant stoppedAt = Instant.now();
      PipelineControl.cancelAndWait(first, Duration.standardSeconds(30));
      stack.pubsub().seek(channel.subscription(), stoppedAt.minus(REPLAY_MARGIN));
      assertThat("stopped mid-stream", rowsAtStop, lessThan(EVENTS));

      second = Ingestion.start(stack, ingestArgs);
      publishing.get(120, TimeUnit.SECONDS);
      Map<Long, Long> ids = waitForAllIds(stack, table, EVENTS, 180);

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
          "Restart test (%s): %d rows before the stop, %d ids after restart, %d duplicate rows%n",
          step.describe(), rowsAtStop, ids.size(), duplicates);
      assertThat("ids lost across the restart", missing, empty());
      assertEquals(EVENTS, ids.size());
      assertThat(ids.size(), greaterThan(0));
    } finally {
      PipelineControl.cancelQuietly(first);
      publishing.cancel(true);
      if (second != null) {
        PipelineControl.cancelQuietly(second);
      }
    }
  }

  private static Map<Long, Long> waitForAllIds(
      EmulatorStack stack, String table, long events, int seconds) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    Map<Long, Long> ids = new HashMap<>();
    while (System.nanoTime() < deadline) {
      ids = idCounts(stack, table);
      if (ids.size() >= events) {
        // Give a redelivered duplicate the chance to show before counting.
        Thread.sleep(2000);
        return ids;
      }
      Thread.sleep(1000);
    }
    return ids;
  }
}
