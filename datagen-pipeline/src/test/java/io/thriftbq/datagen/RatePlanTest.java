package io.thriftbq.datagen;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.joda.time.Duration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class RatePlanTest {

  @Test
  public void rateBelowBatchSizeSendsOneMessageEveryFewSeconds() {
    RatePlan plan = RatePlan.of(5, 100, 0);
    assertEquals(1, plan.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(20), plan.period());
    assertEquals(0.05, plan.messagesPerSecond(), 1e-12);
    assertTrue(plan.enveloped());
  }

  @Test
  public void rateThatDoesNotDivideTheBatchSizeIsExact() {
    RatePlan plan = RatePlan.of(7, 100, 0);
    assertEquals(7, plan.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(100), plan.period());
    RatePlan thirds = RatePlan.of(1000, 3, 0);
    assertEquals(1000, thirds.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(3), thirds.period());
  }

  @Test
  public void rateOfOne() {
    RatePlan plain = RatePlan.of(1, 1, 0);
    assertEquals(1, plain.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(1), plain.period());
    assertFalse(plain.enveloped());
    RatePlan batched = RatePlan.of(1, 10, 0);
    assertEquals(1, batched.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(10), batched.period());
  }

  @Test
  public void highRatesReduceToWholeSeconds() {
    RatePlan plan = RatePlan.of(1_000_000, 10_000, 0);
    assertEquals(100, plan.batchesPerPeriod());
    assertEquals(Duration.standardSeconds(1), plan.period());
    assertEquals(1_000_000, RatePlan.of(1_000_000, 1, 0).batchesPerPeriod());
  }

  @Test
  public void maxEventsNotAMultipleOfTheBatchCutsTheLastBatch() {
    RatePlan plan = RatePlan.of(10, 3, 10);
    assertEquals(4, plan.numBatches());
    assertEquals(0, plan.firstSequence(0));
    assertEquals(9, plan.firstSequence(3));
    assertEquals(3, plan.eventsInBatch(0));
    assertEquals(3, plan.eventsInBatch(2));
    assertEquals(1, plan.eventsInBatch(3));
    assertEquals(0, plan.eventsInBatch(4));
  }

  @Test
  public void maxEventsBelowTheBatchSizeIsOneShortBatch() {
    RatePlan plan = RatePlan.of(1, 100, 5);
    assertEquals(1, plan.numBatches());
    assertEquals(5, plan.eventsInBatch(0));
  }

  @Test
  public void batchesCoverEveryEventExactlyOnce() {
    for (int batch = 1; batch <= 12; batch++) {
      for (long max = 1; max <= 40; max++) {
        RatePlan plan = RatePlan.of(3, batch, max);
        long next = 0;
        for (long b = 0; b < plan.numBatches(); b++) {
          assertEquals(next, plan.firstSequence(b));
          int events = plan.eventsInBatch(b);
          assertTrue(events >= 1 && events <= batch);
          next += events;
        }
        assertEquals("batch " + batch + " max " + max, max, next);
        assertEquals(0, plan.eventsInBatch(plan.numBatches()));
      }
    }
  }

  @Test
  public void unboundedAndUnthrottled() {
    RatePlan plan = RatePlan.of(0, 4, 0);
    assertFalse(plan.bounded());
    assertFalse(plan.throttled());
    assertEquals(-1, plan.numBatches());
    assertEquals(4, plan.eventsInBatch(1_000_000_000L));
    assertEquals(4_000_000_000L, plan.firstSequence(1_000_000_000L));
  }

  @Test
  public void rejectsInvalidValues() {
    assertThrows(IllegalArgumentException.class, () -> RatePlan.of(-1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> RatePlan.of(1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> RatePlan.of(1, 1, -1));
  }
}
