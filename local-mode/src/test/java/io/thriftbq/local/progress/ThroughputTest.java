package io.thriftbq.local.progress;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.Test;

/** Sustained and peak ingestion rates: one definition, so the peak is never below the sustained. */
public class ThroughputTest {
  private static final long WINDOW = Throughput.PEAK_WINDOW_MILLIS;

  /** Polls at the given times (ms) seeing the given row counts. */
  private static List<ProgressSample> series(long[][] points) {
    List<ProgressSample> timeline = new ArrayList<>();
    for (long[] p : points) {
      timeline.add(new ProgressSample(p[0], p[1], 0));
    }
    return timeline;
  }

  /**
   * The shape of the step 6 run that printed "540.3 rows/s sustained, 356.0 rows/s peak (5 s)":
   * nothing for the engine's start-up, then the rows in a few bursts (one per triggering period)
   * over less than the 5 s window. The old peak took windows starting before the first row and the
   * old sustained rate the shorter interval, so the peak came out lower.
   */
  private static final long[][] BURSTY_SHORT =
      new long[][] {
        {1000, 0},
        {2000, 0},
        {3000, 0},
        {4000, 0},
        {5000, 0},
        {6000, 0},
        {7000, 0},
        {8000, 0},
        {9000, 0},
        {10000, 0},
        {11000, 300},
        {12100, 300},
        {13200, 1100},
        {14300, 1100},
        {15400, 2000}
      };

  @Test
  public void theBurstyRunThatPrintedAPeakBelowTheSustainedRateNoLongerDoes() {
    Throughput rates = Throughput.of(series(BURSTY_SHORT), WINDOW);
    // From the first poll that saw rows (11.0 s, 300) to the first that saw all 2,000 (15.4 s).
    assertEquals(1700 * 1000.0 / 4400, rates.sustainedRowsPerSec(), 1e-9);
    assertEquals(4400, rates.writingMillis());
    assertTrue("writing took less than the window", rates.windowLongerThanWriting());
    assertThat(rates.peakRowsPerSec(), greaterThanOrEqualTo(rates.sustainedRowsPerSec()));
  }

  @Test
  public void thePeakIsTheBestWindowOfTheWritingInterval() {
    Throughput rates =
        Throughput.of(
            series(
                new long[][] {
                  {1000, 0},
                  {2000, 100},
                  {3000, 200},
                  {4000, 300},
                  {5000, 400},
                  {6000, 500},
                  {7000, 600},
                  {8000, 1600},
                  {9000, 2600},
                  {10000, 3600},
                  {11000, 4600},
                  {12000, 5600},
                  {13000, 5700},
                  {14000, 5700}
                }),
            WINDOW);
    assertEquals((5700 - 100) * 1000.0 / 11000, rates.sustainedRowsPerSec(), 1e-9);
    // 6 s -> 11 s and 7 s -> 12 s both add 5,000 rows in 5 s: 1,000 rows/s.
    assertEquals(1000.0, rates.peakRowsPerSec(), 1e-9);
    assertFalse(rates.windowLongerThanWriting());
  }

  @Test
  public void noRowsNoRates() {
    Throughput rates = Throughput.of(series(new long[][] {{1000, 0}, {2000, 0}}), WINDOW);
    assertEquals(0.0, rates.sustainedRowsPerSec(), 0);
    assertEquals(0.0, rates.peakRowsPerSec(), 0);
  }

  /** Random bursty series with uneven poll spacing: the peak is never below the sustained. */
  @Test
  public void thePeakIsNeverBelowTheSustainedRate() {
    SplittableRandom random = new SplittableRandom(20261125L);
    for (int run = 0; run < 2000; run++) {
      List<ProgressSample> timeline = new ArrayList<>();
      long t = 0;
      long rows = 0;
      int polls = 2 + random.nextInt(40);
      for (int i = 0; i < polls; i++) {
        t += 900 + random.nextInt(1500); // slow queries stretch the once-a-second poll
        if (i > random.nextInt(polls) && random.nextInt(3) == 0) {
          rows += random.nextInt(2000); // bursts: most polls see nothing new
        }
        timeline.add(new ProgressSample(t, rows, 0));
      }
      Throughput rates = Throughput.of(timeline, WINDOW);
      assertThat(
          "run " + run + ": " + timeline,
          rates.peakRowsPerSec(),
          greaterThanOrEqualTo(rates.sustainedRowsPerSec()));
    }
  }
}
