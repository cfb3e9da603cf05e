package io.thriftbq.datagen;

import java.io.Serializable;
import org.joda.time.Duration;

/**
 * How a rate in events per second and a batch size become a sequence of messages.
 *
 * <p>The pipeline's source counts <em>batches</em>: batch {@code b} holds events {@code b *
 * batchSize} up to (excluding) {@code (b + 1) * batchSize}, the last one cut short at {@code
 * maxEvents}. The source is throttled to {@code eventsPerSecond / batchSize} batches per second,
 * expressed exactly as {@link #batchesPerPeriod()} batches per {@link #period()} (the fraction
 * reduced by the greatest common divisor), so a rate below the batch size still works: at 5
 * events/s and 100 events per message, one message leaves every 20 s and the average is 5 events/s.
 */
public final class RatePlan implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long eventsPerSecond;
  private final int batchSize;
  private final long maxEvents;

  private RatePlan(long eventsPerSecond, int batchSize, long maxEvents) {
    this.eventsPerSecond = eventsPerSecond;
    this.batchSize = batchSize;
    this.maxEvents = maxEvents;
  }

  /**
   * @param eventsPerSecond events per second over all workers; 0 = unthrottled
   * @param batchSize events per message, at least 1
   * @param maxEvents total events; 0 = unbounded
   */
  public static RatePlan of(long eventsPerSecond, int batchSize, long maxEvents) {
    if (eventsPerSecond < 0) {
      throw new IllegalArgumentException("rate must be >= 0: " + eventsPerSecond);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be >= 1: " + batchSize);
    }
    if (maxEvents < 0) {
      throw new IllegalArgumentException("maxEvents must be >= 0: " + maxEvents);
    }
    return new RatePlan(eventsPerSecond, batchSize, maxEvents);
  }

  public long eventsPerSecond() {
    return eventsPerSecond;
  }

  public int batchSize() {
    return batchSize;
  }

  public long maxEvents() {
    return maxEvents;
  }

  /** True when messages are envelopes; false for one plain event per message. */
  public boolean enveloped() {
    return batchSize > 1;
  }

  public boolean bounded() {
    return maxEvents > 0;
  }

  public boolean throttled() {
    return eventsPerSecond > 0;
  }

  /** Number of messages of a bounded run (the last may hold fewer events); -1 when unbounded. */
  public long numBatches() {
    return bounded() ? (maxEvents - 1) / batchSize + 1 : -1;
  }

  /** Sequence number of the first event of batch {@code batch}. */
  public long firstSequence(long batch) {
    return Math.multiplyExact(batch, (long) batchSize);
  }

  /** Events in batch {@code batch}: the batch size, less for the last batch, 0 past the end. */
  public int eventsInBatch(long batch) {
    if (!bounded()) {
      return batchSize;
    }
    long remaining = maxEvents - firstSequence(batch);
    return (int) Math.max(0, Math.min(batchSize, remaining));
  }

  /** Batches the source emits per {@link #period()}; meaningful only when throttled. */
  public long batchesPerPeriod() {
    return eventsPerSecond / gcd(eventsPerSecond, batchSize);
  }

  /** The period of {@link #batchesPerPeriod()}; meaningful only when throttled. */
  public Duration period() {
    return Duration.standardSeconds(batchSize / gcd(eventsPerSecond, batchSize));
  }

  /** Messages per second when throttled (may be below 1). */
  public double messagesPerSecond() {
    return eventsPerSecond / (double) batchSize;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  @Override
  public String toString() {
    return "RatePlan{eventsPerSecond="
        + eventsPerSecond
        + ", batchSize="
        + batchSize
        + ", maxEvents="
        + maxEvents
        + "}";
  }
}
