package io.thriftbq.local.source;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.local.progress.RunCosts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Publishes the generator's events at a steady rate from this JVM, using the generator's
 * pipeline-free core, so every event carries the same bytes and the same {@code event_id} and
 * {@code event_time_ms} attributes as the generator pipeline would give it.
 *
 * <p>Why not the generator pipeline: a bounded run ({@code --maxEvents}) of it on the DirectRunner
 * reads its rate-limited source to the end before anything reaches Pub/Sub, so all events arrive in
 * one burst after {@code events / rate} seconds, each stamped up to that long before it was
 * published. That would make both the rate and the latency of a local run fiction. The end-to-end
 * tests still run the generator pipeline.
 */
public final class PacedPublisher {
  /** Publish calls per second; each carries the events due since the previous call. */
  private static final int TICKS_PER_SECOND = 20;

  public static final int MAX_MESSAGES_PER_CALL = 1000;

  private final EventSource source;
  private final EventMix mix;
  private final @Nullable LongFunction<SourceMessage> messages;
  private final long events;
  private PublishingSchedule schedule;
  private final int recordsPerMessage;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong publishedBytes = new AtomicLong();
  private volatile double cpuSeconds;
  private volatile long runMillis = -1;
  private @Nullable Waiting leadIn;

  /** What the publisher waits for after its first message, before pacing the rest. */
  @FunctionalInterface
  public interface Waiting {
    void await() throws InterruptedException;
  }

  public PacedPublisher(
      EventSource source,
      RandomEventGenerator generator,
      long events,
      long ratePerSec,
      int recordsPerMessage) {
    this(source, new EventMix(generator.config()), events, ratePerSec, recordsPerMessage);
  }

  /**
   * Publishes the events of {@code mix}: each message's type is the one the generator pipeline
   * picks for it ({@link EventMix#chooseType} of its batch number), named by the mix's attribute
   * when it has one.
   */
  public PacedPublisher(
      EventSource source, EventMix mix, long events, long ratePerSec, int recordsPerMessage) {
    this(source, mix, null, events, ratePerSec, recordsPerMessage);
  }

  /**
   * Publishes message {@code n} of {@code messages} for n = 0, 1, ... in order (a change stream),
   * one event per message, stamped with its creation time.
   */
  public PacedPublisher(
      EventSource source, LongFunction<SourceMessage> messages, long events, long ratePerSec) {
    this(source, null, messages, events, ratePerSec, 1);
  }

  private PacedPublisher(
      EventSource source,
      @Nullable EventMix mix,
      @Nullable LongFunction<SourceMessage> messages,
      long events,
      long ratePerSec,
      int recordsPerMessage) {
    this.source = source;
    this.mix = mix;
    this.messages = messages;
    this.events = events;
    this.schedule = PublishingSchedule.steady(ratePerSec);
    this.recordsPerMessage = recordsPerMessage;
  }

  /**
   * Publishes the first message alone and waits for {@code pipelineWriting} before pacing the rest
   * from that moment: the events are not queued behind the pipeline's start-up. The rate and {@link
   * #runMillis} are those of the paced part.
   */
  public PacedPublisher leadingOneMessage(Waiting pipelineWriting) {
    this.leadIn = pipelineWriting;
    return this;
  }

  /**
   * Raises the rate from nothing to the full rate over the first {@code rampMillis} of pacing
   * (after the lead-in, when there is one) instead of starting at the full rate: see {@link
   * PublishingSchedule}.
   */
  public PacedPublisher rampingUpOver(long rampMillis) {
    this.schedule = new PublishingSchedule(schedule.ratePerSec(), rampMillis);
    return this;
  }

  public long published() {
    return published.get();
  }

  /** Payload bytes published so far (what the pipeline reads, without attributes). */
  public long publishedBytes() {
    return publishedBytes.get();
  }

  /** How long publishing everything took, or -1 while it is still publishing. */
  public long runMillis() {
    return runMillis;
  }

  /** CPU seconds this publisher's thread has spent so far, to leave out of the pipeline's. */
  public double cpuSeconds() {
    return cpuSeconds;
  }

  /** {@link #run()} on a pool thread; a failure completes the future exceptionally. */
  public java.util.concurrent.CompletableFuture<Void> runAsync() {
    return java.util.concurrent.CompletableFuture.runAsync(
        () -> {
          try {
            run();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  /** Publishes every event, pacing to the rate; returns when the last one is acknowledged. */
  public void run() throws IOException, InterruptedException {
    double cpuAtStart = RunCosts.currentThreadCpuSeconds();
    long next = 0;
    if (leadIn != null && events > 0) {
      int count = (int) Math.min(recordsPerMessage, events);
      publish(List.of(message(0, count)), count);
      next = count;
      leadIn.await();
    }
    long start = System.nanoTime();
    long pacedFrom = next;
    while (next < events) {
      double elapsedSec = (System.nanoTime() - start) / 1e9;
      long due =
          Math.min(events, pacedFrom + (long) Math.ceil(schedule.dueAt(elapsedSec * 1000)) + 1);
      List<SourceMessage> batch = new ArrayList<>();
      while (next < due && batch.size() < MAX_MESSAGES_PER_CALL) {
        int count = (int) Math.min(recordsPerMessage, events - next);
        batch.add(message(next, count));
        next += count;
      }
      if (!batch.isEmpty()) {
        publish(batch, next);
      }
      cpuSeconds = RunCosts.currentThreadCpuSeconds() - cpuAtStart;
      if (next < due) {
        continue; // behind schedule: publish the rest without sleeping
      }
      long wakeAt = start + (long) ((elapsedSec + 1.0 / TICKS_PER_SECOND) * 1e9);
      long sleepNanos = wakeAt - System.nanoTime();
      if (sleepNanos > 0) {
        Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
      }
    }
    runMillis = (System.nanoTime() - start) / 1_000_000;
  }

  private void publish(List<SourceMessage> batch, long publishedThrough) throws IOException {
    source.publish(batch);
    published.set(publishedThrough);
    long bytes = 0;
    for (SourceMessage message : batch) {
      bytes += message.data().length;
    }
    publishedBytes.addAndGet(bytes);
  }

  private SourceMessage message(long first, int count) {
    long createdAtMs = System.currentTimeMillis();
    if (messages != null) {
      SourceMessage message = messages.apply(first);
      Map<String, String> stamped = new HashMap<>(message.attributes());
      stamped.put(EventAttributes.EVENT_TIME_MS, Long.toString(createdAtMs));
      return new SourceMessage(message.data(), stamped, message.recordKey());
    }
    Map<String, String> attributes = new HashMap<>();
    int type = mix.chooseType(first / recordsPerMessage);
    RandomEventGenerator generator = mix.generator(type);
    byte[] payload;
    if (recordsPerMessage == 1) {
      payload = generator.serialize(first);
    } else {
      List<byte[]> members = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        members.add(generator.serialize(first + i));
      }
      payload = EventEnvelope.pack(members);
      attributes.putAll(EventEnvelope.envelopeAttributes(count));
    }
    attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(createdAtMs));
    attributes.put(EventAttributes.EVENT_ID, Long.toString(first));
    if (mix.attribute() != null) {
      attributes.put(mix.attribute(), mix.name(type));
    }
    return new SourceMessage(payload, attributes);
  }
}
