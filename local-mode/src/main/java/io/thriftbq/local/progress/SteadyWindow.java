package io.thriftbq.local.progress;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The part of a run that CPU per event is taken over: {@link #DEFINITION}, the one wording that the
 * report prints and the docs quote (docs/LOCAL.md and benchmarks/RESULTS.md carry it as a generated
 * block).
 *
 * <p>Both ends are polls inside the steady state, so that the rows made visible but not yet counted
 * at one end are about as many as at the other. Starting at the first visible row (as before
 * 2026-11-28) counted rows that had been processed before the window, whose CPU lay outside it: a
 * step whose rows show only after a flush looked several times cheaper than it was. Ending at the
 * poll that saw every event left an end with nothing in flight against a start with a full
 * pipeline.
 *
 * @param first the poll the window starts at
 * @param last the poll it ends at
 */
public record SteadyWindow(RunCosts.Sample first, RunCosts.Sample last) {
  /** How long after the first visible rows the window starts: the engine and JIT settle first. */
  public static final long WARMUP_MILLIS = 10_000;

  /**
   * The drain, when the publisher finished with a backlog left: the last this long of the run,
   * where the pipeline runs dry and the final rows wait for a flush.
   */
  public static final long DRAIN_MILLIS = 5_000;

  /** A window shorter than this gives no figure: its two ends are too few polls apart. */
  public static final long MIN_MILLIS = 5_000;

  /** A window with fewer events than this gives no figure. */
  public static final long MIN_EVENTS = 100;

  /** What CPU per event means, as the report prints it and the docs quote it. */
  public static final String DEFINITION =
      "CPU per event is each process's CPU time between two once-a-second polls divided by the"
          + " rows and dead letters that became visible in the event tables between them. The two"
          + " polls bound the steady window: it starts at the first poll at least "
          + WARMUP_MILLIS / 1000
          + " s (the warm-up) after the first poll that saw rows, and ends at the last poll"
          + " before the final drain, which begins when the publisher finished or, when the"
          + " pipeline had a backlog left then (a saturation run), "
          + DRAIN_MILLIS / 1000
          + " s before the last poll. A run whose steady window is shorter than "
          + MIN_MILLIS / 1000
          + " s or saw fewer than "
          + MIN_EVENTS
          + " events has no CPU figure (\"-\"), never one taken over another window.";

  /**
   * What "after the warm-up" means for latency, as the report prints it: the same warm-up as the
   * CPU figures', so that both leave out the engine's start-up however long it takes on the
   * machine.
   */
  public static final String LATENCY_WARM_UP =
      "events created at least "
          + WARMUP_MILLIS / 1000
          + " s (the warm-up) after the first poll that saw rows or dead letters";

  /**
   * When the warm-up ends, in ms since the pipeline was started: {@link #WARMUP_MILLIS} after the
   * first poll of {@code timeline} that saw rows or dead letters; empty when none did.
   */
  public static OptionalLong warmUpEndMillis(List<ProgressSample> timeline) {
    return warmUpEndMillis(
        timeline, ProgressSample::elapsedMillis, s -> s.rows() + s.deadLetters());
  }

  /** The one rule of both: {@link #WARMUP_MILLIS} after the first poll that saw any output. */
  private static <T> OptionalLong warmUpEndMillis(
      List<T> polls, ToLongFunction<T> elapsedMillis, ToLongFunction<T> output) {
    for (T poll : polls) {
      if (output.applyAsLong(poll) > 0) {
        return OptionalLong.of(elapsedMillis.applyAsLong(poll) + WARMUP_MILLIS);
      }
    }
    return OptionalLong.empty();
  }

  /** What the steady rate means, as the report prints it and its JSON says. */
  public static final String RATE_HOW =
      "rows and dead letters that became visible in the event tables in the steady window (the CPU"
          + " figures' window, after the warm-up and before the final drain) divided by its length;"
          + " at saturation, the rate the pipeline keeps up once started; none when the run was too"
          + " short for a steady window";

  /** Rows and dead letters that became visible in the window. */
  public long events() {
    return last.rows() - first.rows();
  }

  public long millis() {
    return last.elapsedMillis() - first.elapsedMillis();
  }

  /** {@link #events()} per second of the window ({@link #RATE_HOW}). */
  public double eventsPerSec() {
    return events() * 1000.0 / millis();
  }

  /** The steady window of a followed run; empty when the run was too short to have one. */
  public static Optional<SteadyWindow> of(Progress progress) {
    return of(progress.costs(), progress.generatorMillis());
  }

  /**
   * The steady window of {@code samples} (in time order, the last one where following stopped);
   * empty when it is shorter than {@link #MIN_MILLIS} or saw fewer than {@link #MIN_EVENTS}.
   *
   * @param publisherDoneMillis the first poll that saw the publisher finished; negative when none
   *     did (the publisher was publishing at every poll)
   */
  public static Optional<SteadyWindow> of(List<RunCosts.Sample> samples, long publisherDoneMillis) {
    // A cost sample's rows are the poll's rows and dead letters.
    OptionalLong warmedUp =
        warmUpEndMillis(samples, RunCosts.Sample::elapsedMillis, RunCosts.Sample::rows);
    if (warmedUp.isEmpty()) {
      return Optional.empty();
    }
    long startAtOrAfter = warmedUp.getAsLong();
    int start = 0;
    while (start < samples.size() && samples.get(start).elapsedMillis() < startAtOrAfter) {
      start++;
    }
    long lastPoll = samples.get(samples.size() - 1).elapsedMillis();
    long drainStart =
        publisherDoneMillis < 0
            ? Long.MAX_VALUE
            : Math.max(publisherDoneMillis, lastPoll - DRAIN_MILLIS);
    int end = samples.size() - 1;
    while (end >= 0 && samples.get(end).elapsedMillis() >= drainStart) {
      end--;
    }
    if (start >= samples.size() || end <= start) {
      return Optional.empty();
    }
    SteadyWindow window = new SteadyWindow(samples.get(start), samples.get(end));
    return window.millis() >= MIN_MILLIS && window.events() >= MIN_EVENTS
        ? Optional.of(window)
        : Optional.empty();
  }

  /**
   * The window's second half, from its middle poll (by count) in {@code samples} to its end: the
   * JVM is warmer there. The profile splits it too; no minimum applies.
   */
  public SteadyWindow secondHalf(List<RunCosts.Sample> samples) {
    int from = samples.indexOf(first);
    int to = samples.indexOf(last);
    return new SteadyWindow(samples.get((from + to) / 2), last);
  }

  /** CPU seconds per 100,000 events over the window; null when the process was gone at an end. */
  public @Nullable Double perHundredThousandEvents(ToDoubleFunction<RunCosts.Sample> cpu) {
    double seconds = cpu.applyAsDouble(last) - cpu.applyAsDouble(first);
    return Double.isNaN(seconds) ? null : seconds * 100_000 / events();
  }
}
