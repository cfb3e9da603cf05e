package io.thriftbq.local.run;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.config.BadFlagException;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.PipelineFlags;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.LocalEngine;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.stack.BigQueryEmulator;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The ingestion pipeline's flags for a local run of one tuning step: the engine's, the source's,
 * the BigQuery emulator's, the struct's and the step's own, in that order, then the user's {@code
 * --ingest-arg} flags, which replace the step's setting of the same name (see {@link #merge}).
 *
 * @param triggeringFrequencySec replaces the step's triggering frequency when not null
 * @param structArgs the flags that name the struct
 * @param handOffWriters the writers a saturation run hands its rows to, 0 for none ({@link
 *     LocalRunConfig#handOffWriters})
 */
public record IngestionArgs(
    TuningStep step,
    StorageFormat format,
    @Nullable Integer triggeringFrequencySec,
    List<String> structArgs,
    LocalEngine engine,
    boolean directRunnerChecks,
    int handOffWriters) {

  /** The ingestion pipeline's flags for a hand-off to writers before the write. */
  private static final String HAND_OFF = "--handOffBeforeWrite";

  private static final String HAND_OFF_WRITERS = "--handOffWriters";

  public static final String NOOP_CREDENTIALS =
      "org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory";

  public IngestionArgs {
    structArgs = List.copyOf(structArgs);
  }

  /** {@code step} as the table gives it, for the sample event, on the engine the tests choose. */
  public static IngestionArgs forStep(TuningStep step) {
    return of(LocalRunConfig.defaults().step(step));
  }

  /** What {@code config} asks for. */
  public static IngestionArgs of(LocalRunConfig config) {
    return new IngestionArgs(
        config.step(),
        config.format(),
        config.triggeringFrequencySec(),
        config.ingestionStructArgs(),
        config.engine(),
        config.directRunnerChecks(),
        config.handOffWriters());
  }

  public IngestionArgs withTriggeringFrequencySec(@Nullable Integer seconds) {
    return new IngestionArgs(
        step, format, seconds, structArgs, engine, directRunnerChecks, handOffWriters);
  }

  public IngestionArgs withStructArgs(List<String> args) {
    return new IngestionArgs(
        step, format, triggeringFrequencySec, args, engine, directRunnerChecks, handOffWriters);
  }

  public IngestionArgs withEngine(LocalEngine value) {
    return new IngestionArgs(
        step,
        format,
        triggeringFrequencySec,
        structArgs,
        value,
        directRunnerChecks,
        handOffWriters);
  }

  /** The flags, reading from {@code source} and writing to {@code tables} in {@code bigquery}. */
  public List<String> toList(EventSource source, BigQueryEmulator bigquery, RunTables tables) {
    return toList(source.ingestionArgs(), bigquery.project(), bigquery.restEndpoint(), tables);
  }

  /**
   * The flags, reading as {@code sourceArgs} say and writing to {@code tables} of {@code project}
   * at {@code bigQueryEndpoint}.
   */
  public List<String> toList(
      List<String> sourceArgs, String project, String bigQueryEndpoint, RunTables tables) {
    List<String> stepArgs = stepArgs();
    List<String> userArgs = engine.extraPipelineArgs();
    // The user's flags come after the step's, so the last one named decides, as in merge.
    boolean handOff = PipelineFlags.isOn(concat(stepArgs, userArgs), HAND_OFF);
    List<String> args = new ArrayList<>(engine.runnerArgs(directRunnerChecks, handOff));
    args.add("--streaming=true");
    args.add("--project=" + project);
    args.add("--credentialFactoryClass=" + NOOP_CREDENTIALS);
    args.addAll(sourceArgs);
    args.add("--bigQueryEndpoint=" + bigQueryEndpoint);
    args.add(
        "--outputTable=" + project + ":" + LocalRunConfig.DATASET + "." + tables.outputTable());
    args.addAll(structArgs);
    return merge(args, stepArgs, userArgs);
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /**
   * The writers local mode hands the rows to ({@link #handOffWriters}), or 0 when there are none or
   * the user's {@code --ingest-arg} names either hand-off flag and so makes the choice instead.
   */
  public int appliedHandOffWriters() {
    return PipelineFlags.replaced(handOffArgs(handOffWriters), engine.extraPipelineArgs()).isEmpty()
        ? handOffWriters
        : 0;
  }

  /**
   * The step's settings, and a saturation run's hand-off to writers: both replaceable by {@code
   * --ingest-arg}. A user flag for either hand-off option replaces both of local mode's, so that
   * {@code --ingest-arg=--handOffBeforeWrite=false} alone turns the hand-off off.
   */
  List<String> stepArgs() {
    List<String> args = new ArrayList<>(step.pipelineArgs(triggeringFrequencySec, format));
    args.addAll(handOffArgs(appliedHandOffWriters()));
    return args;
  }

  /** The flags that hand the rows to {@code writers} writers before the write; none for 0. */
  static List<String> handOffArgs(int writers) {
    return writers == 0 ? List.of() : List.of(HAND_OFF + "=true", HAND_OFF_WRITERS + "=" + writers);
  }

  /**
   * Local mode's own flags, then the step's settings, then the user's {@code --ingest-arg} flags. A
   * user flag replaces the step's setting of the same name (Beam refuses a flag given twice), so a
   * step can be tried with one setting changed; a flag local mode sets itself (the engine, the
   * emulators, the source, the struct, the tables) cannot be replaced that way, and says which
   * option of local mode to use instead.
   */
  static List<String> merge(
      List<String> localModeFlags, List<String> stepFlags, List<String> userFlags) {
    List<String> refused = PipelineFlags.replaced(userFlags, localModeFlags);
    if (!refused.isEmpty()) {
      throw new BadFlagException(
          "--ingest-arg="
              + refused.get(0)
              + " would replace "
              + PipelineFlags.name(refused.get(0))
              + ", which local mode sets itself (from its emulators, --source, --idl/--structs,"
              + " --struct-attribute, --protocol, --engine or --parallelism): use those options"
              + " instead (see --help)");
    }
    List<String> args = new ArrayList<>(localModeFlags);
    List<String> replaced = PipelineFlags.replaced(stepFlags, userFlags);
    for (String flag : stepFlags) {
      if (!replaced.contains(flag)) {
        args.add(flag);
      }
    }
    args.addAll(userFlags);
    return args;
  }
}
