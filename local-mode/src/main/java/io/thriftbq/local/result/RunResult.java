package io.thriftbq.local.result;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.source.MalformedMessages;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Everything one local run observed, as plain values: what the report and the step comparison are
 * built from. A run produces it; nothing in it refers back to the run, its emulators or its
 * pipelines.
 *
 * @param source what the run read from, by name (for Pub/Sub: topic and subscription)
 * @param tableNames each table as the report names it ({@code project:dataset.table})
 * @param eventsPublished generated events published (malformed messages are counted apart)
 * @param generatorMillis how long publishing took, or -1 when unknown
 * @param waitedForPipelineMillis how long the paced publisher, after its first event, waited for
 *     the pipeline's first row before pacing the rest: -1 when it did not wait (a change stream,
 *     the generator pipeline), {@link #GAVE_UP_WAITING} when it went on without one
 * @param payloadBytesPublished Thrift payload bytes published (0 when not measured)
 * @param pipelineCounters the ingestion pipeline's Beam counters at the end
 * @param pipelineLatency its end-to-end latency distribution, null when it reported none
 * @param latencySamples hand-off latency of every row, ms
 * @param steadyLatencySamples the same, for events created after the warm-up ({@link
 *     io.thriftbq.local.progress.SteadyWindow#LATENCY_WARM_UP})
 * @param latencyByCreationWindow hand-off latencies by when their events were created: element
 *     {@code i} holds the events created {@code i} to {@code i + 1} times {@link
 *     #LATENCY_WINDOW_MILLIS} after the pipeline was started
 * @param encodedBytesPerElement mean encoded size of the elements handed to BigQueryIO
 * @param bigqueryRequests the requests (appends or inserts) that carried rows to the emulator
 * @param exchangedBytes bytes through the engine's data exchanges; null when the engine does not
 *     say
 * @param idField the {@code --id-field} check, null without the flag
 * @param problems what went wrong while publishing or following
 * @param typeMix with many event types, each event's struct and table; else null
 * @param latencyByTable hand-off latencies per event table (all samples)
 * @param steadyLatencyByTable the same, for events created after the warm-up
 * @param cpuByComponent the pipeline's CPU by component ({@code --profile}); else null
 * @param changeState with {@code --changes}, the table's final state against the expected one; else
 *     null
 */
public record RunResult(
    LocalRunConfig config,
    RunTables tables,
    Map<String, String> source,
    Map<String, String> tableNames,
    List<String> ingestionArgs,
    List<MalformedMessages.Malformed> malformed,
    long eventsPublished,
    long generatorMillis,
    long waitedForPipelineMillis,
    long payloadBytesPublished,
    Progress progress,
    Map<String, Long> pipelineCounters,
    @Nullable LatencyDistribution pipelineLatency,
    long[] latencySamples,
    long[] steadyLatencySamples,
    List<long[]> latencyByCreationWindow,
    double encodedBytesPerElement,
    HandOffLatencyProbe.HandOffRequests bigqueryRequests,
    @Nullable Long exchangedBytes,
    Map<String, Long> exchangedBytesByTask,
    List<EventTableContents> eventTables,
    List<DeadLetterContents> deadLetterTables,
    @Nullable IdFieldCheck idField,
    List<String> problems,
    @Nullable TypeMix typeMix,
    Map<String, long[]> latencyByTable,
    Map<String, long[]> steadyLatencyByTable,
    @Nullable PipelineProfile cpuByComponent,
    @Nullable ChangeStateCheck changeState) {

  /** {@code waitedForPipelineMillis} of a run whose publisher went on without a first row. */
  public static final long GAVE_UP_WAITING = -2;

  /** The width of each window of {@code latencyByCreationWindow}. */
  public static final long LATENCY_WINDOW_MILLIS = 5_000;

  /** Events whose converted rows are encoded to measure the mean element size. */
  public static final int ENCODED_SIZE_SAMPLE = 1000;

  /** A Beam distribution's summary: count, mean, min, max. */
  public record LatencyDistribution(long count, double mean, long min, long max) {}

  public RunResult {
    // Kept in the caller's order: the report lists them so.
    source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
    tableNames = Collections.unmodifiableMap(new LinkedHashMap<>(tableNames));
    ingestionArgs = List.copyOf(ingestionArgs);
    malformed = List.copyOf(malformed);
    pipelineCounters = Map.copyOf(pipelineCounters);
    exchangedBytesByTask = Map.copyOf(exchangedBytesByTask);
    eventTables = List.copyOf(eventTables);
    deadLetterTables = List.copyOf(deadLetterTables);
    problems = List.copyOf(problems);
    latencyByCreationWindow = List.copyOf(latencyByCreationWindow);
    latencyByTable = Map.copyOf(latencyByTable);
    steadyLatencyByTable = Map.copyOf(steadyLatencyByTable);
  }
}
