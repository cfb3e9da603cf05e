package io.thriftbq.local.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The engine that runs a local run's ingestion pipeline, in this JVM: Flink's embedded mini cluster
 * (the default; {@code --flinkMaster=[local]}) or Beam's DirectRunner. Chosen by measurement:
 * benchmarks/RESULTS.md "Local engine".
 *
 * <p>On Flink, checkpointing is always on: Beam's Pub/Sub source acknowledges a message only when
 * the checkpoint that covers it completes, so without checkpoints nothing would ever be
 * acknowledged and every message would come back after its ack deadline.
 *
 * <p>The tests choose the engine with system properties ({@code -Dthriftbq.engine=direct}, {@code
 * -Dthriftbq.flink.parallelism}, {@code -Dthriftbq.flink.checkpointMillis}), so the same end-to-end
 * suite runs on either.
 */
public record LocalEngine(
    Kind kind,
    int parallelism,
    long checkpointMillis,
    List<String> extraPipelineArgs,
    Path checkpointDir,
    Path resumeFrom) {

  public enum Kind {
    FLINK("flink"),
    DIRECT("direct");

    private final String flag;

    Kind(String flag) {
      this.flag = flag;
    }

    public String flag() {
      return flag;
    }

    public static Kind parse(String value) {
      for (Kind kind : values()) {
        if (kind.flag.equals(value.trim().toLowerCase(Locale.ROOT))) {
          return kind;
        }
      }
      throw new IllegalArgumentException("--engine must be flink or direct, got " + value);
    }
  }

  /** One task slot: measured fastest on 2 cores (parallelism 2 and 4 were slower). */
  public static final int DEFAULT_PARALLELISM = 1;

  /** How often Flink checkpoints, and so how often Pub/Sub messages are acknowledged. */
  public static final long DEFAULT_CHECKPOINT_MILLIS = 1000;

  /**
   * How long a bundle may take. Rows are appended when a bundle ends, once per event table it holds
   * rows for, and the BigQuery emulator's cost is mostly per append (a DuckLake commit of about 15
   * ms of CPU on a fast machine whatever its rows), so the bundle time sets both the latency added
   * at a light load and the emulator's CPU: at the slow end 300 ms against 100 took the default
   * run's stack from 0.50-0.54 to 0.32 cores with a p99 after warm-up of 0.52-0.59 s against
   * 0.36-0.40 s (benchmarks/RESULTS.md section 25).
   */
  static final long DEFAULT_MAX_BUNDLE_MILLIS = 300;

  /**
   * Configuration directories already written, per (checkpoint directory, restore path, hand-off).
   */
  private static final Map<List<Object>, Path> FLINK_CONF_DIRS = new HashMap<>();

  public LocalEngine {
    if (parallelism < 1) {
      throw new IllegalArgumentException("--parallelism must be at least 1, got " + parallelism);
    }
    if (kind == Kind.FLINK && checkpointMillis <= 0) {
      throw new IllegalArgumentException(
          "--checkpoint-ms must be positive on Flink: Pub/Sub messages are acknowledged only when"
              + " a checkpoint completes; got "
              + checkpointMillis);
    }
    extraPipelineArgs = List.copyOf(extraPipelineArgs);
    if (kind != Kind.FLINK && (checkpointDir != null || resumeFrom != null)) {
      throw new IllegalArgumentException(
          "checkpoints are kept and restored on Flink only; drop them or use --engine flink");
    }
    if (resumeFrom != null && !Files.isRegularFile(resumeFrom.resolve("_metadata"))) {
      throw new IllegalArgumentException(
          "no complete Flink checkpoint at "
              + resumeFrom
              + " (a chk-N directory holding _metadata): see latestCheckpoint(dir)");
    }
  }

  public LocalEngine(
      Kind kind, int parallelism, long checkpointMillis, List<String> extraPipelineArgs) {
    this(kind, parallelism, checkpointMillis, extraPipelineArgs, null, null);
  }

  /** The default engine, or the one the {@code thriftbq.*} system properties name. */
  public static LocalEngine fromSystemProperties() {
    String extra = System.getProperty("thriftbq.ingestArgs", "").trim();
    return new LocalEngine(
        Kind.parse(System.getProperty("thriftbq.engine", Kind.FLINK.flag())),
        Integer.getInteger("thriftbq.flink.parallelism", DEFAULT_PARALLELISM),
        Long.getLong("thriftbq.flink.checkpointMillis", DEFAULT_CHECKPOINT_MILLIS),
        extra.isEmpty() ? List.of() : Arrays.asList(extra.split("\\s+")));
  }

  public LocalEngine withKind(Kind value) {
    return new LocalEngine(
        value, parallelism, checkpointMillis, extraPipelineArgs, checkpointDir, resumeFrom);
  }

  public LocalEngine withParallelism(int value) {
    return new LocalEngine(
        kind, value, checkpointMillis, extraPipelineArgs, checkpointDir, resumeFrom);
  }

  public LocalEngine withCheckpointMillis(long value) {
    return new LocalEngine(kind, parallelism, value, extraPipelineArgs, checkpointDir, resumeFrom);
  }

  public LocalEngine withExtraPipelineArg(String arg) {
    List<String> args = new ArrayList<>(extraPipelineArgs);
    args.add(arg);
    return new LocalEngine(kind, parallelism, checkpointMillis, args, checkpointDir, resumeFrom);
  }

  /**
   * Keeps the job's checkpoints in {@code dir} (as {@code <job id>/chk-<n>}), and keeps the last
   * one when the job is cancelled or its JVM dies, so that a new job can resume from it ({@link
   * #withResumeFrom}). Without it they go to a temporary directory removed when the JVM exits.
   */
  public LocalEngine withCheckpointDir(Path dir) {
    return new LocalEngine(
        kind, parallelism, checkpointMillis, extraPipelineArgs, dir.toAbsolutePath(), resumeFrom);
  }

  /**
   * Starts the job from a retained checkpoint (a {@code chk-<n>} directory, see {@link
   * #latestCheckpoint}) instead of from nothing: what it had read, buffered and written is
   * restored, as when Flink restarts a failed job itself. The pipeline must be the same (same step
   * and flags), or Flink refuses the state.
   */
  public LocalEngine withResumeFrom(Path checkpoint) {
    return new LocalEngine(
        kind,
        parallelism,
        checkpointMillis,
        extraPipelineArgs,
        checkpointDir,
        checkpoint.toAbsolutePath());
  }

  /**
   * The newest complete checkpoint under {@code dir} (of any job that wrote there), if any: Flink
   * writes {@code _metadata} last, so a {@code chk-<n>} directory without it was cut off.
   */
  public static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> paths = Files.find(dir, 2, (path, attributes) -> isCheckpoint(path))) {
      return paths.max(
          Comparator.comparing(
              (Path path) -> {
                try {
                  return Files.getLastModifiedTime(path.resolve("_metadata"));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              }));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static boolean isCheckpoint(Path path) {
    return path.getFileName().toString().startsWith("chk-")
        && Files.isRegularFile(path.resolve("_metadata"));
  }

  public boolean flink() {
    return kind == Kind.FLINK;
  }

  /** The runner's flags for the ingestion pipeline, before the step's own. */
  public List<String> runnerArgs(boolean directRunnerChecks) {
    return runnerArgs(directRunnerChecks, false);
  }

  /**
   * The runner's flags for the ingestion pipeline, before the step's own; {@code handOff} when the
   * pipeline hands its rows to writers before the write ({@code --handOffBeforeWrite}), which gets
   * bigger network buffers on Flink ({@link #flinkConfDir}).
   */
  public List<String> runnerArgs(boolean directRunnerChecks, boolean handOff) {
    List<String> args = new ArrayList<>();
    switch (kind) {
      case DIRECT -> {
        args.add("--runner=DirectRunner");
        args.add("--blockOnRun=false");
        args.add("--enforceImmutability=" + directRunnerChecks);
        args.add("--enforceEncodability=" + directRunnerChecks);
      }
      case FLINK -> {
        args.add("--runner=FlinkRunner");
        args.add("--flinkMaster=[local]");
        // Detached: run() returns a result to poll and cancel; attached would block until the
        // streaming job ends.
        args.add("--attachedMode=false");
        args.add("--parallelism=" + parallelism);
        addUnlessGiven(args, "--checkpointingInterval=" + checkpointMillis);
        // A bundle ends after 1,000 elements or this long (Flink's default of 1 s would add up to a
        // second of latency at a light load; DEFAULT_MAX_BUNDLE_MILLIS says why not less).
        addUnlessGiven(args, "--maxBundleTimeMills=" + DEFAULT_MAX_BUNDLE_MILLIS);
        // Otherwise what a bundle outputs while it is finished for a checkpoint (the rows a
        // BigQuery write refused, on their way to the dead-letter table) is held back until the
        // operator's next bundle, which never comes if no more events arrive: found by
        // RefusedRowsEndToEndTest (the last refused rows of a burst were never dead-lettered).
        addUnlessGiven(args, "--finishBundleBeforeCheckpointing=true");
        // Flink hands an element from one chained operator to the next as a deep copy, which
        // Beam's runner makes by encoding and decoding it with its coder (for Avro records, about
        // 40% of the engine's CPU on step 7); Beam's model already forbids mutating an element
        // after output or an input, and Dataflow never copies within a fused stage either, so the
        // copy only costs. Measured alternated in benchmarks/RESULTS.md ("Pipeline CPU by
        // component").
        addUnlessGiven(args, "--fasterCopy=true");
        if (checkpointDir != null) {
          args.add("--externalizedCheckpointsEnabled=true");
          args.add("--retainExternalizedCheckpointsOnCancellation=true");
        }
        args.add("--flinkConfDir=" + flinkConfDir(checkpointDir, resumeFrom, handOff));
      }
    }
    return args;
  }

  /**
   * Adds one of local mode's engine defaults unless {@code --ingest-arg} gives the same option:
   * Beam refuses an option given twice, and a user's value must win.
   */
  private void addUnlessGiven(List<String> args, String flag) {
    String name = flag.substring(0, flag.indexOf('=') + 1);
    for (String extra : extraPipelineArgs) {
      if (extra.startsWith(name) || extra.equals(name.substring(0, name.length() - 1))) {
        return;
      }
    }
    args.add(flag);
  }

  public String describe() {
    return switch (kind) {
      case DIRECT -> "DirectRunner (in-process)";
      case FLINK ->
          "Flink "
              + "embedded mini cluster (parallelism "
              + parallelism
              + ", checkpoint every "
              + checkpointMillis
              + " ms)";
    };
  }

  /** Flink's network buffer size for a pipeline that hands its rows to writers (4x the default). */
  static final String HAND_OFF_SEGMENT_SIZE = "taskmanager.memory.segment-size: 128kb";

  /**
   * A configuration directory for the embedded cluster: every endpoint on 127.0.0.1 with an
   * ephemeral port, checkpoints on the local file system (the default keeps them in the
   * JobManager's heap, 5 MB per operator), and the in-JVM metric reporter the report reads.
   *
   * <p>With {@code handOff}, network buffers of 128 KB instead of 32: behind a hand-off to writers
   * (a saturation run of steps 7 and 8) each writer's input then holds four times the rows, so the
   * bundle after an append starts full rather than waiting on the decode (step 8 at saturation with
   * four writers: 1.09-1.12x the rows/s, benchmarks/RESULTS.md section 32). Not otherwise: the
   * default run's latency rose by 60-100 ms with them (p99 after warm-up 0.62-0.66 s against 0.56
   * s, same section).
   */
  static synchronized Path flinkConfDir(Path checkpointDir, Path resumeFrom, boolean handOff) {
    List<Object> key = Arrays.asList(checkpointDir, resumeFrom, handOff);
    Path existing = FLINK_CONF_DIRS.get(key);
    if (existing != null) {
      return existing;
    }
    try {
      Path dir = Files.createTempDirectory("thriftbq-flink-conf");
      Path checkpoints =
          Files.createDirectories(
              checkpointDir != null ? checkpointDir : dir.resolve("checkpoints"));
      List<String> lines =
          new ArrayList<>(
              List.of(
                  "rest.address: 127.0.0.1",
                  "rest.bind-address: 127.0.0.1",
                  "rest.bind-port: 0",
                  "jobmanager.rpc.address: 127.0.0.1",
                  "jobmanager.bind-host: 127.0.0.1",
                  "taskmanager.host: 127.0.0.1",
                  "taskmanager.bind-host: 127.0.0.1",
                  "state.checkpoint-storage: filesystem",
                  "state.checkpoints.dir: " + checkpoints.toUri(),
                  "metrics.reporter.thriftbq.factory.class: " + FlinkMetrics.class.getName()));
      if (handOff) {
        lines.add(HAND_OFF_SEGMENT_SIZE);
      }
      if (resumeFrom != null) {
        // Beam hands its savepoint flag only to a remote cluster; the embedded one reads this.
        lines.add("execution.savepoint.path: " + resumeFrom.toUri());
      }
      lines.add("");
      Files.writeString(dir.resolve("flink-conf.yaml"), String.join("\n", lines));
      deleteOnExit(dir);
      FLINK_CONF_DIRS.put(key, dir);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteOnExit(Path dir) {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try (var paths = Files.walk(dir)) {
                    paths
                        .sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
                  } catch (IOException | UncheckedIOException e) {
                    // A temp directory left behind is harmless.
                  }
                },
                "thriftbq-flink-conf-cleanup"));
  }
}
