package io.thriftbq.local.latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Records, in this JVM, how long after its creation each event row was handed to BigQuery: from the
 * {@code event_time_ms} attribute (stored in the row's {@code _attributes} column) to the moment
 * {@link io.thriftbq.local.beamio.EmulatorBigQueryServices} sends the row to the emulator (Storage
 * Write append or {@code insertAll} request).
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
  private static short[] tableOf = new short[4096];
  private static final List<String> TABLES = new ArrayList<>();
  private static int size;
  private static long dropped;
  private static long rowsWithoutEventTime;
  private static long requests;
  private static long requestRows;

  private HandOffLatencyProbe() {}

  static synchronized void record(long latencyMillis) {
    record(latencyMillis, System.currentTimeMillis() - latencyMillis);
  }

  static synchronized void record(long latencyMillis, long eventTimeMillis) {
    record(latencyMillis, eventTimeMillis, null);
  }

  /** A row of {@code table} (null when unknown) handed off {@code latencyMillis} after creation. */
  static synchronized void record(
      long latencyMillis, long eventTimeMillis, @Nullable String table) {
    if (size == samples.length) {
      if (size >= MAX_SAMPLES) {
        dropped++;
        return;
      }
      samples = Arrays.copyOf(samples, Math.min(MAX_SAMPLES, size * 2));
      createdAt = Arrays.copyOf(createdAt, samples.length);
      tableOf = Arrays.copyOf(tableOf, samples.length);
    }
    int index = table == null ? -1 : TABLES.indexOf(table);
    if (table != null && index < 0 && TABLES.size() < Short.MAX_VALUE) {
      TABLES.add(table);
      index = TABLES.size() - 1;
    }
    tableOf[size] = (short) index;
    createdAt[size] = eventTimeMillis;
    samples[size++] = latencyMillis;
  }

  /**
   * The rows of one hand-off to {@code table} (null when unknown) at {@code nowMillis}: {@code
   * count} events created at {@code createdMillis[0..count)}, and {@code missing} rows without a
   * usable event time; one lock for the whole batch.
   */
  static synchronized void recordAll(
      long nowMillis, long[] createdMillis, int count, int missing, @Nullable String table) {
    for (int i = 0; i < count; i++) {
      record(nowMillis - createdMillis[i], createdMillis[i], table);
    }
    rowsWithoutEventTime += missing;
  }

  /**
   * One request to the emulator carrying {@code rows} rows (a Storage Write append or an {@code
   * insertAll}): the append size, which sets most of the emulator's cost per row.
   */
  static synchronized void recordRequest(int rows) {
    requests++;
    requestRows += rows;
  }

  /** Requests handed to the emulator so far and the rows they carried. */
  public static synchronized HandOffRequests requests() {
    return new HandOffRequests(requests, requestRows);
  }

  /** How many requests carried how many rows in all. */
  public record HandOffRequests(long requests, long rows) {
    public double rowsPerRequest() {
      return requests == 0 ? Double.NaN : (double) rows / requests;
    }
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

  /**
   * The samples grouped by when their events were created: element {@code i} holds those created in
   * {@code [fromEpochMillis + i * windowMillis, fromEpochMillis + (i + 1) * windowMillis)}, up to
   * the last window that holds one; events created before {@code fromEpochMillis} are left out.
   */
  public static synchronized List<long[]> samplesByCreationWindow(
      long fromEpochMillis, long windowMillis) {
    int windows = 0;
    for (int i = 0; i < size; i++) {
      if (createdAt[i] >= fromEpochMillis) {
        windows = (int) Math.max(windows, (createdAt[i] - fromEpochMillis) / windowMillis + 1);
      }
    }
    int[] counts = new int[windows];
    for (int i = 0; i < size; i++) {
      if (createdAt[i] >= fromEpochMillis) {
        counts[(int) ((createdAt[i] - fromEpochMillis) / windowMillis)]++;
      }
    }
    long[][] out = new long[windows][];
    for (int w = 0; w < windows; w++) {
      out[w] = new long[counts[w]];
      counts[w] = 0;
    }
    for (int i = 0; i < size; i++) {
      if (createdAt[i] >= fromEpochMillis) {
        int w = (int) ((createdAt[i] - fromEpochMillis) / windowMillis);
        out[w][counts[w]++] = samples[i];
      }
    }
    return List.of(out);
  }

  /**
   * The samples of rows handed to {@code table} (the table id, without project and dataset) of
   * events created at or after {@code fromEpochMillis}.
   */
  public static synchronized long[] samplesOfTable(String table, long fromEpochMillis) {
    int wanted = TABLES.indexOf(table);
    long[] out = new long[size];
    int n = 0;
    for (int i = 0; i < size && wanted >= 0; i++) {
      if (tableOf[i] == wanted && createdAt[i] >= fromEpochMillis) {
        out[n++] = samples[i];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** The table id in a Storage Write stream name or table URN ({@code .../tables/T/...}). */
  public static @Nullable String tableOfStream(@Nullable String name) {
    if (name == null) {
      return null;
    }
    int at = name.indexOf("/tables/");
    if (at < 0) {
      return null;
    }
    String rest = name.substring(at + "/tables/".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
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
    requests = 0;
    requestRows = 0;
    samples = new long[4096];
    createdAt = new long[4096];
    tableOf = new short[4096];
    TABLES.clear();
    size = 0;
    dropped = 0;
    rowsWithoutEventTime = 0;
  }
}
