package io.thriftbq.local.progress;

import java.util.Arrays;

/** Nearest-rank percentiles of a set of latency samples. */
public final class Percentiles {
  private final long[] sorted;

  public Percentiles(long[] samples) {
    this.sorted = samples.clone();
    Arrays.sort(this.sorted);
  }

  public int count() {
    return sorted.length;
  }

  /**
   * The smallest sample such that at least {@code p} percent of the samples are at or below it
   * (nearest-rank definition: no interpolation, so every reported value was really observed).
   *
   * @throws IllegalStateException when there are no samples
   */
  public long percentile(double p) {
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    if (sorted.length == 0) {
      throw new IllegalStateException("no samples");
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  public long min() {
    return percentileOrThrow(0);
  }

  public long max() {
    return percentileOrThrow(sorted.length - 1);
  }

  public double mean() {
    if (sorted.length == 0) {
      throw new IllegalStateException("no samples");
    }
    double sum = 0;
    for (long v : sorted) {
      sum += v;
    }
    return sum / sorted.length;
  }

  private long percentileOrThrow(int index) {
    if (sorted.length == 0) {
      throw new IllegalStateException("no samples");
    }
    return sorted[index];
  }
}
