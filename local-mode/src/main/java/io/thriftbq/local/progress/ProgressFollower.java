package io.thriftbq.local.progress;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.LongConsumer;
import org.apache.beam.sdk.PipelineResult;

/**
 * Follows a run once a second until every event is accounted for (written or dead-lettered), the
 * pipeline stops, or the run times out; prints a progress line per poll when asked.
 */
public final class ProgressFollower {
  private final LocalRunConfig config;
  private final EmulatorStack stack;
  private final LandedRows landed;
  private final PrintStream out;
  private long expectedRows = -1;
  private long expectedIdSum = -1;

  public ProgressFollower(
      LocalRunConfig config, EmulatorStack stack, LandedRows landed, PrintStream out) {
    this.config = config;
    this.stack = stack;
    this.landed = landed;
    this.out = out;
  }

  /** Follows until done; {@code startNanos} is when the ingestion pipeline was started. */
  /**
   * Follows a change stream's run: it is over once the tables hold the expected final state, {@code
   * rows} rows whose {@code event_id}s (each key's winning message) add up to {@code idSum}, not
   * one row per event.
   */
  public ProgressFollower expectingFinalState(long rows, long idSum) {
    expectedRows = rows;
    expectedIdSum = idSum;
    return this;
  }

  public Progress follow(PipelineResult ingestion, Publishing publishing, long startNanos)
      throws Exception {
    return follow(ingestion, publishing, startNanos, elapsedMillis -> {});
  }

  /**
   * Follows until done, calling {@code atCostSample} with the poll's elapsed time right after each
   * CPU sample is taken (a profiler reads its per-thread CPU there, so that it can cut the same
   * window as the run's CPU figures).
   */
  public Progress follow(
      PipelineResult ingestion, Publishing publishing, long startNanos, LongConsumer atCostSample)
      throws Exception {
    long startedEpochMillis =
        System.currentTimeMillis() - (System.nanoTime() - startNanos) / 1_000_000;
    List<ProgressSample> timeline = new ArrayList<>();
    List<RunCosts.Sample> costs = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long generatorMillis = -1;
    long accountedAtMillis = -1;
    boolean timedOut = false;
    boolean costsMeasured = publishing.publisherCpuSeconds().isPresent();
    double followerCpuAtStart = RunCosts.currentThreadCpuSeconds();
    long deadline = startNanos + config.timeout().toNanos();
    ProgressSample previous = new ProgressSample(0, 0, 0);
    long lastPublished = 0;
    while (true) {
      Thread.sleep(1000);
      long elapsed = (System.nanoTime() - startNanos) / 1_000_000;
      if (publishing.eventsDone() && generatorMillis < 0) {
        generatorMillis = elapsed;
      }
      ProgressSample sample = new ProgressSample(elapsed, landed.rows(), landed.deadLetters());
      long published = publishing.published();
      timeline.add(sample);
      OptionalDouble publisherCpu = publishing.publisherCpuSeconds();
      if (costsMeasured && publisherCpu.isPresent()) {
        double followerCpu = RunCosts.currentThreadCpuSeconds() - followerCpuAtStart;
        costs.add(
            new RunCosts.Sample(
                elapsed,
                sample.rows() + sample.deadLetters(),
                RunCosts.jvmCpuSeconds() - publisherCpu.getAsDouble() - followerCpu,
                RunCosts.processTreeCpuSeconds(stack.sourcePid(config.source())),
                RunCosts.processTreeCpuSeconds(stack.bigquery().pid())));
        atCostSample.accept(elapsed);
      }
      if (config.progress()) {
        printLine(previous, sample, lastPublished, published);
      }
      previous = sample;
      lastPublished = published;
      PipelineResult.State state = ingestion.getState();
      if (state == PipelineResult.State.FAILED || state == PipelineResult.State.CANCELLED) {
        problems.add("The ingestion pipeline stopped early in state " + state);
        break;
      }
      long rowsWanted = expectedRows < 0 ? config.events() : expectedRows;
      if (publishing.allDone()
          && sample.rows() >= rowsWanted
          && sample.deadLetters() >= publishing.malformedCount()
          && landed.distinctEventIds() >= rowsWanted
          && (expectedIdSum < 0 || landed.eventIdSum() == expectedIdSum)) {
        accountedAtMillis = elapsed;
        break;
      }
      if (System.nanoTime() > deadline) {
        timedOut = true;
        problems.add(
            "Timed out after "
                + config.timeout().toSeconds()
                + " s before every event was accounted for");
        break;
      }
    }
    // Late duplicates (a redelivery, a retried append) would land within about one ack
    // deadline; an exactly-once step must not produce any, so give them a moment to show.
    Thread.sleep(timedOut ? 0 : 2000);
    return new Progress(
        timeline,
        costs,
        costsMeasured,
        generatorMillis,
        accountedAtMillis,
        timedOut,
        problems,
        startedEpochMillis);
  }

  private void printLine(
      ProgressSample previous, ProgressSample sample, long lastPublished, long published) {
    double seconds = Math.max(0.001, (sample.elapsedMillis() - previous.elapsedMillis()) / 1000.0);
    out.printf(
        "  %5.1fs  published %7d (%6.0f/s)  written %7d (%6.0f/s)  dead-lettered %5d%n",
        sample.elapsedMillis() / 1000.0,
        published,
        (published - lastPublished) / seconds,
        sample.rows(),
        (sample.rows() - previous.rows()) / seconds,
        sample.deadLetters());
  }
}
