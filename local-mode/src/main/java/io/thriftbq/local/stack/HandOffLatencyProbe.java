package io.thriftbq.local.stack;

import java.util.Arrays;

/**
 * Records, in this JVM, how long after its creation each event row was handed to BigQuery: from the
 * {@code event_time_ms} attribute (stored in the row's {@code _attributes} column) to the moment
 * {@link EmulatorBigQueryServices} sends the row to the emulator (Storage Write append or {@code
 * insertAll} request).
 *
 * <p>Beam's metrics only offer distributions (count, sum, min, max), not percentiles, and this is
 * the one place in local mode that sees every row at the hand-off; the DirectRunner runs the
 * pipeline in the JVM that reads the probe, so a static recorder is enough. Retried appends count
 * again, which is what a user waiting for the row would also experience.
 */
public final class HandOffLatencyProbe {
  /** 8 MB of samples; a local run never gets near it, and a longer one keeps the first. */
  private static final int MAX_SAMPLES = 1 << 20;

  private static long[] samples = new long[4096];
  private static long[] createdAt = new long[4096];
  private static int size;
  private static long dropped;
  private static long rowsWithoutEventTime;

  private HandOffLatencyProbe() {}

  static synchronized void record(long latencyMillis) {
    record(latencyMillis, System.currentTimeMillis() - latencyMillis);
  }

  static synchronized void record(long latencyMillis, long eventTimeMillis) {
    if (size == samples.length) {
      if (size >= MAX_SAMPLES) {
        dropped++;
        return;
      }
      samples = Arrays.copyOf(samples, Math.min(MAX_SAMPLES, size * 2));
      createdAt = Arrays.copyOf(createdAt, samples.length);
    }
    createdAt[size] = eventTimeMillis;
    samples[size++] = latencyMillis;
  }

  static synchronized void recordMissingEventTime() {
    rowsWithoutEventTime++;
  }

  /** A copy of the samples so far, in recording order. */
  public static synchronized long[] samples() {
    return Arrays.copyOf(samples, size);
  }

  /**
   * The samples of events created at or after {@code fromEpochMillis}: lets a report leave out the
   * pipeline's start-up, when the first events wait for the runner to begin reading.
   */
  public static synchronized long[] samplesCreatedSince(long fromEpochMillis) {
    long[] out = new long[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (createdAt[i] >= fromEpochMillis) {
        out[n++] = samples[i];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Rows handed off whose {@code _attributes} had no usable {@code event_time_ms}. */
  public static synchronized long rowsWithoutEventTime() {
    return rowsWithoutEventTime;
  }

  /** Samples not kept because the buffer was full. */
  public static synchronized long dropped() {
    return dropped;
  }

  public static synchronized void reset() {
    samples = new long[4096];
    createdAt = new long[4096];
    size = 0;
    dropped = 0;
    rowsWithoutEventTime = 0;
  }
}
