package io.thriftbq.local.config;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.engine.LocalEngine;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/** What one local run does; parsed from {@code run-local.sh}'s flags or built by tests. */
public final class LocalRunConfig implements Cloneable {
  public static final String PROJECT = "local-project";
  public static final String DATASET = "local_dataset";
  public static final String EVENT_CLASS = io.thriftbq.schema.ThriftSources.SAMPLE_CLASS;

  TuningStep step = TuningStep.of(8);
  StorageFormat format;
  long events = 4000;
  long ratePerSec = 200;
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
  LocalEngine engine = LocalEngine.fromSystemProperties();
  boolean compareSteps;
  List<TuningStep> compareList = TuningStep.all();
  Path htmlFile = Paths.get("compare-steps.html");
  boolean stepGiven;
  boolean stepsGiven;

  public static LocalRunConfig defaults() {
    return new LocalRunConfig();
  }

  public static String usage() {
    return String.join(
        "\n",
        "Usage: scripts/run-local.sh [options]",
        "",
        "Runs the whole system on this machine: the Pub/Sub and BigQuery emulators on 127.0.0.1,",
        "the ingestion pipeline on an embedded Flink cluster with one tuning step's configuration,",
        "and the data generator for a bounded number of events; then reports what arrived.",
        "",
        "  --idl FILE              your Thrift IDL, read at launch (no code generator, no build)",
        "  --struct NAME           the struct of --idl each event holds (FILE.Name if ambiguous)",
        "  --idl-include DIRS      comma-separated directories for the IDL's includes",
        "  --id-field PATH         a field (dotted path) whose values identify events: the report",
        "                          also checks that the table holds exactly the generated values",
        "                          (default: none; events are always matched by the event_id",
        "                          attribute the publisher sets)",
        "  --step N                tuning step "
            + TuningStep.range()
            + " (default 8); see docs/LOCAL.md for the table",
        "  --events N              events the generator publishes (default 4000)",
        "  --rate N                generator rate, events/s (default 200)",
        "  --bad-ratio R           malformed messages to mix in, as a fraction of --events",
        "                          (default 0.01; 0 for none)",
        "  --records-per-message N events per Pub/Sub message; >1 sends compressed envelopes",
        "                          (default 1, as in the study)",
        "  --seed N                generator seed (default 1)",
        "  --triggering-frequency S override the step's Storage Write triggering frequency (s)",
        "  --format F              override the step's --formatToStore: TABLE_ROW, BEAM_ROW,",
        "                          AVRO_GENERIC_RECORD or PROTO_MESSAGE",
        "  --timeout SECONDS       give up waiting for events after this long (default 300)",
        "  --report FILE           also write the report as JSON to FILE",
        "  --table NAME            output table (default events_stepN)",
        "  --generator-pipeline    publish with the generator pipeline (DirectRunner) instead of",
        "                          the paced in-process publisher; a bounded generator pipeline",
        "                          publishes everything at its end on the DirectRunner, so rate",
        "                          and latency figures are then not meaningful",
        "  --direct-runner-checks  keep the DirectRunner's immutability/encodability checks on",
        "                          (slower; the tests keep them on)",
        "  --compare-steps         run several steps one after another on the same generated",
        "                          events and print them side by side, with an HTML report of",
        "                          charts (--html); see docs/TUNING.md",
        "  --steps LIST            the steps to compare, comma-separated (default: all)",
        "  --html FILE             where --compare-steps writes its HTML report",
        "                          (default compare-steps.html)",
        "  --engine E              what runs the ingestion pipeline in this JVM: flink (default,",
        "                          Flink's embedded mini cluster) or direct (Beam's DirectRunner,",
        "                          several times slower: see docs/LOCAL.md)",
        "  --parallelism N         Flink task slots (default "
            + LocalEngine.DEFAULT_PARALLELISM
            + "; more was slower on 2 cores)",
        "  --checkpoint-ms MS      Flink checkpoint interval (default "
            + LocalEngine.DEFAULT_CHECKPOINT_MILLIS
            + "); Pub/Sub messages are",
        "                          acknowledged when a checkpoint completes",
        "  --ingest-arg FLAG       an extra ingestion pipeline flag, appended last (repeatable),",
        "                          e.g. --ingest-arg=--maxBundleSize=5000",
        "  --no-progress           do not print a progress line per second",
        "  --keep                  keep the emulators' data directory and logs",
        "  --help                  this text",
        "",
        "Exit status: 0 when every event is accounted for (written or dead-lettered) and an",
        "exactly-once step (4-6) wrote no duplicates; 1 otherwise; 2 for bad arguments.");
  }

  public static LocalRunConfig parse(String[] args) {
    LocalRunConfig config = new LocalRunConfig();
    List<String> list = new ArrayList<>(List.of(args));
    for (int i = 0; i < list.size(); i++) {
      String arg = list.get(i);
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      switch (name) {
        case "--help":
        case "-h":
          config.help = true;
          break;
        case "--keep":
          config.keep = true;
          break;
        case "--no-progress":
          config.progress = false;
          break;
        case "--direct-runner-checks":
          config.directRunnerChecks = true;
          break;
        case "--generator-pipeline":
          config.generatorPipeline = true;
          break;
        case "--compare-steps":
          config.compareSteps = true;
          break;
        default:
          if (!name.startsWith("--")) {
            throw new IllegalArgumentException("Unexpected argument: " + arg);
          }
          if (value == null) {
            if (i + 1 >= list.size()) {
              throw new IllegalArgumentException(name + " needs a value");
            }
            value = list.get(++i);
          }
          config.set(name, value);
      }
    }
    config.validate();
    return config;
  }

  private void set(String name, String value) {
    try {
      switch (name) {
        case "--step":
          step = TuningStep.of(Integer.parseInt(value));
          stepGiven = true;
          break;
        case "--steps":
          compareList = new ArrayList<>();
          stepsGiven = true;
          for (String number : value.split(",")) {
            TuningStep listed = TuningStep.of(Integer.parseInt(number.trim()));
            if (compareList.contains(listed)) {
              throw new IllegalArgumentException("--steps lists step " + number.trim() + " twice");
            }
            compareList.add(listed);
          }
          break;
        case "--html":
          htmlFile = Paths.get(value);
          break;
        case "--events":
          events = Long.parseLong(value);
          break;
        case "--rate":
          ratePerSec = Long.parseLong(value);
          break;
        case "--bad-ratio":
          badRatio = Double.parseDouble(value);
          break;
        case "--records-per-message":
          recordsPerMessage = Integer.parseInt(value);
          break;
        case "--seed":
          seed = Long.parseLong(value);
          break;
        case "--triggering-frequency":
          triggeringFrequencySec = Integer.parseInt(value);
          break;
        case "--format":
          try {
            format = StorageFormat.valueOf(value.trim());
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "--format=" + value + " is not one of " + Arrays.toString(StorageFormat.values()));
          }
          break;
        case "--timeout":
          timeout = Duration.ofSeconds(Long.parseLong(value));
          break;
        case "--report":
          reportFile = Paths.get(value);
          break;
        case "--table":
          table = value;
          break;
        case "--idl":
          idl = value;
          break;
        case "--idl-include":
          idlIncludePath = value;
          break;
        case "--struct":
          struct = value;
          break;
        case "--id-field":
          idField = value;
          break;
        case "--engine":
          engine = engine.withKind(LocalEngine.Kind.parse(value));
          break;
        case "--parallelism":
          engine = engine.withParallelism(Integer.parseInt(value));
          break;
        case "--checkpoint-ms":
          engine = engine.withCheckpointMillis(Long.parseLong(value));
          break;
        case "--ingest-arg":
          if (!value.startsWith("--")) {
            throw new IllegalArgumentException(
                "--ingest-arg takes one pipeline flag, e.g. --ingest-arg=--maxBundleSize=5000");
          }
          engine = engine.withExtraPipelineArg(value);
          break;
        default:
          throw new IllegalArgumentException("Unknown option " + name + " (see --help)");
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + value + " is not a number");
    }
  }

  void validate() {
    if (events < 1) {
      throw new IllegalArgumentException("--events must be at least 1");
    }
    if (ratePerSec < 1) {
      throw new IllegalArgumentException("--rate must be at least 1 event/s");
    }
    if (badRatio < 0 || badRatio > 1) {
      throw new IllegalArgumentException("--bad-ratio must be between 0 and 1");
    }
    if (recordsPerMessage < 1) {
      throw new IllegalArgumentException("--records-per-message must be at least 1");
    }
    if (triggeringFrequencySec != null && triggeringFrequencySec < 1) {
      throw new IllegalArgumentException("--triggering-frequency must be at least 1 s");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be positive");
    }
    if (table != null && !table.matches("[A-Za-z_][A-Za-z0-9_]{0,200}")) {
      throw new IllegalArgumentException("--table must be a plain BigQuery table name");
    }
    if ((idl == null) != (struct == null)) {
      throw new IllegalArgumentException(
          "--idl and --struct go together: --idl names your .thrift file, --struct the struct of"
              + " it that each event holds");
    }
    if (idlIncludePath != null && idl == null) {
      throw new IllegalArgumentException("--idl-include needs --idl");
    }
    if (compareSteps && stepGiven) {
      throw new IllegalArgumentException(
          "--compare-steps runs several steps: list them with --steps (e.g. --steps 1,4,6,7,8),"
              + " not --step");
    }
    if (!compareSteps && stepsGiven) {
      throw new IllegalArgumentException("--steps goes with --compare-steps; one run takes --step");
    }
    if (compareSteps && table != null) {
      throw new IllegalArgumentException(
          "--table names one run's table; --compare-steps names a table per step");
    }
    if (idField != null && !idField.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*")) {
      throw new IllegalArgumentException(
          "--id-field must be a dotted field path of the struct, for example event_id");
    }
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
      copy.compareSteps = false;
      copy.step = value;
      copy.table = tableName;
      copy.reportFile = null;
      return copy;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  public boolean compareSteps() {
    return compareSteps;
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

  public LocalRunConfig idField(String path) {
    idField = path;
    return this;
  }

  /** The flags that name the struct, for the ingestion pipeline (and the exporter). */
  public List<String> ingestionStructArgs() {
    if (idl == null) {
      return List.of("--thriftClassName=" + EVENT_CLASS);
    }
    return idlArgs();
  }

  /** The flags that name the struct, for the data generator. */
  public List<String> datagenStructArgs() {
    if (idl == null) {
      return List.of("--className=" + EVENT_CLASS);
    }
    return idlArgs();
  }

  private List<String> idlArgs() {
    List<String> args = new ArrayList<>();
    args.add("--thriftIdl=" + Paths.get(idl).toAbsolutePath());
    args.add("--thriftStruct=" + struct);
    if (idlIncludePath != null) {
      args.add("--thriftIdlIncludePath=" + idlIncludePath);
    }
    return args;
  }

  public String idField() {
    return idField;
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
