package io.thriftbq.local.progress;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

/** The window of the run's CPU figures, which the profile is cut to as well. */
public class RunCostsTest {
  private static RunCosts.Sample at(long millis, long rows, double pipelineCpu) {
    return new RunCosts.Sample(millis, rows, pipelineCpu, 0, 0);
  }

  private static final List<RunCosts.Sample> SAMPLES =
      List.of(
          at(1000, 0, 5.0), // start-up: no rows yet
          at(2000, 0, 8.0),
          at(3000, 100, 9.0), // the window starts here
          at(4000, 600, 10.0),
          at(5000, 1100, 11.0),
          at(6000, 1600, 12.0),
          at(7000, 2100, 13.0));

  @Test
  public void theWindowRunsFromTheFirstSampleWithRowsToTheLast() {
    RunCosts.Window window = RunCosts.window(SAMPLES).orElseThrow();
    assertEquals(3000, window.first().elapsedMillis());
    assertEquals(7000, window.last().elapsedMillis());
    assertEquals(2000, window.rows());
    // 4 CPU-s over 2,000 rows, start-up's 8 s left out.
    assertEquals(
        200.0, RunCosts.perHundredThousandRows(SAMPLES, RunCosts.Sample::pipelineCpu), 1e-9);
  }

  @Test
  public void theSecondHalfStartsAtTheMiddleSampleOfTheWindow() {
    RunCosts.Window half = RunCosts.secondHalf(SAMPLES).orElseThrow();
    assertEquals(5000, half.first().elapsedMillis());
    assertEquals(7000, half.last().elapsedMillis());
    assertEquals(1000, half.rows());
  }

  @Test
  public void noRowsNoWindow() {
    List<RunCosts.Sample> none = List.of(at(1000, 0, 1), at(2000, 0, 2));
    assertTrue(RunCosts.window(none).isEmpty());
    assertTrue(RunCosts.secondHalf(none).isEmpty());
    assertNull(RunCosts.perHundredThousandRows(none, RunCosts.Sample::pipelineCpu));
    // Too few rows in the window to say.
    assertNull(
        RunCosts.perHundredThousandRows(
            List.of(at(1000, 10, 1), at(2000, 60, 2)), RunCosts.Sample::pipelineCpu));
  }
}
