package io.thriftbq.local.progress;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.Test;

/**
 * The steady window of the run's CPU figures (which the profile is cut to as well), on synthetic
 * polls with a start-up, a steady part and a drain.
 */
public class SteadyWindowTest {

  /**
   * One poll a second from 1 s to {@code lastSecond}: {@code rows} visible at each, and pipeline
   * CPU that costs 5 s before the first rows (start-up), then {@code cpuPerSecond}.
   */
  private static List<RunCosts.Sample> polls(
      int lastSecond, LongUnaryOperator rows, LongUnaryOperator cpuMillis) {
    List<RunCosts.Sample> samples = new ArrayList<>();
    for (long second = 1; second <= lastSecond; second++) {
      samples.add(
          new RunCosts.Sample(
              second * 1000,
              rows.applyAsLong(second),
              cpuMillis.applyAsLong(second) / 1000.0,
              0,
              Double.NaN));
    }
    return samples;
  }

  @Test
  public void aPacedRunEndsAtTheLastPollBeforeThePublisherFinished() {
    // Rows from 5 s at 200/s to 4,400 at 27 s; the publisher was seen finished at 25 s. The
    // pipeline's CPU: 4 s of start-up, then 0.4 s a second (200 CPU-s per 100k), nearly idle in
    // the drain.
    List<RunCosts.Sample> samples =
        polls(
            27,
            s -> s < 5 ? 0 : Math.min(4400, (s - 4) * 200),
            s -> s < 5 ? 1000 * s : 4000 + 400 * Math.min(s - 4, 21) + 10 * Math.max(0, s - 25));
    SteadyWindow window = SteadyWindow.of(samples, 25_000).orElseThrow();
    assertEquals("10 s after the first rows", 15_000, window.first().elapsedMillis());
    assertEquals("the poll before the publisher's end", 24_000, window.last().elapsedMillis());
    assertEquals(1800, window.events());
    assertEquals(200.0, window.eventsPerSec(), 1e-9);
    assertEquals(200.0, window.perHundredThousandEvents(RunCosts.Sample::pipelineCpu), 1e-9);
  }

  @Test
  public void aSaturationRunKeepsTheBacklogAndLeavesOutTheLastFiveSeconds() {
    // The publisher was done at 4 s; the pipeline works through the backlog at 1,000 rows/s from
    // 6 s until the last poll at 31 s.
    List<RunCosts.Sample> samples =
        polls(31, s -> s < 6 ? 0 : (s - 5) * 1000, s -> s < 6 ? 2000 * s : 12_000 + 900 * (s - 5));
    SteadyWindow window = SteadyWindow.of(samples, 4000).orElseThrow();
    assertEquals(16_000, window.first().elapsedMillis());
    assertEquals("the last poll before 31 - 5 s", 25_000, window.last().elapsedMillis());
    assertEquals(9000, window.events());
    assertEquals("the backlog's rate, not the start's", 1000.0, window.eventsPerSec(), 1e-9);
    assertEquals(90.0, window.perHundredThousandEvents(RunCosts.Sample::pipelineCpu), 1e-9);
  }

  @Test
  public void rowsProcessedBeforeTheWindowAreNotCountedInIt() {
    // The pipeline processes 500 events a second from 2 s to 32 s at 100 CPU-s per 100k (after 6
    // s of start-up CPU), and each row becomes visible 5 s after it was processed (a flush, a
    // commit), so the first rows show at 8 s with 3,000 events' CPU already spent; the publisher
    // was seen finished at 32 s, and the last rows at 37 s.
    List<RunCosts.Sample> samples =
        polls(
            37,
            s -> 500 * Math.max(0, Math.min(s - 5, 32) - 2),
            s -> s < 2 ? 3000 * s : 6000 + 500 * (Math.min(s, 32) - 2) + 10 * Math.max(0, s - 32));
    SteadyWindow window = SteadyWindow.of(samples, 32_000).orElseThrow();
    assertEquals("10 s after the first rows at 8 s", 18_000, window.first().elapsedMillis());
    assertEquals(31_000, window.last().elapsedMillis());
    assertEquals(6500, window.events());
    assertEquals(100.0, window.perHundredThousandEvents(RunCosts.Sample::pipelineCpu), 1e-9);
    // From the first visible rows to the last poll, as before 2026-11-28: the 3,000 events in
    // flight at its start count, their CPU does not, and the run looks 17% cheaper.
    RunCosts.Sample firstRows = samples.get(7);
    RunCosts.Sample lastPoll = samples.get(samples.size() - 1);
    assertEquals(8000, firstRows.elapsedMillis());
    double fromFirstRows =
        (lastPoll.pipelineCpu() - firstRows.pipelineCpu())
            * 100_000
            / (lastPoll.rows() - firstRows.rows());
    assertEquals(83.1, fromFirstRows, 0.1);
  }

  @Test
  public void withoutAPublisherEndTheWindowRunsToTheLastPoll() {
    List<RunCosts.Sample> samples = polls(20, s -> s < 3 ? 0 : (s - 2) * 100, s -> 100 * s);
    SteadyWindow window = SteadyWindow.of(samples, -1).orElseThrow();
    assertEquals(13_000, window.first().elapsedMillis());
    assertEquals(20_000, window.last().elapsedMillis());
  }

  @Test
  public void aRunTooShortForASteadyWindowHasNone() {
    // 3,000 events at 1,000/s: rows from 5 to 8 s; no poll 10 s after the first rows.
    List<RunCosts.Sample> short1 = polls(8, s -> s < 5 ? 0 : (s - 4) * 750, s -> 100 * s);
    assertTrue(SteadyWindow.of(short1, 4000).isEmpty());
    // A window of 4 s (14..18 s, before the publisher's end at 19 s): under the 5 s minimum.
    List<RunCosts.Sample> short2 = polls(20, s -> s < 4 ? 0 : (s - 3) * 100, s -> 100 * s);
    assertTrue(SteadyWindow.of(short2, 19_000).isEmpty());
    // Long enough, but under 100 events.
    List<RunCosts.Sample> slow = polls(40, s -> s < 4 ? 0 : s - 3, s -> 100 * s);
    assertTrue(SteadyWindow.of(slow, 38_000).isEmpty());
    // No rows at all.
    assertTrue(SteadyWindow.of(polls(20, s -> 0, s -> 100 * s), 10_000).isEmpty());
  }

  @Test
  public void aProcessGoneAtAnEndHasNoFigure() {
    List<RunCosts.Sample> samples = polls(30, s -> s < 3 ? 0 : (s - 2) * 100, s -> 100 * s);
    SteadyWindow window = SteadyWindow.of(samples, 28_000).orElseThrow();
    assertNull(window.perHundredThousandEvents(RunCosts.Sample::bigqueryCpu));
  }

  @Test
  public void theSecondHalfStartsAtTheMiddlePollOfTheWindow() {
    List<RunCosts.Sample> samples = polls(30, s -> s < 3 ? 0 : (s - 2) * 100, s -> 100 * s);
    SteadyWindow window = SteadyWindow.of(samples, 28_000).orElseThrow();
    assertEquals(13_000, window.first().elapsedMillis());
    assertEquals(27_000, window.last().elapsedMillis());
    SteadyWindow half = window.secondHalf(samples);
    assertEquals(20_000, half.first().elapsedMillis());
    assertEquals(27_000, half.last().elapsedMillis());
    assertEquals(700, half.events());
  }

  @Test
  public void latencysWarmUpEndsTenSecondsAfterTheFirstPollThatSawRowsOrDeadLetters() {
    // A slow machine: nothing visible for 14 s, then a dead letter before the first row.
    List<ProgressSample> timeline =
        List.of(
            new ProgressSample(1000, 0, 0),
            new ProgressSample(14_000, 0, 0),
            new ProgressSample(15_000, 0, 1),
            new ProgressSample(16_000, 40, 1));
    assertEquals(25_000, SteadyWindow.warmUpEndMillis(timeline).getAsLong());
    assertTrue(SteadyWindow.warmUpEndMillis(timeline.subList(0, 2)).isEmpty());
  }
}
