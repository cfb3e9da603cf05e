package io.thriftbq.local.progress;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class PercentilesTest {
  @Test
  public void nearestRankOfOneToHundred() {
    long[] samples = new long[100];
    for (int i = 0; i < 100; i++) {
      samples[i] = 100 - i; // unsorted on purpose
    }
    Percentiles p = new Percentiles(samples);
    assertEquals(50, p.percentile(50));
    assertEquals(95, p.percentile(95));
    assertEquals(99, p.percentile(99));
    assertEquals(100, p.percentile(100));
    assertEquals(1, p.min());
    assertEquals(100, p.max());
    assertEquals(50.5, p.mean(), 1e-9);
  }

  @Test
  public void reportsOnlyObservedValues() {
    Percentiles p = new Percentiles(new long[] {10, 1000});
    assertEquals(10, p.percentile(50));
    assertEquals(1000, p.percentile(51));
    assertEquals(1000, p.percentile(99));
  }

  @Test
  public void singleSampleIsEveryPercentile() {
    Percentiles p = new Percentiles(new long[] {7});
    assertEquals(7, p.percentile(1));
    assertEquals(7, p.percentile(99));
  }

  @Test
  public void rejectsEmptyInputAndBadPercentiles() {
    assertThrows(IllegalStateException.class, () -> new Percentiles(new long[0]).percentile(50));
    assertThrows(
        IllegalArgumentException.class, () -> new Percentiles(new long[] {1}).percentile(0));
    assertThrows(
        IllegalArgumentException.class, () -> new Percentiles(new long[] {1}).percentile(101));
  }
}
