package io.thriftbq.local.run;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.ChangeStream;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.datagen.ExpectedState;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.SaturationRun;
import io.thriftbq.local.engine.FlinkMetrics;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import io.thriftbq.local.profile.ComponentSplit;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.profile.PipelineProfiler;
import io.thriftbq.local.progress.PipelineMetrics;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.ProgressFollower;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.result.ChangeStateCheck;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.IdFieldCheck;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.result.TypeMix;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One local run on an already started {@link EmulatorStack}: creates its source and tables, starts
 * the ingestion pipeline (on the configured engine, in this JVM), publishes the generator's events
 * and the malformed messages, follows progress by querying the BigQuery emulator, and reads
 * everything back into a {@link RunResult}.
 *
 * <p>Ingestion runs in this JVM, not a child one, because the hand-off latency probe ({@link
 * HandOffLatencyProbe}) and the pipeline's metrics are read from it directly; callers end the JVM
 * with {@code System.exit} because the Storage Write client leaves a non-daemon thread.
 */
public final class LocalRun {
  private final EmulatorStack stack;
  private final LocalRunConfig config;
  private final PrintStream out;

  public LocalRun(EmulatorStack stack, LocalRunConfig config, PrintStream out) {
    this.stack = stack;
    this.config = config;
    this.out = out;
  }

  /** Runs, and reports what was observed. */
  public LocalReport execute() throws Exception {
    return LocalReport.of(observe());
  }

  /** Runs, and returns what was observed. */
  public RunResult observe() throws Exception {
    if (!stack.runs(config.source())) {
      throw new IllegalArgumentException(
          "The run reads from the "
              + config.source().serverName()
              + ", which the stack did not start");
    }
    try (EventSource source =
        EventSource.create(stack, config.source(), "events-step" + config.step().number())) {
      return observe(source);
    }
  }

  private RunResult observe(EventSource source) throws Exception {
    List<String> genArgs = GeneratorArgs.of(config, source.generatorArgs());
    // --changes: a change stream over the same events, with the pipeline's key, change type and
    // sequence flags, and its expected final state (computed before anything starts, so a flag
    // the generator refuses fails the run at once).
    List<String> changeArgs = List.of();
    ChangeStream changeStream = null;
    ExpectedState expectedState = null;
    if (config.changes() != null) {
      changeArgs = new ArrayList<>(GeneratorArgs.of(config, List.of()));
      changeArgs.addAll(ChangeRun.generatorFlags(config));
      changeStream = ChangeRun.stream(changeArgs);
      expectedState = ChangeRun.stream(changeArgs).expectedState(config.events());
    }
    EventMix mix = GeneratorArgs.mixFor(config);
    RunTables tables = RunTables.forTypes(config.tableName(), mix.eventTypes());
    // In change mode launch creates every table with its primary key (a table made here would
    // have none, which launch refuses).
    if ((config.step().connectionPool() || config.manyTypes()) && !ChangeRun.changeMode(config)) {
      // The pooled writer needs its tables to exist; with many types every table is made up
      // front, so a run never waits on the pipeline's own creation of one per struct.
      List<String> tableArgs = new ArrayList<>(config.ingestionStructArgs());
      tableArgs.addAll(source.ingestionArgs());
      EmulatorTables.create(stack, tables, tableArgs);
    }
    IngestionArgs ingestionFlags = IngestionArgs.of(config);
    List<String> ingestArgs = ingestionFlags.toList(source, stack.bigquery(), tables);
    RandomEventGenerator generator = mix.generator(0);
    // Checked before anything starts: a wrong path fails the run at once.
    LongFunction<String> idOf =
        config.idField() == null ? null : IdFields.of(generator, config.idField());
    List<MalformedMessages.Malformed> malformed =
        MalformedMessages.create(
            config.malformedCount(), config.seed(), mix, generator.config().protocol());
    TypeMix typeMix = config.manyTypes() ? typeMix(mix, tables) : null;
    printStart(
        source, tables, malformed.size(), ingestArgs, ingestionFlags.appliedHandOffWriters());

    double encodedBytesPerElement =
        config.manyTypes()
            ? ElementSizes.meanEncodedBytes(ingestArgs, mix, RunResult.ENCODED_SIZE_SAMPLE)
            : ElementSizes.meanEncodedBytes(ingestArgs, generator, RunResult.ENCODED_SIZE_SAMPLE);
    HandOffLatencyProbe.reset();
    // Before the pipeline starts, so that its threads and the publisher's are in the recording;
    // stopped however the run ends, a pipeline that fails to start included.
    try (PipelineProfiler profiler = config.profile() ? PipelineProfiler.start() : null) {
      SaturationPriority.beforeRun(stack, config, out);
      long startNanos = System.nanoTime();
      PipelineResult ingestion = Ingestion.start(stack, ingestArgs);
      TableQueries landed = new TableQueries(stack, tables, source.attributesColumn());
      try (EventPublishing publishing =
          EventPublishing.start(
              config,
              source,
              genArgs,
              mix,
              changeStream == null ? null : ChangeRun.messages(changeStream),
              malformed,
              landed)) {
        ProgressFollower follower = new ProgressFollower(config, stack, landed, out);
        if (expectedState != null) {
          long[] target = ChangeRun.finalStateTarget(expectedState, ChangeRun.stream(changeArgs));
          follower.expectingFinalState(target[0], target[1]);
        }
        Progress progress =
            follower.follow(
                ingestion,
                publishing,
                startNanos,
                profiler == null ? elapsedMillis -> {} : profiler::mark);
        List<String> problems = new ArrayList<>(progress.problems());
        PipelineProfile cpuByComponent = cpuByComponent(profiler, progress);
        problems.addAll(publishing.problems());
        MetricQueryResults metrics = PipelineMetrics.ingestion(ingestion);
        boolean flink = PipelineControl.isFlink(ingestion);
        // Read back before cancelling: the emulator must not be asked anything after a cancel that
        // may tear down Storage Write streams mid-append (see BigQueryEmulator).
        TableAudit audit =
            new TableAudit(stack.bigquery(), config.sampleRows(), source.attributesColumn());
        List<EventTableContents> eventTables = new ArrayList<>();
        for (String table : tables.eventTables()) {
          eventTables.add(audit.eventTable(table));
        }
        List<DeadLetterContents> deadLetterTables = new ArrayList<>();
        for (String table : tables.deadLetterTables()) {
          deadLetterTables.add(audit.deadLetterTable(table));
        }
        IdFieldCheck idField = null;
        if (idOf != null && eventTables.stream().anyMatch(EventTableContents::exists)) {
          Set<Long> deadLettered = new HashSet<>();
          deadLetterTables.forEach(d -> deadLettered.addAll(d.validEvents().keySet()));
          idField =
              audit.idField(
                  config.idField(), tables.eventTables(), config.events(), deadLettered, idOf);
        }
        ChangeStateCheck changeState =
            expectedState == null
                ? null
                : ChangeRun.check(
                    stack.bigquery(),
                    tables,
                    source.attributesColumn(),
                    expectedState,
                    ChangeRun.stream(changeArgs),
                    publishing.eventsPublished());
        long publisherMillis = publishing.publisherMillis();
        OptionalLong warmUpEnd = SteadyWindow.warmUpEndMillis(progress.timeline());
        // No row ever seen: no event counts as after the warm-up.
        long warmedUpEpochMillis =
            warmUpEnd.isPresent()
                ? progress.startedEpochMillis() + warmUpEnd.getAsLong()
                : Long.MAX_VALUE;
        return new RunResult(
            config,
            tables,
            source.describe(),
            tableNames(tables),
            ingestArgs,
            malformed,
            publishing.eventsPublished(),
            publisherMillis > 0 ? publisherMillis : progress.generatorMillis(),
            publishing.waitedForPipelineMillis(),
            publishing.payloadBytes(),
            progress,
            PipelineMetrics.counters(metrics),
            latencyDistribution(metrics),
            HandOffLatencyProbe.samples(),
            HandOffLatencyProbe.samplesCreatedSince(warmedUpEpochMillis),
            HandOffLatencyProbe.samplesByCreationWindow(
                progress.startedEpochMillis(), RunResult.LATENCY_WINDOW_MILLIS),
            encodedBytesPerElement,
            HandOffLatencyProbe.requests(),
            flink ? FlinkMetrics.latestJobExchangedBytes() : null,
            flink ? FlinkMetrics.latestJobExchangedBytesByTask() : Map.of(),
            eventTables,
            deadLetterTables,
            idField,
            problems,
            typeMix,
            latencyByTable(tables, 0),
            latencyByTable(tables, warmedUpEpochMillis),
            cpuByComponent,
            changeState);
      } finally {
        PipelineControl.cancelQuietly(ingestion);
      }
    }
  }

  /**
   * Stops the profiler and splits the pipeline's CPU over the steady window of the run's CPU
   * figures and its second half; null without a profiler, or when it cannot (said, but the run is
   * not failed for it: the profile describes the run, it does not judge it).
   */
  private @Nullable PipelineProfile cpuByComponent(
      @Nullable PipelineProfiler profiler, Progress progress) {
    if (profiler == null) {
      return null;
    }
    Optional<SteadyWindow> whole = SteadyWindow.of(progress);
    if (whole.isEmpty()) {
      out.println("--profile: the run was too short for a steady window, so no profile");
      return null;
    }
    List<PipelineProfiler.Window> windows = new ArrayList<>();
    windows.add(profileWindow(whole.get()));
    windows.add(profileWindow(whole.get().secondHalf(progress.costs())));
    Path keep = null;
    if (config.reportFile() != null) {
      String name = config.reportFile().getFileName().toString().replaceFirst("\\.json$", "");
      keep = config.reportFile().toAbsolutePath().resolveSibling(name + ".jfr");
    }
    try {
      List<ComponentSplit> splits = profiler.finish(windows, keep);
      if (splits.get(0) == null) {
        out.println("--profile: the profiler missed the window's polls, so no profile");
        return null;
      }
      return PipelineProfile.of(
          splits.get(0), splits.size() > 1 ? splits.get(1) : null, PipelineProfiler.jvmSetup());
    } catch (IOException e) {
      out.println("--profile: reading the recording failed: " + e);
      return null;
    }
  }

  private static PipelineProfiler.Window profileWindow(SteadyWindow window) {
    return new PipelineProfiler.Window(
        window.first().elapsedMillis(), window.last().elapsedMillis(), window.events());
  }

  /** Each generated event's type, as the publisher (and the generator pipeline) chooses it. */
  private TypeMix typeMix(EventMix mix, RunTables tables) {
    byte[] types = new byte[Math.toIntExact(config.events())];
    for (int id = 0; id < types.length; id++) {
      types[id] = (byte) mix.chooseType(id / config.recordsPerMessage());
    }
    List<String> structs = new ArrayList<>();
    Map<String, String> tableOf = new LinkedHashMap<>();
    for (int i = 0; i < mix.size(); i++) {
      structs.add(mix.name(i));
      tableOf.put(mix.name(i), tables.tableOf(mix.name(i)));
    }
    return new TypeMix(structs, tableOf, types);
  }

  private static Map<String, long[]> latencyByTable(RunTables tables, long fromEpochMillis) {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (String table : tables.eventTables()) {
      out.put(table, HandOffLatencyProbe.samplesOfTable(table, fromEpochMillis));
    }
    return out;
  }

  private void printStart(
      EventSource source,
      RunTables tables,
      int malformedCount,
      List<String> ingestArgs,
      int handOffWriters) {
    out.printf(
        "Local run: %s%s%s; %d events at %d/s%s, %d malformed; %s, table %s.%s%n",
        config.step().describe(),
        config.format() == config.step().format() ? "" : " (format " + config.format() + ")",
        config.protocol() == ThriftProtocol.BINARY ? "" : ", " + config.protocol() + " protocol",
        config.events(),
        config.rate(),
        config.rampUpMillis() == 0 ? "" : " (reached over " + config.rampUpMillis() / 1000 + " s)",
        malformedCount,
        source,
        LocalRunConfig.DATASET,
        String.join(", ", tables.eventTables()));
    out.printf(
        "Emulators: %s, BigQuery REST %s gRPC %s (pid %d)%n",
        stack.describeSourceServer(config.source()),
        stack.bigquery().restEndpoint(),
        stack.bigquery().storageWriteEndpoint(),
        stack.bigquery().pid());
    if (handOffWriters > 0) {
      out.printf(
          "Saturation run (%d/s >= %d/s): the rows are handed to %d writers before the write, each"
              + " with an append in flight (--ingest-arg=--handOffBeforeWrite=false for one)%n",
          config.rate(), SaturationRun.RATE, handOffWriters);
    }
    List<String> replaced = config.replacedStepFlags();
    if (!replaced.isEmpty()) {
      out.printf(
          "Step %d's own %s replaced by --ingest-arg%n",
          config.step().number(), String.join(" ", replaced));
    }
    if (config.manyTypes()) {
      IngestionOptions options =
          PipelineOptionsFactory.fromArgs(ingestArgs.toArray(new String[0]))
              .as(IngestionOptions.class);
      out.printf(
          "Writes: %s%n", IngestionPlan.of(options, IngestionPlan.Input.SOURCE).describeWrites());
    }
  }

  private Map<String, String> tableNames(RunTables tables) {
    Map<String, String> names = new LinkedHashMap<>();
    for (RunTables.Table table : tables.all()) {
      names.put(
          table.name(),
          stack.bigquery().project() + ":" + LocalRunConfig.DATASET + "." + table.name());
    }
    return names;
  }

  private static RunResult.LatencyDistribution latencyDistribution(MetricQueryResults metrics) {
    DistributionResult d =
        PipelineMetrics.distribution(metrics, IngestionMetrics.END_TO_END_LATENCY_MS);
    return d == null || d.getCount() == 0
        ? null
        : new RunResult.LatencyDistribution(d.getCount(), d.getMean(), d.getMin(), d.getMax());
  }
}
