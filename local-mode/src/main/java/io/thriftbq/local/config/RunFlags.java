package io.thriftbq.local.config;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.engine.LocalEngine;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@code run-local.sh}'s flags: their help, and parsing them into a {@link LocalRunConfig}. */
final class RunFlags {
  private RunFlags() {}

  public static String usage() {
    return String.join(
        "\n",
        "Usage: scripts/run-local.sh [options]",
        "",
        "Runs the whole system on this machine: the Pub/Sub emulator (or a Kafka broker) and the",
        "BigQuery emulator on 127.0.0.1, the ingestion pipeline on an embedded Flink cluster with",
        "one tuning step's configuration, and the data generator for a bounded number of events;",
        "then reports what arrived.",
        "",
        "  --source S              where events travel: pubsub (default, Google's Pub/Sub",
        "                          emulator) or kafka (a real Apache Kafka broker, KRaft, single",
        "                          node: a topic of 4 partitions, attributes as record headers);",
        "                          see docs/LOCAL.md \"Reading from Kafka\"",
        "  --idl FILE              your Thrift IDL, read at launch (no code generator, no build)",
        "  --struct NAME           the struct of --idl each event holds (FILE.Name if ambiguous)",
        "  --structs LIST          many event types: structs of --idl, comma-separated, each",
        "                          with an optional weight (Order:5,Refund:1,Click:94); one",
        "                          table per struct (TABLE_{struct}), one dead-letter table",
        "  --union NAME            many event types wrapped in a union of --idl: every message",
        "                          is the union (--structs then narrows and weighs its members)",
        "  --struct-attribute NAME the attribute naming each message's struct (default",
        "                          thrift_struct; not with --union)",
        "  --protocol P            how the events are serialized: binary (default) or compact;",
        "                          the publisher writes and the pipeline reads it",
        "  --idl-include DIRS      comma-separated directories for the IDL's includes",
        "  --id-field PATH         a field (dotted path) whose values identify events: the report",
        "                          also checks that the table holds exactly the generated values",
        "                          (default: none; events are always matched by the event_id",
        "                          attribute the publisher sets)",
        "  --changes LIST          change mode (step 9, or --ingest-arg=--primaryKey=...):",
        "                          publish a change stream, keys=N,updates=R,deletes=R,",
        "                          duplicates=R,reorder=R, and check the table's final state",
        "                          against the expected one (keys present, wrong, stale, deleted",
        "                          rows back); deletes take --ingest-arg=--changeType=attribute:NAME,",
        "                          reorder a sequence field (--ingest-arg=--changeSequence=field:F)",
        "  --step N                tuning step "
            + TuningStep.range()
            + " (default 8); see docs/LOCAL.md for the table",
        "  --events N              events the generator publishes (default 4000)",
        "  --rate N                generator rate, events/s (default 200)",
        "  --ramp-up SECONDS       after the pipeline's first row, raise the rate from nothing to",
        "                          --rate in a straight line over this long (default "
            + LocalRunConfig.DEFAULT_RAMP_UP_SEC
            + ", the",
        "                          report's warm-up; 0: the full rate at once)",
        "  --bad-ratio R           malformed messages to mix in, as a fraction of --events",
        "                          (default 0.01; 0 for none)",
        "  --records-per-message N events per message (or Kafka record); >1 sends compressed",
        "                          envelopes (default 1, as in the study)",
        "  --seed N                generator seed (default 1)",
        "  --triggering-frequency S override the step's Storage Write triggering frequency (s)",
        "  --format F              override the step's --formatToStore: TABLE_ROW, BEAM_ROW,",
        "                          AVRO_GENERIC_RECORD or PROTO_MESSAGE",
        "  --timeout SECONDS       give up waiting for events after this long (default 300)",
        "  --report FILE           also write the report as JSON to FILE",
        "  --table NAME            output table (default events_stepN); with many types",
        "                          NAME_{struct} per struct and NAME_dead_letter",
        "  --generator-pipeline    publish with the generator pipeline (DirectRunner) instead of",
        "                          the paced in-process publisher; a bounded generator pipeline",
        "                          publishes everything at its end on the DirectRunner, so rate",
        "                          and latency figures are then not meaningful",
        "  --direct-runner-checks  keep the DirectRunner's immutability/encodability checks on",
        "                          (slower; the tests keep them on)",
        "  --compare-steps         run several steps one after another on the same generated",
        "                          events and print them side by side, with an HTML report of",
        "                          charts (--html); see docs/TUNING.md",
        "  --profile               split the pipeline's CPU per event by component (source",
        "                          client, engine, our decode and convert, BigQuery write, JIT,",
        "                          GC, ...) with Java Flight Recorder in this JVM, over the window",
        "                          of the CPU figures; in the report and its JSON. Costs a few %",
        "                          of CPU. On by default with --compare-steps",
        "  --no-profile            with --compare-steps: do not profile (one CPU bar per process)",
        "  --no-ceilings           with --compare-steps: do not measure this machine's bare",
        "                          emulator ceilings first (about 10-30 s; each step's steady rows/s",
        "                          is shown as a share of the append ceiling)",
        "  --steps LIST            the steps to compare, comma-separated (default: all)",
        "  --html FILE             where --compare-steps writes its HTML report",
        "                          (default compare-steps.html)",
        "  --engine E              what runs the ingestion pipeline in this JVM: flink (default,",
        "                          Flink's embedded mini cluster) or direct (Beam's DirectRunner,",
        "                          several times slower: see docs/LOCAL.md)",
        "  --parallelism N         Flink task slots (default "
            + LocalEngine.DEFAULT_PARALLELISM
            + "; 2 costs more CPU at low",
        "                          rates, and from Kafka at saturation overlaps the pipeline",
        "                          with the BigQuery emulator: 1.06-1.13x rows/s)",
        "  --checkpoint-ms MS      Flink checkpoint interval (default "
            + LocalEngine.DEFAULT_CHECKPOINT_MILLIS
            + "); Pub/Sub messages are",
        "                          acknowledged and Kafka offsets committed when a checkpoint",
        "                          completes",
        "  --ingest-arg FLAG       an extra ingestion pipeline flag, appended last (repeatable);",
        "                          it replaces the step's own setting of that flag, e.g.",
        "                          --ingest-arg=--maxBundleSize=5000; a flag the pipeline",
        "                          refuses fails the run before any server starts",
        "  --no-progress           do not print a progress line per second",
        "  --keep                  keep the emulators' (and broker's) data directory and logs",
        "  --help                  this text",
        "",
        "Exit status: 0 when every event is accounted for (written to its struct's table or",
        "dead-lettered) and an exactly-once step (4-6) wrote no duplicates in any table; 1",
        "otherwise; 2 for bad arguments.");
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
        case "--profile":
          config.profile = true;
          break;
        case "--no-profile":
          config.profile = false;
          break;
        case "--no-ceilings":
          config.ceilings = false;
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
          set(config, name, value);
      }
    }
    validate(config);
    return config;
  }

  private static void set(LocalRunConfig config, String name, String value) {
    try {
      switch (name) {
        case "--source":
          config.source = SourceKind.parse(value);
          break;
        case "--step":
          config.step = TuningStep.of(Integer.parseInt(value));
          config.stepGiven = true;
          break;
        case "--steps":
          config.compareList = new ArrayList<>();
          config.stepsGiven = true;
          for (String number : value.split(",")) {
            TuningStep listed = TuningStep.of(Integer.parseInt(number.trim()));
            if (config.compareList.contains(listed)) {
              throw new IllegalArgumentException("--steps lists step " + number.trim() + " twice");
            }
            config.compareList.add(listed);
          }
          break;
        case "--html":
          config.htmlFile = Paths.get(value);
          break;
        case "--events":
          config.events = Long.parseLong(value);
          break;
        case "--rate":
          config.ratePerSec = Long.parseLong(value);
          break;
        case "--ramp-up":
          config.rampUpSec = Long.parseLong(value);
          config.rampUpGiven = true;
          break;
        case "--bad-ratio":
          config.badRatio = Double.parseDouble(value);
          break;
        case "--records-per-message":
          config.recordsPerMessage = Integer.parseInt(value);
          break;
        case "--seed":
          config.seed = Long.parseLong(value);
          break;
        case "--triggering-frequency":
          config.triggeringFrequencySec = Integer.parseInt(value);
          break;
        case "--format":
          try {
            config.format = StorageFormat.valueOf(value.trim());
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "--format=" + value + " is not one of " + Arrays.toString(StorageFormat.values()));
          }
          break;
        case "--timeout":
          config.timeout = Duration.ofSeconds(Long.parseLong(value));
          break;
        case "--report":
          config.reportFile = Paths.get(value);
          break;
        case "--table":
          config.table = value;
          break;
        case "--idl":
          config.idl = value;
          break;
        case "--idl-include":
          config.idlIncludePath = value;
          break;
        case "--struct":
          config.struct = value;
          break;
        case "--id-field":
          config.idField = value;
          break;
        case "--structs":
          config.structs = value;
          break;
        case "--union":
          config.union = value;
          break;
        case "--struct-attribute":
          config.structAttribute = value;
          break;
        case "--protocol":
          config.protocol = protocol(value);
          break;
        case "--engine":
          config.engine = config.engine.withKind(LocalEngine.Kind.parse(value));
          break;
        case "--parallelism":
          config.engine = config.engine.withParallelism(Integer.parseInt(value));
          break;
        case "--checkpoint-ms":
          config.engine = config.engine.withCheckpointMillis(Long.parseLong(value));
          break;
        case "--changes":
          config.changes = ChangeMix.parse(value);
          break;
        case "--ingest-arg":
          if (!value.startsWith("--")) {
            throw new IllegalArgumentException(
                "--ingest-arg takes one pipeline flag, e.g. --ingest-arg=--maxBundleSize=5000");
          }
          config.engine = config.engine.withExtraPipelineArg(value);
          break;
        default:
          throw new IllegalArgumentException("Unknown option " + name + " (see --help)");
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + value + " is not a number");
    }
  }

  private static ThriftProtocol protocol(String value) {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      if (protocol.name().equalsIgnoreCase(value)) {
        return protocol;
      }
    }
    throw new IllegalArgumentException("--protocol takes binary or compact, not " + value);
  }

  private static void validate(LocalRunConfig config) {
    if (config.events < 1) {
      throw new IllegalArgumentException("--events must be at least 1");
    }
    if (config.ratePerSec < 1) {
      throw new IllegalArgumentException("--rate must be at least 1 event/s");
    }
    if (config.rampUpSec < 0) {
      throw new IllegalArgumentException("--ramp-up must be 0 s or more");
    }
    if (config.rampUpGiven && config.generatorPipeline) {
      throw new IllegalArgumentException(
          "--ramp-up paces the in-process publisher; --generator-pipeline publishes at its own"
              + " rate: drop one of them");
    }
    if (config.badRatio < 0 || config.badRatio > 1) {
      throw new IllegalArgumentException("--bad-ratio must be between 0 and 1");
    }
    if (config.recordsPerMessage < 1) {
      throw new IllegalArgumentException("--records-per-message must be at least 1");
    }
    if (config.triggeringFrequencySec != null && config.triggeringFrequencySec < 1) {
      throw new IllegalArgumentException("--triggering-frequency must be at least 1 s");
    }
    if (config.timeout.isNegative() || config.timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be positive");
    }
    if (config.table != null && !config.table.matches("[A-Za-z_][A-Za-z0-9_]{0,200}")) {
      throw new IllegalArgumentException("--table must be a plain BigQuery table name");
    }
    boolean many = config.structs != null || config.union != null;
    if (config.struct != null && many) {
      throw new IllegalArgumentException(
          "--struct names one event type; --structs (or --union) names several: give one of them");
    }
    if (config.idl == null ? config.struct != null || many : config.struct == null && !many) {
      throw new IllegalArgumentException(
          "--idl and --struct go together (or --idl and --structs or --union): --idl names your"
              + " .thrift file, --struct the struct of it that each event holds, --structs several");
    }
    if (config.structAttribute != null && config.structs == null) {
      throw new IllegalArgumentException(
          "--struct-attribute names the attribute of --structs; a union (--union) needs none");
    }
    if (config.structAttribute != null && config.union != null) {
      throw new IllegalArgumentException(
          "--struct-attribute goes with --structs alone: with --union the union's member names"
              + " the struct");
    }
    if (config.structAttribute != null
        && !config.structAttribute.matches("[A-Za-z_][A-Za-z0-9_.-]{0,200}")) {
      throw new IllegalArgumentException("--struct-attribute must be a plain attribute name");
    }
    if (many && config.idField != null) {
      throw new IllegalArgumentException(
          "--id-field names a field of one struct; with --structs or --union events are matched"
              + " by their event_id attribute, per table");
    }
    if (config.idlIncludePath != null && config.idl == null) {
      throw new IllegalArgumentException("--idl-include needs --idl");
    }
    if (config.compareSteps && config.stepGiven) {
      throw new IllegalArgumentException(
          "--compare-steps runs several steps: list them with --steps (e.g. --steps 1,4,6,7,8),"
              + " not --step");
    }
    if (!config.compareSteps && config.stepsGiven) {
      throw new IllegalArgumentException("--steps goes with --compare-steps; one run takes --step");
    }
    if (config.compareSteps && config.table != null) {
      throw new IllegalArgumentException(
          "--table names one run's table; --compare-steps names a table per step");
    }
    if (config.profile() && config.generatorPipeline) {
      throw new IllegalArgumentException(
          "--profile splits the pipeline's CPU, which --generator-pipeline mixes with the"
              + " generator's (both run in this JVM): drop one of them"
              + (config.compareSteps ? " (or add --no-profile)" : ""));
    }
    if (config.changes != null && config.generatorPipeline) {
      throw new IllegalArgumentException(
          "--changes publishes a change stream from this JVM, in order: drop --generator-pipeline");
    }
    if (config.changes != null && config.recordsPerMessage != 1) {
      throw new IllegalArgumentException(
          "--changes sends one change per message: drop --records-per-message");
    }
    if (config.changes != null && config.compareSteps) {
      throw new IllegalArgumentException(
          "--changes checks one change-mode run (--step 9, or --ingest-arg=--primaryKey=...);"
              + " it does not go with --compare-steps");
    }
    if (config.idField != null
        && !config.idField.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*")) {
      throw new IllegalArgumentException(
          "--id-field must be a dotted field path of the struct, for example event_id");
    }
  }
}
