package io.thriftbq.local.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The paced publisher's schedule: a straight ramp to the rate, then the rate. */
public class PublishingScheduleTest {
  @Test
  public void withoutARampEventsAreDueAtTheRateFromTheStart() {
    PublishingSchedule steady = PublishingSchedule.steady(200);
    assertEquals(0, steady.dueAt(0), 0);
    assertEquals(200, steady.dueAt(1000), 1e-9);
    assertEquals(4000, steady.dueAt(20_000), 1e-9);
    assertEquals(20_000, steady.millisFor(4000));
  }

  @Test
  public void theRampHalvesTheEventsOfItsSpanThenHoldsTheRate() {
    PublishingSchedule ramp = new PublishingSchedule(200, 10_000);
    // Halfway up the ramp the rate is half, and a quarter of the ramp's full-rate events are due.
    assertEquals(250, ramp.dueAt(5_000), 1e-9);
    assertEquals("by the ramp's end: half its span at the rate", 1000, ramp.dueAt(10_000), 1e-9);
    assertEquals(1200, ramp.dueAt(11_000), 1e-9);
    // The rising rate: each second due more than the last, up to the rate.
    double before = 0;
    double step = 0;
    for (int second = 1; second <= 10; second++) {
      double now = ramp.dueAt(second * 1000);
      assertTrue("second " + second, now - before > step);
      assertTrue("second " + second + " at most the rate", now - before <= 200 + 1e-9);
      step = now - before;
      before = now;
    }
    assertEquals("after the ramp, the rate", 200, ramp.dueAt(15_000) - ramp.dueAt(14_000), 1e-9);
  }

  @Test
  public void millisForIsTheInverseOfDueAt() {
    for (PublishingSchedule schedule :
        new PublishingSchedule[] {
          new PublishingSchedule(200, 10_000),
          new PublishingSchedule(8000, 10_000),
          new PublishingSchedule(7, 3_000),
          PublishingSchedule.steady(1000)
        }) {
      for (long events : new long[] {1, 10, 999, 1000, 1001, 4000, 150_000}) {
        long millis = schedule.millisFor(events);
        assertEquals(schedule + " " + events, events, schedule.dueAt(millis), 0.01 * events + 0.5);
      }
    }
    assertEquals(
        "4000 events at 200/s after a 10 s ramp",
        25_000,
        new PublishingSchedule(200, 10_000).millisFor(4000));
    assertEquals(
        "a run that ends on the ramp", 5_000, new PublishingSchedule(200, 10_000).millisFor(250));
    assertEquals(0, new PublishingSchedule(200, 10_000).millisFor(0));
  }

  @Test
  public void refusesAZeroRateAndANegativeRamp() {
    assertThrows(IllegalArgumentException.class, () -> new PublishingSchedule(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new PublishingSchedule(10, -1));
  }
}
