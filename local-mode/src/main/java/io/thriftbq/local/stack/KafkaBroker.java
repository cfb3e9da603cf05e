package io.thriftbq.local.stack;

import io.thriftbq.local.config.SourceKind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A real single-node Apache Kafka broker (KRaft: broker and controller in one process) on
 * 127.0.0.1, in its own JVM with its own classpath: the jars the {@code local-mode/kafka-broker}
 * module copies, Kafka 4.x, never mixed with this JVM's 3.9.x clients.
 *
 * <p>Everything lives in one directory: {@code server.properties}, the log4j2 configuration, the
 * broker's log ({@code broker.log}) and its data ({@code data/}). The broker can be killed with
 * SIGKILL and restarted on the same data and ports, as a crashed broker would come back: records
 * the broker acknowledged are in the OS page cache, which a process kill does not lose.
 */
public final class KafkaBroker implements AutoCloseable {
  /** Small: a local run moves a few MB/s; the broker's page cache is the OS's, not the heap. */
  static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx512m",
          "-Xms64m",
          // The cheapest collector in CPU on 2 shared cores; its pauses on a small heap are a few
          // ms, nothing next to a local run's second-scale latencies.
          "-XX:+UseSerialGC",
          // C1 alone, as the Pub/Sub emulator (PubsubEmulator.JVM_OPTIONS): a run lasts seconds to
          // minutes, in which C2's compiling costs more CPU than the code it speeds up.
          "-XX:TieredStopAtLevel=1",
          // An out-of-memory broker must die (and say so in its log), not limp on.
          "-XX:+ExitOnOutOfMemoryError",
          "-Djava.awt.headless=true");

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final int START_ATTEMPTS = 3;

  /** The largest record (batch) the broker takes; producers must allow as much. */
  public static final int MAX_MESSAGE_BYTES = KafkaConfigFiles.MAX_MESSAGE_BYTES;

  /** What the broker logs once it serves clients (KafkaRaftServer, every 3.x and 4.x release). */
  static final String STARTED_LINE = "Kafka Server started";

  private final Launch launch;
  private final Thread shutdownHook;
  private volatile ManagedProcess process;

  /** Opened only against a serving broker: an admin client retries a dead one noisily. */
  private Admin admin;

  private volatile boolean closed;

  /** Where and how the broker runs; the same for every restart. */
  private record Launch(Path brokerLibs, Path dir, int port, int controllerPort) {
    Path dataDir() {
      return dir.resolve("data");
    }

    Path serverProperties() {
      return dir.resolve("server.properties");
    }

    Path loggingConfig() {
      return dir.resolve("log4j2.properties");
    }

    Path logFile() {
      return dir.resolve("broker.log");
    }

    String bootstrapServers() {
      return FreePorts.LOOPBACK + ":" + port;
    }

    /** {@code java -cp <broker jars> ... mainClass args...}. */
    List<String> javaCommand(String mainClass, String... args) {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(JVM_OPTIONS);
      command.add("-Dlog4j2.configurationFile=" + loggingConfig().toUri());
      command.add("-cp");
      // A wildcard entry: the JVM expands it, and the command line stays short.
      command.add(brokerLibs.toAbsolutePath().resolve("*").toString());
      command.add(mainClass);
      command.addAll(List.of(args));
      return command;
    }
  }

  private KafkaBroker(Launch launch, ManagedProcess process) {
    this.launch = launch;
    this.process = process;
    this.shutdownHook = new Thread(this::stopProcess, "kafka-broker-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Formats a fresh KRaft storage directory under {@code dir} (a random cluster id, this node as
   * the standalone controller), starts the broker on two free loopback ports and waits until an
   * admin client sees it. Stopped by {@link #close()}, or by a shutdown hook when the JVM ends.
   *
   * @param brokerLibs the broker's jars (see {@link LocalPaths#kafkaBrokerLibs()})
   * @param dir an empty or missing directory for its configuration, data and log
   */
  public static KafkaBroker start(Path brokerLibs, Path dir)
      throws IOException, InterruptedException {
    if (brokerJar(brokerLibs) == null) {
      throw new IllegalStateException(LocalPaths.missingPrerequisites(SourceKind.KAFKA).strip());
    }
    Files.createDirectories(dir);
    IOException lastFailure = null;
    // A free port can be taken by another process between picking it and the broker binding it;
    // then start again from scratch: the controller's port is written into the formatted data.
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = FreePorts.pick();
      int controllerPort = FreePorts.pick();
      while (controllerPort == port) {
        controllerPort = FreePorts.pick();
      }
      Launch launch = new Launch(brokerLibs, dir, port, controllerPort);
      EmulatorStack.deleteRecursively(launch.dataDir());
      KafkaConfigFiles.write(
          launch.serverProperties(),
          launch.loggingConfig(),
          port,
          controllerPort,
          launch.dataDir());
      format(launch);
      ManagedProcess process = launchProcess(launch);
      KafkaBroker broker = new KafkaBroker(launch, process);
      try {
        broker.awaitReady();
        return broker;
      } catch (IOException e) {
        broker.close();
        if (!process.logTail(200).contains("Address already in use")) {
          throw e;
        }
        lastFailure = e;
      } catch (RuntimeException | InterruptedException e) {
        broker.close();
        throw e;
      }
    }
    throw lastFailure;
  }

  /** The broker's own jar in {@code brokerLibs}, or null when the module was not built. */
  static Path brokerJar(Path brokerLibs) {
    if (!Files.isDirectory(brokerLibs)) {
      return null;
    }
    try (Stream<Path> jars = Files.list(brokerLibs)) {
      return jars.filter(p -> p.getFileName().toString().matches("kafka_2\\.13-.*\\.jar"))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** {@code kafka-storage format --standalone}: a new cluster whose only voter is this node. */
  private static void format(Launch launch) throws IOException, InterruptedException {
    ManagedProcess tool =
        ManagedProcess.start(
            "kafka-storage-format",
            launch.javaCommand(
                "kafka.tools.StorageTool",
                "format",
                "--config",
                launch.serverProperties().toString(),
                "--cluster-id",
                randomClusterId(),
                "--standalone"),
            Map.of(),
            launch.dir().resolve("storage-format.log"));
    int status = tool.awaitExit(Duration.ofSeconds(60));
    if (status != 0) {
      throw new IOException(
          "Formatting the Kafka broker's storage failed (exit "
              + status
              + "):\n"
              + tool.logTail(20));
    }
  }

  /** Kafka's cluster id format: 16 random bytes, URL-safe base64 without padding. */
  static String randomClusterId() {
    while (true) {
      UUID uuid = UUID.randomUUID();
      ByteBuffer bytes = ByteBuffer.allocate(16);
      bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
      String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
      // One id in 64 starts with '-', which kafka-storage's argument parser reads as an option
      // ("--cluster-id: expected one argument"); Kafka's own Uuid.randomUuid skips those too.
      if (id.charAt(0) != '-') {
        return id;
      }
    }
  }

  private static ManagedProcess launchProcess(Launch launch) throws IOException {
    return ManagedProcess.start(
        "kafka-broker",
        launch.javaCommand("kafka.Kafka", launch.serverProperties().toString()),
        Map.of(),
        launch.logFile());
  }

  private static Map<String, Object> adminConfig(String bootstrapServers) {
    return Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrapServers,
        AdminClientConfig.CLIENT_ID_CONFIG,
        "thriftbq-local-admin",
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
        5_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
        30_000,
        // A restarted broker is found again within a second.
        AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
        1_000);
  }

  /**
   * Waits for the broker's own word that it serves clients, then for an admin client to see it in
   * the cluster. The port is bound long before that, and a client connecting early only fills this
   * JVM's log with refused connections.
   */
  private void awaitReady() throws IOException, InterruptedException {
    process.awaitReady(
        "Kafka broker (" + bootstrapServers() + ")",
        START_TIMEOUT,
        () -> process.hasLogged(STARTED_LINE) && clusterHasBroker());
  }

  private synchronized Admin admin() {
    if (admin == null) {
      admin = Admin.create(adminConfig(launch.bootstrapServers()));
    }
    return admin;
  }

  private synchronized void closeAdmin() {
    if (admin != null) {
      admin.close(Duration.ZERO);
      admin = null;
    }
  }

  private boolean clusterHasBroker() throws IOException {
    try {
      return !admin()
          .describeCluster(new DescribeClusterOptions().timeoutMs(3_000))
          .nodes()
          .get(5, TimeUnit.SECONDS)
          .isEmpty();
    } catch (ExecutionException | TimeoutException notYet) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the Kafka broker");
    }
  }

  /** {@code 127.0.0.1:port}, the same across restarts. */
  public String bootstrapServers() {
    return launch.bootstrapServers();
  }

  public int port() {
    return launch.port();
  }

  public int controllerPort() {
    return launch.controllerPort();
  }

  /** The broker's {@code log.dirs}: topics, consumer offsets and the KRaft metadata log. */
  public Path dataDir() {
    return launch.dataDir();
  }

  public Path logFile() {
    return launch.logFile();
  }

  /** The broker JVM's pid; a new one after {@link #restart()}. */
  public long pid() {
    return process.pid();
  }

  public ManagedProcess process() {
    return process;
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions (replication factor 1); an existing
   * topic of that name is left as it is.
   */
  public void createTopic(String topic, int partitions) throws IOException {
    try {
      admin()
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IOException("Kafka broker: create topic " + topic + " failed", e.getCause());
      }
    } catch (TimeoutException e) {
      throw new IOException("Kafka broker: create topic " + topic + " timed out", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted creating topic " + topic);
    }
  }

  /**
   * Kills the broker JVM with SIGKILL: no controlled shutdown, no flush, nothing closed, as a crash
   * or an OOM kill would leave it. {@link #restart()} brings it back.
   */
  public synchronized void kill() throws InterruptedException {
    closeAdmin();
    process.kill();
  }

  /**
   * Starts the broker again on the same ports and data directory after {@link #kill()} (or a
   * crash); it recovers its logs and comes back with every acknowledged record. Returns once an
   * admin client sees it.
   *
   * @throws IllegalStateException while the broker is still running, or after {@link #close()}
   */
  public synchronized void restart() throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException("the Kafka broker was closed");
    }
    if (process.isAlive()) {
      throw new IllegalStateException("the Kafka broker is running (pid " + pid() + "): kill it");
    }
    process = launchProcess(launch);
    awaitReady();
  }

  /** {@link #kill()}, {@code downtime} without a broker, then {@link #restart()}. */
  public void killAndRestart(Duration downtime) throws IOException, InterruptedException {
    kill();
    Thread.sleep(downtime.toMillis());
    restart();
  }

  private void stopProcess() {
    // SIGTERM first: the broker then shuts down in a controlled way (clean logs, quick restart).
    process.stop(Duration.ofSeconds(15));
  }

  /** Stops the broker by its pid (SIGTERM, then SIGKILL after 15 s); idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeAdmin();
    stopProcess();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // Called from a shutdown hook, or the JVM is already exiting.
    }
  }
}
