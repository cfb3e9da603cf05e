package io.thriftbq.local.engine;

import java.io.IOException;
import org.apache.beam.sdk.PipelineResult;
import org.joda.time.Duration;

/** Asking a pipeline running on either engine what it is doing, and stopping it. */
public final class PipelineControl {
  private PipelineControl() {}

  /**
   * True for a pipeline on the embedded Flink cluster, whose metrics {@link FlinkMetrics} reads.
   */
  public static boolean isFlink(PipelineResult result) {
    return result.getClass().getName().startsWith("org.apache.beam.runners.flink.");
  }

  /**
   * Cancels {@code result} and waits up to {@code timeout} for it to end. The embedded Flink
   * cluster shuts itself down once its job is cancelled, after which its result answers every call
   * with "MiniCluster is not yet running or has already been shut down": that is the job having
   * ended.
   */
  public static PipelineResult.State cancelAndWait(PipelineResult result, Duration timeout)
      throws IOException {
    try {
      result.cancel();
      PipelineResult.State state = result.waitUntilFinish(timeout);
      return state == null ? PipelineResult.State.UNKNOWN : state;
    } catch (IllegalStateException e) {
      if (String.valueOf(e.getMessage()).contains("MiniCluster")) {
        return PipelineResult.State.CANCELLED;
      }
      throw e;
    }
  }

  public static void cancelQuietly(PipelineResult result) {
    try {
      if (!result.getState().isTerminal()) {
        result.cancel();
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: the JVM ends right after a local run anyway.
    }
  }
}
