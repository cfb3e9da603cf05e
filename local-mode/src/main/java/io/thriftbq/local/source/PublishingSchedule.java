package io.thriftbq.local.source;

/**
 * When the paced publisher's events are due: the rate rises in a straight line from nothing to
 * {@code ratePerSec} over the first {@code rampMillis} of pacing, then holds.
 *
 * <p>Why a ramp: the pipeline's first row comes before its code is compiled and its connections are
 * warm. On a slow machine the full rate at that moment queues events faster than the cold pipeline
 * and the emulators beside it work them off, and on a stack near its capacity that queue outlasts a
 * short run. A load that rises over the report's warm-up leaves the warm-up to the start-up and the
 * rest of the run to the steady state, as a load test's ramp does.
 *
 * @param ratePerSec the rate after the ramp, events per second
 * @param rampMillis how long the rate takes to rise; 0 for the full rate at once
 */
public record PublishingSchedule(long ratePerSec, long rampMillis) {
  public PublishingSchedule {
    if (ratePerSec < 1) {
      throw new IllegalArgumentException("The rate must be at least 1 event/s, not " + ratePerSec);
    }
    if (rampMillis < 0) {
      throw new IllegalArgumentException("The ramp cannot be negative: " + rampMillis + " ms");
    }
  }

  /** The full rate from the start. */
  public static PublishingSchedule steady(long ratePerSec) {
    return new PublishingSchedule(ratePerSec, 0);
  }

  /** How many events are due {@code elapsedMillis} after pacing began (not rounded). */
  public double dueAt(double elapsedMillis) {
    if (elapsedMillis <= 0) {
      return 0;
    }
    double perMilli = ratePerSec / 1000.0;
    if (elapsedMillis < rampMillis) {
      // The area under a rate rising linearly from 0 to perMilli over rampMillis.
      return perMilli * elapsedMillis * elapsedMillis / (2.0 * rampMillis);
    }
    return perMilli * (elapsedMillis - rampMillis / 2.0);
  }

  /** How long publishing {@code events} takes, in milliseconds: the inverse of {@link #dueAt}. */
  public long millisFor(long events) {
    if (events <= 0) {
      return 0;
    }
    double perMilli = ratePerSec / 1000.0;
    double dueByRampEnd = perMilli * rampMillis / 2.0;
    if (events <= dueByRampEnd) {
      return Math.round(Math.sqrt(2.0 * rampMillis * events / perMilli));
    }
    return Math.round(events / perMilli + rampMillis / 2.0);
  }
}
