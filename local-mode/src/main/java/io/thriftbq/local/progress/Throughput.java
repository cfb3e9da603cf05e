package io.thriftbq.local.progress;

import java.util.List;

/**
 * The ingestion's rate, both figures taken from the same once-a-second samples of the event tables'
 * row count, over the same interval: from the first poll that saw rows to the first poll that saw
 * the final count ("writing interval"). Rows already there at the first poll landed before the
 * interval began and are left out of both.
 *
 * <ul>
 *   <li><b>sustained</b>: rows added during the writing interval divided by its length.
 *   <li><b>peak</b>: the highest rate between any two polls of the writing interval at least {@code
 *       window} apart. The writing interval itself is one such pair, so peak >= sustained by
 *       construction. When writing took less than the window, no pair spans it, and the peak is the
 *       sustained rate ({@link #windowLongerThanWriting}).
 * </ul>
 *
 * Both used to be taken differently (the peak over windows that could start before the first row,
 * the sustained rate over an interval that could be shorter than the window), so a short, bursty
 * run printed a sustained rate above its peak.
 */
public record Throughput(
    double sustainedRowsPerSec,
    double peakRowsPerSec,
    long windowMillis,
    long writingMillis,
    boolean windowLongerThanWriting) {

  public static final long PEAK_WINDOW_MILLIS = 5000;

  public static final String SUSTAINED_HOW =
      "rows written to the event table between the first once-a-second poll that saw rows and the"
          + " first poll that saw the final count, divided by the time between those two polls";

  public static final String PEAK_HOW =
      "the highest rate between any two polls of that same interval at least 5 s apart (the whole"
          + " interval is one of them, so peak >= sustained); when writing took under 5 s, the"
          + " sustained rate";

  /** Throughput of {@code timeline}; zero rates when fewer than two polls saw rows being added. */
  public static Throughput of(List<ProgressSample> timeline, long windowMillis) {
    int first = -1;
    long finalRows = 0;
    for (int i = 0; i < timeline.size(); i++) {
      long rows = timeline.get(i).rows();
      if (rows > 0 && first < 0) {
        first = i;
      }
      finalRows = Math.max(finalRows, rows);
    }
    if (first < 0) {
      return new Throughput(0, 0, windowMillis, 0, true);
    }
    int last = first;
    while (timeline.get(last).rows() < finalRows) {
      last++;
    }
    long writingMillis = timeline.get(last).elapsedMillis() - timeline.get(first).elapsedMillis();
    if (writingMillis <= 0) {
      return new Throughput(0, 0, windowMillis, 0, true);
    }
    double sustained = rate(timeline.get(first), timeline.get(last));
    double peak = 0;
    boolean anyWindow = false;
    for (int i = first; i <= last; i++) {
      for (int j = i + 1; j <= last; j++) {
        if (timeline.get(j).elapsedMillis() - timeline.get(i).elapsedMillis() >= windowMillis) {
          anyWindow = true;
          peak = Math.max(peak, rate(timeline.get(i), timeline.get(j)));
        }
      }
    }
    return new Throughput(
        sustained, anyWindow ? peak : sustained, windowMillis, writingMillis, !anyWindow);
  }

  private static double rate(ProgressSample from, ProgressSample to) {
    return (to.rows() - from.rows()) * 1000.0 / (to.elapsedMillis() - from.elapsedMillis());
  }
}
