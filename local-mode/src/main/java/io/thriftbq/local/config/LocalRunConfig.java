package io.thriftbq.local.config;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.engine.LocalEngine;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/** What one local run does; parsed from {@code run-local.sh}'s flags or built by tests. */
public final class LocalRunConfig implements Cloneable {
  public static final String PROJECT = "local-project";
  public static final String DATASET = "local_dataset";
  public static final String EVENT_CLASS = io.thriftbq.schema.ThriftSources.SAMPLE_CLASS;

  TuningStep step = TuningStep.of(8);
  SourceKind source = SourceKind.PUBSUB;
  StorageFormat format;
  long events = 4000;
  long ratePerSec = 200;

  /** {@code --ramp-up}'s default: the report's warm-up (SteadyWindow; a test keeps them equal). */
  public static final long DEFAULT_RAMP_UP_SEC = 10;

  long rampUpSec = DEFAULT_RAMP_UP_SEC;
  boolean rampUpGiven;
  double badRatio = 0.01;
  Path reportFile;
  boolean keep;
  Duration timeout = Duration.ofMinutes(5);
  long seed = 1;
  Integer triggeringFrequencySec;
  int recordsPerMessage = 1;
  boolean progress = true;
  boolean directRunnerChecks;
  String table;
  int sampleRows = 3;
  boolean generatorPipeline;
  boolean help;
  String idl;
  String idlIncludePath;
  String struct;
  String idField;
  ChangeMix changes;
  String structs;
  String union;
  String structAttribute;
  ThriftProtocol protocol = ThriftProtocol.BINARY;
  LocalEngine engine = LocalEngine.fromSystemProperties();
  boolean compareSteps;
  List<TuningStep> compareList = TuningStep.all();
  Path htmlFile = Paths.get("compare-steps.html");
  boolean stepGiven;

  /** Null: the default, on for --compare-steps and off for one run. */
  Boolean profile;

  /** With --compare-steps: measure this machine's bare emulator ceilings before the steps. */
  boolean ceilings = true;

  boolean stepsGiven;

  public static LocalRunConfig defaults() {
    return new LocalRunConfig();
  }

  /** {@code run-local.sh --help}. */
  public static String usage() {
    return RunFlags.usage();
  }

  /**
   * @throws IllegalArgumentException naming the flag when a flag is unknown, malformed or does not
   *     go with another
   */
  public static LocalRunConfig parse(String[] args) {
    return RunFlags.parse(args);
  }

  public int malformedCount() {
    return (int) Math.round(events * badRatio);
  }

  public String tableName() {
    return table != null ? table : "events_step" + step.number();
  }

  /** This configuration for one step of a comparison, writing to its own table. */
  public LocalRunConfig forComparedStep(TuningStep value, String tableName) {
    try {
      LocalRunConfig copy = (LocalRunConfig) clone();
      copy.profile = profile();
      copy.compareSteps = false;
      copy.step = value;
      copy.table = tableName;
      copy.reportFile = null;
      return copy;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Whether the run splits the pipeline's CPU by component (Java Flight Recorder in this JVM):
   * {@code --profile}, or {@code --compare-steps} without {@code --no-profile}.
   */
  public boolean profile() {
    return profile != null ? profile : compareSteps;
  }

  public LocalRunConfig profile(boolean value) {
    profile = value;
    return this;
  }

  public boolean compareSteps() {
    return compareSteps;
  }

  /** Whether --compare-steps measures the bare emulator ceilings first (not --no-ceilings). */
  public boolean ceilings() {
    return ceilings;
  }

  public List<TuningStep> comparedSteps() {
    return compareList;
  }

  public Path htmlFile() {
    return htmlFile;
  }

  public LocalEngine engine() {
    return engine;
  }

  public LocalRunConfig engine(LocalEngine value) {
    engine = value;
    return this;
  }

  // Fluent setters for tests and the runner.
  /** Where the events travel: the Pub/Sub emulator (default) or a Kafka broker. */
  public LocalRunConfig source(SourceKind value) {
    source = value;
    return this;
  }

  public SourceKind source() {
    return source;
  }

  public LocalRunConfig step(TuningStep value) {
    step = value;
    return this;
  }

  /** Another format than the step's; null keeps the step's. */
  public LocalRunConfig format(StorageFormat value) {
    format = value;
    return this;
  }

  public StorageFormat format() {
    return format == null ? step.format() : format;
  }

  public LocalRunConfig events(long value) {
    events = value;
    return this;
  }

  public LocalRunConfig rate(long value) {
    ratePerSec = value;
    return this;
  }

  public LocalRunConfig badRatio(double value) {
    badRatio = value;
    return this;
  }

  public LocalRunConfig table(String value) {
    table = value;
    return this;
  }

  public LocalRunConfig timeout(Duration value) {
    timeout = value;
    return this;
  }

  public LocalRunConfig seed(long value) {
    seed = value;
    return this;
  }

  public LocalRunConfig triggeringFrequencySec(Integer value) {
    triggeringFrequencySec = value;
    return this;
  }

  public LocalRunConfig recordsPerMessage(int value) {
    recordsPerMessage = value;
    return this;
  }

  public LocalRunConfig progress(boolean value) {
    progress = value;
    return this;
  }

  public LocalRunConfig generatorPipeline(boolean value) {
    generatorPipeline = value;
    return this;
  }

  public LocalRunConfig directRunnerChecks(boolean value) {
    directRunnerChecks = value;
    return this;
  }

  /** Your IDL instead of the sample's generated classes; null for the sample. */
  public LocalRunConfig idl(String file, String structName) {
    idl = file;
    struct = structName;
    return this;
  }

  /**
   * Many event types of {@code file}: {@code structList} (names, weights allowed: Order:5,Click:95)
   * named by an attribute, or, with {@code unionName}, the union's members ({@code structList} then
   * narrows them; may be null).
   */
  public LocalRunConfig manyTypes(String file, String structList, String unionName) {
    idl = file;
    struct = null;
    structs = structList;
    union = unionName;
    return this;
  }

  public LocalRunConfig structAttribute(String name) {
    structAttribute = name;
    return this;
  }

  /** {@code --protocol}: how the events are serialized, for the publisher and the pipeline. */
  public LocalRunConfig protocol(ThriftProtocol value) {
    protocol = value;
    return this;
  }

  public ThriftProtocol protocol() {
    return protocol;
  }

  /** Whether the run has several event types ({@code --structs} or {@code --union}). */
  public boolean manyTypes() {
    return structs != null || union != null;
  }

  public LocalRunConfig idField(String path) {
    idField = path;
    return this;
  }

  /** The flags that name the struct and the protocol, for the ingestion pipeline. */
  public List<String> ingestionStructArgs() {
    return eventFlags().forIngestion();
  }

  /** The same description of the events, for the data generator. */
  public List<String> datagenStructArgs() {
    return eventFlags().forGenerator();
  }

  private EventFlags eventFlags() {
    return new EventFlags(idl, idlIncludePath, struct, structs, union, structAttribute, protocol);
  }

  public String idField() {
    return idField;
  }

  /** {@code --changes}: publish a change stream and check the final state; null without it. */
  public ChangeMix changes() {
    return changes;
  }

  public LocalRunConfig changes(ChangeMix value) {
    changes = value;
    return this;
  }

  public LocalRunConfig reportFile(Path value) {
    reportFile = value;
    return this;
  }

  public TuningStep step() {
    return step;
  }

  public long events() {
    return events;
  }

  public long seed() {
    return seed;
  }

  public int recordsPerMessage() {
    return recordsPerMessage;
  }

  public Path reportFile() {
    return reportFile;
  }

  public boolean keep() {
    return keep;
  }

  public boolean help() {
    return help;
  }

  public long rate() {
    return ratePerSec;
  }

  /** The writers a run hands its rows to before the write, 0 for none: {@link SaturationRun}. */
  public int handOffWriters() {
    return SaturationRun.handOffWriters(step, ratePerSec);
  }

  /**
   * {@code --ramp-up}: how long the paced publisher takes to rise to {@link #rate()}; 0 with the
   * generator pipeline, which does not pace.
   */
  public long rampUpMillis() {
    return generatorPipeline ? 0 : rampUpSec * 1000;
  }

  /**
   * The step's settings that {@code --ingest-arg} flags replace (they replace a step's setting of
   * the same name), as the step gives them.
   */
  public List<String> replacedStepFlags() {
    return PipelineFlags.replaced(
        step.pipelineArgs(triggeringFrequencySec, format()), engine.extraPipelineArgs());
  }

  public @Nullable Integer triggeringFrequencySec() {
    return triggeringFrequencySec;
  }

  public boolean directRunnerChecks() {
    return directRunnerChecks;
  }

  public boolean generatorPipeline() {
    return generatorPipeline;
  }

  public Duration timeout() {
    return timeout;
  }

  /** Whether to print a progress line per second. */
  public boolean progress() {
    return progress;
  }

  public int sampleRows() {
    return sampleRows;
  }
}
