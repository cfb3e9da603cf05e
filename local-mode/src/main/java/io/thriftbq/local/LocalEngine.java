package io.thriftbq.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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
    Kind kind, int parallelism, long checkpointMillis, List<String> extraPipelineArgs) {

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

    static Kind parse(String value) {
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

  static final long MAX_BUNDLE_MILLIS = 100;

  private static Path flinkConfDir;

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
    return new LocalEngine(value, parallelism, checkpointMillis, extraPipelineArgs);
  }

  public LocalEngine withParallelism(int value) {
    return new LocalEngine(kind, value, checkpointMillis, extraPipelineArgs);
  }

  public LocalEngine withCheckpointMillis(long value) {
    return new LocalEngine(kind, parallelism, value, extraPipelineArgs);
  }

  public LocalEngine withExtraPipelineArg(String arg) {
    List<String> args = new ArrayList<>(extraPipelineArgs);
    args.add(arg);
    return new LocalEngine(kind, parallelism, checkpointMillis, args);
  }

  public boolean flink() {
    return kind == Kind.FLINK;
  }

  /** The runner's flags for the ingestion pipeline, before the step's own. */
  public List<String> runnerArgs(boolean directRunnerChecks) {
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
        args.add("--checkpointingInterval=" + checkpointMillis);
        // A bundle ends after 1,000 elements or this long; rows are appended when it ends, so
        // Flink's default of 1 s would add up to a second of latency at a light load. Measured:
        // p99 after warm-up 3.2 s -> 2.1 s at 250 events/s, throughput at saturation within noise.
        args.add("--maxBundleTimeMills=" + MAX_BUNDLE_MILLIS);
        // Otherwise what a bundle outputs while it is finished for a checkpoint (the rows a
        // BigQuery write refused, on their way to the dead-letter table) is held back until the
        // operator's next bundle, which never comes if no more events arrive: found by
        // RefusedRowsEndToEndTest (the last refused rows of a burst were never dead-lettered).
        args.add("--finishBundleBeforeCheckpointing=true");
        args.add("--flinkConfDir=" + flinkConfDir());
      }
    }
    return args;
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

  /**
   * A configuration directory for the embedded cluster: every endpoint on 127.0.0.1 with an
   * ephemeral port, checkpoints on the local file system (the default keeps them in the
   * JobManager's heap, 5 MB per operator), and the in-JVM metric reporter the report reads.
   */
  static synchronized Path flinkConfDir() {
    if (flinkConfDir != null) {
      return flinkConfDir;
    }
    try {
      Path dir = Files.createTempDirectory("thriftbq-flink-conf");
      Path checkpoints = Files.createDirectories(dir.resolve("checkpoints"));
      String conf =
          String.join(
              "\n",
              "rest.address: 127.0.0.1",
              "rest.bind-address: 127.0.0.1",
              "rest.bind-port: 0",
              "jobmanager.rpc.address: 127.0.0.1",
              "jobmanager.bind-host: 127.0.0.1",
              "taskmanager.host: 127.0.0.1",
              "taskmanager.bind-host: 127.0.0.1",
              "state.checkpoint-storage: filesystem",
              "state.checkpoints.dir: " + checkpoints.toUri(),
              "metrics.reporter.thriftbq.factory.class: " + FlinkMetrics.class.getName(),
              "");
      Files.writeString(dir.resolve("flink-conf.yaml"), conf);
      deleteOnExit(dir);
      flinkConfDir = dir;
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
