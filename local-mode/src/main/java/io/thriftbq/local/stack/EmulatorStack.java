package io.thriftbq.local.stack;

import io.thriftbq.local.config.SourceKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A run's servers, started on free loopback ports and stopped (with their process trees) on {@link
 * #close()}, on JVM shutdown, or when start-up fails half way: the BigQuery emulator, and for the
 * events the Pub/Sub emulator or a Kafka broker ({@link SourceKind}). A run starts only the one it
 * reads from: on 2 cores an idle second broker still costs start-up CPU and memory. Tests that
 * share one stack (and so one BigQuery emulator) across both sources add the other with {@link
 * #startKafka()}. Data and logs live in one temporary directory that is deleted on close unless
 * {@code keep} is set.
 */
public final class EmulatorStack implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(EmulatorStack.class.getName());

  private final Path workDir;
  private volatile boolean keep;
  private final Thread shutdownHook;
  private volatile PubsubEmulator pubsub;
  private volatile KafkaBroker kafka;
  private volatile BigQueryEmulator bigquery;
  private volatile boolean closed;

  private EmulatorStack(Path workDir, boolean keep) {
    this.workDir = workDir;
    this.keep = keep;
    this.shutdownHook = new Thread(this::stopAll, "emulator-stack-shutdown");
  }

  /**
   * Starts both emulators. {@code dataset} is created by the BigQuery emulator itself.
   *
   * @throws IllegalStateException with install instructions when an emulator is missing
   */
  public static EmulatorStack start(String project, String dataset, boolean keep)
      throws IOException, InterruptedException {
    return start(project, dataset, SourceKind.PUBSUB, keep);
  }

  /**
   * Starts the BigQuery emulator and the server {@code source} names: the Pub/Sub emulator, or a
   * Kafka broker ({@link #kafka()}).
   *
   * @throws IllegalStateException with install instructions when something is missing
   */
  public static EmulatorStack start(String project, String dataset, SourceKind source, boolean keep)
      throws IOException, InterruptedException {
    String missing = LocalPaths.missingPrerequisites(source);
    if (!missing.isEmpty()) {
      throw new IllegalStateException(missing.strip());
    }
    Path workDir = Files.createTempDirectory("thriftbq-local-");
    EmulatorStack stack = new EmulatorStack(workDir, keep);
    Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
    try {
      // Started one after the other: each is CPU-heavy for a few seconds on a 2-core machine.
      switch (source) {
        case PUBSUB -> {
          Path pubsubData = Files.createDirectories(workDir.resolve("pubsub-data"));
          stack.pubsub =
              PubsubEmulator.start(
                  LocalPaths.gcloud(), project, pubsubData, workDir.resolve("pubsub-emulator.log"));
        }
        case KAFKA -> stack.startKafka();
      }
      Path bigqueryData = Files.createDirectories(workDir.resolve("bigquery-data"));
      stack.bigquery =
          BigQueryEmulator.start(
              LocalPaths.localBigQueryExecutable(),
              project,
              dataset,
              bigqueryData,
              workDir.resolve("bigquery-emulator.log"));
      return stack;
    } catch (IOException | RuntimeException | InterruptedException e) {
      stack.close();
      throw e;
    }
  }

  /** Whether this stack runs the server {@code source} needs. */
  public boolean runs(SourceKind source) {
    return switch (source) {
      case PUBSUB -> pubsub != null;
      case KAFKA -> kafka != null;
    };
  }

  /**
   * Starts a Kafka broker in this stack (in its work directory, stopped with it) unless it runs one
   * already; returns it. For tests that read from both sources with one BigQuery emulator.
   *
   * @throws IllegalStateException when the broker's jars are not built
   */
  public synchronized KafkaBroker startKafka() throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException("the stack is closed");
    }
    if (kafka == null) {
      kafka = KafkaBroker.start(LocalPaths.kafkaBrokerLibs(), workDir.resolve("kafka-broker"));
    }
    return kafka;
  }

  /**
   * @throws IllegalStateException when this stack did not start the Pub/Sub emulator
   */
  public PubsubEmulator pubsub() {
    PubsubEmulator emulator = pubsub;
    if (emulator == null) {
      throw new IllegalStateException(
          "This stack did not start the Pub/Sub emulator (it reads from Kafka)");
    }
    return emulator;
  }

  /**
   * The Kafka broker; the same object across {@link KafkaBroker#kill()} and {@link
   * KafkaBroker#restart()}.
   *
   * @throws IllegalStateException when this stack did not start a Kafka broker
   */
  public KafkaBroker kafka() {
    KafkaBroker broker = kafka;
    if (broker == null) {
      throw new IllegalStateException(
          "This stack did not start a Kafka broker: start it with SourceKind.KAFKA, or add one"
              + " with startKafka()");
    }
    return broker;
  }

  /**
   * The pid of the server {@code source} reads from (its CPU is reported beside the pipeline's).
   */
  public long sourcePid(SourceKind source) {
    return switch (source) {
      case PUBSUB -> pubsub().pid();
      case KAFKA -> kafka().pid();
    };
  }

  /**
   * The server {@code source} reads from, where it listens and its pid, for a run's first lines.
   */
  public String describeSourceServer(SourceKind source) {
    return switch (source) {
      case PUBSUB -> "Pub/Sub " + pubsub().rootUrl() + " (pid " + pubsub().pid() + ")";
      case KAFKA -> "Kafka broker " + kafka().bootstrapServers() + " (pid " + kafka().pid() + ")";
    };
  }

  public BigQueryEmulator bigquery() {
    return bigquery;
  }

  /**
   * Kills the BigQuery emulator with SIGKILL and starts it again on the same ports and data
   * directory after {@code downtime}; {@link #bigquery()} returns the new one.
   */
  public synchronized void killAndRestartBigQuery(java.time.Duration downtime)
      throws IOException, InterruptedException {
    bigquery = bigquery.killAndRestart(downtime);
  }

  /**
   * Kills the Pub/Sub emulator with SIGKILL and starts it again on the same port after {@code
   * downtime}; it comes back empty (no topics, subscriptions or messages).
   */
  public synchronized void killAndRestartPubsub(java.time.Duration downtime)
      throws IOException, InterruptedException {
    pubsub = pubsub().killAndRestart(downtime);
  }

  /**
   * Kills the Kafka broker with SIGKILL and starts it again on the same ports and data directory
   * after {@code downtime}; topics, records and committed offsets survive.
   */
  public void killAndRestartKafka(java.time.Duration downtime)
      throws IOException, InterruptedException {
    kafka().killAndRestart(downtime);
  }

  public Path workDir() {
    return workDir;
  }

  private synchronized void stopAll() {
    if (closed) {
      return;
    }
    closed = true;
    if (pubsub != null) {
      pubsub.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (bigquery != null) {
      bigquery.close();
    }
    if (keep) {
      LOG.info("Kept emulator data and logs in " + workDir);
    } else {
      deleteRecursively(workDir);
    }
  }

  /**
   * The servers of this stack that are no longer running although nobody stopped them (a crash),
   * each with its PID and log; empty when all run. Their logs are then kept on close, to be read.
   */
  public List<String> crashedServers() {
    List<String> crashed = new ArrayList<>();
    if (closed) {
      return crashed;
    }
    Map<String, ManagedProcess> servers = new LinkedHashMap<>();
    if (pubsub != null) {
      servers.put("the Pub/Sub emulator", pubsub.process());
    }
    if (kafka != null) {
      servers.put("the Kafka broker", kafka.process());
    }
    if (bigquery != null) {
      servers.put("the BigQuery emulator", bigquery.process());
    }
    servers.forEach(
        (name, process) -> {
          if (!process.isAlive()) {
            crashed.add(
                name + " (pid " + process.pid() + ") died mid-run; its log: " + process.logFile());
          }
        });
    if (!crashed.isEmpty()) {
      keep = true;
    }
    return crashed;
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      LOG.warning("Could not delete " + dir + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // Called from the hook itself, or the JVM is already exiting.
    }
  }
}
