package io.thriftbq.local.report;

import io.thriftbq.local.config.TuningStep;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One step's figures in a comparison, read from its run's report. A figure the run could not
 * measure is null.
 *
 * @param ok every event accounted for, no duplicate on an exactly-once step
 * @param sustainedEventsPerSec rows/s between the first poll that saw rows and the last
 * @param steadyEventsPerSec rows/s over the steady window ({@code SteadyWindow#RATE_HOW}); null
 *     when the run was too short for one
 * @param sourceCpuPer100k the Pub/Sub emulator's or the Kafka broker's, whichever carried the
 *     events
 * @param latencyP50Millis p50 after warm-up; null when no event was created after the warm-up (a
 *     run shorter than it), never the whole run's figure in its place
 * @param pipelineShareByGroup the pipeline's CPU by component group as shares of its whole (the
 *     profile's groups, in order), empty when the run was not profiled
 */
public record StepFigures(
    int step,
    String describe,
    boolean ok,
    double publishedPerSec,
    Double sustainedEventsPerSec,
    Double steadyEventsPerSec,
    Double pipelineCpuPer100k,
    Double sourceCpuPer100k,
    Double bigqueryCpuPer100k,
    Double encodedBytesPerElement,
    Double exchangedBytesPerInputByte,
    Long latencyP50Millis,
    Long latencyP99Millis,
    Map<String, Double> pipelineShareByGroup) {

  public StepFigures {
    pipelineShareByGroup = Collections.unmodifiableMap(new LinkedHashMap<>(pipelineShareByGroup));
  }

  public static StepFigures of(TuningStep step, LocalReport report) {
    ThroughputFigures throughput = report.figures.throughput();
    CostFigures costs = report.figures.costs();
    LatencyFigures.Spread steady = report.figures.latency().afterWarmup();
    Double published = throughput.publishEventsPerSec();
    return new StepFigures(
        step.number(),
        step.describe(),
        report.ok(),
        published == null ? 0 : published,
        throughput.rowsPerSecSustained(),
        throughput.rowsPerSecSteady(),
        costs.pipelineCpuPer100k(),
        costs.sourceCpuPer100k(),
        costs.bigqueryCpuPer100k(),
        costs.encodedBytesPerElement(),
        costs.exchangedBytesPerInputByte(),
        steady.measured() ? steady.p50() : null,
        steady.measured() ? steady.p99() : null,
        report.figures.profile() == null
            ? Map.of()
            : report.figures.profile().window().shareByGroup());
  }
}
