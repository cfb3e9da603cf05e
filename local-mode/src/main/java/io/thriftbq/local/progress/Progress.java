package io.thriftbq.local.progress;

import java.util.List;

/**
 * What following a run saw.
 *
 * @param timeline one sample per poll, in order
 * @param costs CPU samples taken with each poll; empty when {@code costsMeasured} is false
 * @param costsMeasured false when the generator pipeline publishes: it runs in this JVM, on the
 *     pipeline's CPU, so the pipeline's CPU cannot be told apart
 * @param generatorMillis when the poll first saw publishing finished, or -1
 * @param accountedAtMillis when the poll first saw every event accounted for, or -1
 * @param problems why following stopped early (pipeline failed, timeout), if it did
 * @param startedEpochMillis the wall-clock time (epoch milliseconds) the elapsed times count from,
 *     so that outside tools (a profiler's samples) can be placed on the timeline
 */
public record Progress(
    List<ProgressSample> timeline,
    List<RunCosts.Sample> costs,
    boolean costsMeasured,
    long generatorMillis,
    long accountedAtMillis,
    boolean timedOut,
    List<String> problems,
    long startedEpochMillis) {
  public Progress {
    timeline = List.copyOf(timeline);
    costs = List.copyOf(costs);
    problems = List.copyOf(problems);
  }
}
