package io.thriftbq.local.progress;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a local run costs, sampled once per second beside the row count so that the steady part of
 * the run (from the first rows to the last) can be told from start-up: CPU of the pipeline (this
 * JVM's process CPU time, less the publisher's and the report poller's threads) and of each
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

  /**
   * The part of the run the CPU figures cover: from the first sample that saw rows (start-up left
   * out) to the last sample.
   */
  public record Window(Sample first, Sample last) {
    public long rows() {
      return last.rows() - first.rows();
    }
  }

  /** The window of {@code samples}; empty when no sample saw rows. */
  public static Optional<Window> window(List<Sample> samples) {
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i).rows() > 0) {
        return Optional.of(new Window(samples.get(i), samples.get(samples.size() - 1)));
      }
    }
    return Optional.empty();
  }

  /**
   * The second half of the window, from the sample in its middle (by count) to the last: the JVM is
   * warmer there (a bounded run spends much of its CPU compiling early on).
   */
  public static Optional<Window> secondHalf(List<Sample> samples) {
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i).rows() > 0) {
        int middle = (i + samples.size() - 1) / 2;
        return Optional.of(new Window(samples.get(middle), samples.get(samples.size() - 1)));
      }
    }
    return Optional.empty();
  }

  /**
   * CPU seconds per 100,000 rows over the {@link #window}; null when the run wrote too few rows in
   * it to say.
   */
  public static Double perHundredThousandRows(
      List<Sample> samples, java.util.function.ToDoubleFunction<Sample> cpu) {
    Optional<Window> window = window(samples);
    if (window.isEmpty()) {
      return null;
    }
    long rows = window.get().rows();
    double seconds =
        cpu.applyAsDouble(window.get().last()) - cpu.applyAsDouble(window.get().first());
    if (rows < 100 || Double.isNaN(seconds)) {
      return null;
    }
    return seconds * 100_000 / rows;
  }
}
