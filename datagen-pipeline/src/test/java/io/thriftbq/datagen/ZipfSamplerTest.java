package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class ZipfSamplerTest {

  @Test
  public void matchesTheExactDistribution() {
    long[] sizes = {2, 10, 1000, 200_000};
    double[] exponents = {0.0, 0.5, 1.0, 1.0001, 1.5, 3.0};
    for (long n : sizes) {
      for (double s : exponents) {
        assertMatches(n, s);
      }
    }
  }

  @Test
  public void singleValueAlwaysDrawsRankOne() {
    ZipfSampler sampler = new ZipfSampler(1, 1.2);
    SplitMixRandom random = new SplitMixRandom(3);
    for (int i = 0; i < 1000; i++) {
      assertEquals(1, sampler.sample(random));
    }
  }

  @Test
  public void staysInRangeForHugeCardinalities() {
    ZipfSampler sampler = new ZipfSampler(1_000_000_000_000L, 0.8);
    SplitMixRandom random = new SplitMixRandom(4);
    long max = 0;
    for (int i = 0; i < 100_000; i++) {
      long k = sampler.sample(random);
      assertThat(0L, lessThan(k));
      assertThat(k, lessThan(1_000_000_000_001L));
      max = Math.max(max, k);
    }
    assertThat("exponent 0.8 has a heavy tail", 1_000_000_000L, lessThan(max));
  }

  @Test
  public void rejectsInvalidParameters() {
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, -0.1));
    assertThrows(IllegalArgumentException.class, () -> new ZipfSampler(10, Double.NaN));
  }

  /** Compares the frequencies of the first ranks and of the rest with a chi-square bound. */
  private static void assertMatches(long n, double s) {
    int draws = 200_000;
    int shown = (int) Math.min(n, 10);
    double normalizer = 0;
    for (long k = 1; k <= n; k++) {
      normalizer += Math.pow(k, -s);
    }
    long[] counts = new long[shown + 1];
    ZipfSampler sampler = new ZipfSampler(n, s);
    SplitMixRandom random = new SplitMixRandom(n * 31 + (long) (s * 1000));
    for (int i = 0; i < draws; i++) {
      long k = sampler.sample(random);
      counts[k <= shown ? (int) k - 1 : shown]++;
    }
    double chiSquare = 0;
    double restProbability = 1;
    for (int k = 1; k <= shown; k++) {
      double p = Math.pow(k, -s) / normalizer;
      restProbability -= p;
      chiSquare += square(counts[k - 1] - draws * p) / (draws * p);
    }
    int cells = shown;
    if (n > shown) {
      double expected = draws * restProbability;
      chiSquare += square(counts[shown] - expected) / expected;
      cells++;
    }
    // The 99.99th percentile of chi-square with <= 10 degrees of freedom is below 36.
    assertThat("n=" + n + " s=" + s + " over " + cells + " cells", chiSquare, lessThan(36.0));
  }

  private static double square(double x) {
    return x * x;
  }
}
