package io.thriftbq.local.run;

import io.thriftbq.local.progress.LandedRows;
import io.thriftbq.local.result.RunResult;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * When a run's pipeline is writing: its first row or dead letter has landed. The paced publisher
 * publishes one event, waits here, and only then paces the rest. Without the wait, every event
 * published while the engine starts (5-7 s on a faster machine of the class, 13 s and more at the
 * slow end) queues, and at the slow end the pipeline, with little headroom over the rate, does not
 * drain that backlog within a default run: the latency measured is the start-up's, not the
 * pipeline's (benchmarks/RESULTS.md section 15).
 */
final class PipelineReadiness {
  /** Publishing goes on after this long without a row, and the run says so. */
  static final Duration LIMIT = Duration.ofSeconds(90);

  private static final long POLL_MILLIS = 200;

  private final LandedRows landed;
  private final Duration limit;
  private final CompletableFuture<Long> waited = new CompletableFuture<>();

  PipelineReadiness(LandedRows landed) {
    this(landed, LIMIT);
  }

  PipelineReadiness(LandedRows landed, Duration limit) {
    this.landed = landed;
    this.limit = limit;
  }

  /**
   * Blocks until the pipeline's first output has landed, or the limit ({@link #LIMIT}) has passed;
   * completes {@link #waitedMillis} with how long it waited, or {@link RunResult#GAVE_UP_WAITING}.
   */
  void await() throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    try {
      while (System.nanoTime() < deadline) {
        if (anyOutput()) {
          waited.complete((System.nanoTime() - start) / 1_000_000);
          return;
        }
        Thread.sleep(POLL_MILLIS);
      }
    } finally {
      // The limit passed, or the wait was interrupted: whoever waits for the outcome must not wait
      // forever. A no-op when a row was seen.
      waited.complete(RunResult.GAVE_UP_WAITING);
    }
  }

  /**
   * Completed once {@link #await} returns: the millis it waited, or {@link
   * RunResult#GAVE_UP_WAITING}.
   */
  CompletableFuture<Long> waitedMillis() {
    return waited;
  }

  private boolean anyOutput() {
    try {
      return landed.rows() + landed.deadLetters() > 0;
    } catch (IOException busy) {
      return false; // an emulator slow to answer while the engine starts: ask again
    }
  }
}
