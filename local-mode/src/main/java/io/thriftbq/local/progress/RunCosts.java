package io.thriftbq.local.progress;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Optional;

/**
 * What a local run costs, sampled once per second beside the row count so that the steady part of
 * the run ({@link SteadyWindow}) can be told from start-up and the final drain: CPU of the pipeline
 * (this JVM's process CPU time, less the publisher's and the report poller's threads) and of each
 * emulator or broker (its process and every process it started).
 */
public final class RunCosts {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * One sample; CPU figures are cumulative seconds.
   *
   * @param sourceCpu the Pub/Sub emulator's or the Kafka broker's, whichever carries the events
   */
  public record Sample(
      long elapsedMillis, long rows, double pipelineCpu, double sourceCpu, double bigqueryCpu) {}

  private RunCosts() {}

  /** CPU seconds of this JVM so far. */
  public static double jvmCpuSeconds() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean bean) {
      return bean.getProcessCpuTime() / 1e9;
    }
    return Double.NaN;
  }

  /** CPU seconds the calling thread has used so far. */
  public static double currentThreadCpuSeconds() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() / 1e9 : 0;
  }

  /** CPU seconds of process {@code pid} and its live descendants; NaN when it is gone. */
  public static double processTreeCpuSeconds(long pid) {
    Optional<ProcessHandle> root = ProcessHandle.of(pid);
    if (root.isEmpty()) {
      return Double.NaN;
    }
    double total = cpu(root.get());
    for (ProcessHandle child : (Iterable<ProcessHandle>) root.get().descendants()::iterator) {
      total += cpu(child);
    }
    return total;
  }

  private static double cpu(ProcessHandle handle) {
    return handle.info().totalCpuDuration().map(Duration::toNanos).orElse(0L) / 1e9;
  }
}
