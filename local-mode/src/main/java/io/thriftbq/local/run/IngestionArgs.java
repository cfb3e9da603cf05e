package io.thriftbq.local.run;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.config.LocalRunConfig;
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
 * the BigQuery emulator's, the struct's and the step's own, in that order (the engine's extra flags
 * last, so they can override).
 *
 * @param triggeringFrequencySec replaces the step's triggering frequency when not null
 * @param structArgs the flags that name the struct
 */
public record IngestionArgs(
    TuningStep step,
    StorageFormat format,
    @Nullable Integer triggeringFrequencySec,
    List<String> structArgs,
    LocalEngine engine,
    boolean directRunnerChecks) {

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
        config.directRunnerChecks());
  }

  public IngestionArgs withTriggeringFrequencySec(@Nullable Integer seconds) {
    return new IngestionArgs(step, format, seconds, structArgs, engine, directRunnerChecks);
  }

  public IngestionArgs withStructArgs(List<String> args) {
    return new IngestionArgs(
        step, format, triggeringFrequencySec, args, engine, directRunnerChecks);
  }

  public IngestionArgs withEngine(LocalEngine value) {
    return new IngestionArgs(
        step, format, triggeringFrequencySec, structArgs, value, directRunnerChecks);
  }

  /** The flags, reading from {@code source} and writing to {@code tables} in {@code bigquery}. */
  public List<String> toList(EventSource source, BigQueryEmulator bigquery, RunTables tables) {
    List<String> args = new ArrayList<>(engine.runnerArgs(directRunnerChecks));
    args.add("--streaming=true");
    args.add("--project=" + bigquery.project());
    args.add("--credentialFactoryClass=" + NOOP_CREDENTIALS);
    args.addAll(source.ingestionArgs());
    args.add("--bigQueryEndpoint=" + bigquery.restEndpoint());
    args.add(
        "--outputTable="
            + bigquery.project()
            + ":"
            + LocalRunConfig.DATASET
            + "."
            + tables.outputTable());
    args.addAll(structArgs);
    args.addAll(step.pipelineArgs(triggeringFrequencySec, format));
    args.addAll(engine.extraPipelineArgs());
    return args;
  }
}
