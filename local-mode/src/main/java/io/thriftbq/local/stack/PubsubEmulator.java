package io.thriftbq.local.stack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Google's Pub/Sub emulator (a gcloud component) on 127.0.0.1, administered over its REST API. The
 * same port serves gRPC; Beam's PubsubIO uses the REST (JSON) client with {@code --pubsubRootUrl}.
 */
public final class PubsubEmulator implements AutoCloseable {
  /**
   * The emulator JVM's flags, unless {@code CLOUD_PUBSUB_EMULATOR_OPTS} is set (then that is used
   * as given, an empty value giving the JVM's defaults). A local run lasts seconds to minutes: with
   * the JVM's default tiered compiler, C2 compiling the emulator's hot paths took more CPU than the
   * emulator's own work (0.14 of 0.25 cores at the default 200 events/s, 35-75 s after start), so
   * the emulator runs on C1 alone, with the cheapest collector on 2 shared cores. Measured in
   * benchmarks/RESULTS.md section 15.
   */
  static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  static final String JVM_OPTIONS_VARIABLE = "CLOUD_PUBSUB_EMULATOR_OPTS";

  private final ManagedProcess process;
  private final int port;
  private final String project;
  private final LoopbackHttp http;
  private final Launch launch;

  /** How the emulator was started, to start it again the same way after a kill. */
  private record Launch(String gcloud, String project, Path dataDir, Path logFile) {}

  private PubsubEmulator(ManagedProcess process, int port, String project, Launch launch) {
    this.process = process;
    this.port = port;
    this.project = project;
    this.http = new LoopbackHttp(port);
    this.launch = launch;
  }

  static PubsubEmulator start(String gcloud, String project, Path dataDir, Path logFile)
      throws IOException, InterruptedException {
    return start(new Launch(gcloud, project, dataDir, logFile), FreePorts.pick());
  }

  /**
   * Kills this emulator with SIGKILL, waits {@code downtime}, and starts a new one on the same
   * port. The emulator keeps topics, subscriptions and messages in memory: they are all gone.
   */
  public PubsubEmulator killAndRestart(Duration downtime) throws IOException, InterruptedException {
    process.kill();
    Thread.sleep(downtime.toMillis());
    return start(launch, port);
  }

  private static PubsubEmulator start(Launch launch, int port)
      throws IOException, InterruptedException {
    String gcloud = launch.gcloud();
    String project = launch.project();
    Path dataDir = launch.dataDir();
    Path logFile = launch.logFile();
    List<String> command =
        List.of(
            gcloud,
            "beta",
            "emulators",
            "pubsub",
            "start",
            "--host-port=" + FreePorts.LOOPBACK + ":" + port,
            "--project=" + project,
            "--data-dir=" + dataDir,
            "--quiet");
    ManagedProcess process =
        ManagedProcess.start(
            "pubsub-emulator",
            command,
            Map.of(
                "CLOUDSDK_CORE_DISABLE_PROMPTS",
                "1",
                "CLOUDSDK_CORE_DISABLE_USAGE_REPORTING",
                "true",
                JVM_OPTIONS_VARIABLE,
                jvmOptions(System.getenv())),
            logFile);
    PubsubEmulator emulator = new PubsubEmulator(process, port, project, launch);
    try {
      emulator.awaitReady(Duration.ofSeconds(60));
    } catch (IOException | RuntimeException | InterruptedException e) {
      process.close();
      throw e;
    }
    return emulator;
  }

  /** The emulator JVM's flags: the user's {@code CLOUD_PUBSUB_EMULATOR_OPTS}, else ours. */
  static String jvmOptions(Map<String, String> environment) {
    String given = environment.get(JVM_OPTIONS_VARIABLE);
    return given != null ? given : String.join(" ", JVM_OPTIONS);
  }

  private void awaitReady(Duration timeout) throws IOException, InterruptedException {
    process.awaitReady(
        "Pub/Sub emulator (port " + port + ")",
        timeout,
        () -> FreePorts.isListening(port) && http.get("/v1/projects/" + project + "/topics").ok());
  }

  public int port() {
    return port;
  }

  public String project() {
    return project;
  }

  /** For Beam's {@code --pubsubRootUrl}: Beam's test helpers only trust the name localhost. */
  public String rootUrl() {
    return "http://localhost:" + port;
  }

  public long pid() {
    return process.pid();
  }

  public ManagedProcess process() {
    return process;
  }

  public String topicPath(String topic) {
    return "projects/" + project + "/topics/" + topic;
  }

  public String subscriptionPath(String subscription) {
    return "projects/" + project + "/subscriptions/" + subscription;
  }

  public void createTopic(String topic) throws IOException {
    check(http.put("/v1/" + topicPath(topic), Map.of()), "create topic " + topic);
  }

  /**
   * A short ack deadline makes messages that a stopped pipeline had pulled but not acknowledged
   * come back quickly after a restart. {@code retainAckedMessages} allows {@link #seek} to replay
   * acknowledged messages too.
   */
  public void createSubscription(
      String subscription, String topic, int ackDeadlineSeconds, boolean retainAckedMessages)
      throws IOException {
    check(
        http.put(
            "/v1/" + subscriptionPath(subscription),
            Map.of(
                "topic",
                topicPath(topic),
                "ackDeadlineSeconds",
                ackDeadlineSeconds,
                "retainAckedMessages",
                retainAckedMessages)),
        "create subscription " + subscription);
  }

  /**
   * Marks every message published after {@code time} as unacknowledged again (Pub/Sub seek), so
   * that a restarted pipeline reads it once more; needs a subscription that retains acknowledged
   * messages.
   */
  public void seek(String subscription, java.time.Instant time) throws IOException {
    check(
        http.postIdempotent(
            "/v1/" + subscriptionPath(subscription) + ":seek", Map.of("time", time.toString())),
        "seek " + subscription);
  }

  /** Publishes raw messages (used for the malformed ones, which no generator would produce). */
  public void publish(String topic, List<RawMessage> messages) throws IOException {
    for (int from = 0; from < messages.size(); from += 500) {
      ObjectNode body = LoopbackHttp.JSON.createObjectNode();
      ArrayNode array = body.putArray("messages");
      for (RawMessage message : messages.subList(from, Math.min(messages.size(), from + 500))) {
        ObjectNode node = array.addObject();
        node.put("data", Base64.getEncoder().encodeToString(message.data()));
        ObjectNode attributes = node.putObject("attributes");
        message.attributes().forEach(attributes::put);
      }
      check(http.post("/v1/" + topicPath(topic) + ":publish", body), "publish to " + topic);
    }
  }

  /** A message as published: payload and attributes. */
  public record RawMessage(byte[] data, Map<String, String> attributes) {}

  private static void check(LoopbackHttp.Response response, String what) throws IOException {
    if (!response.ok() && response.status() != 409) {
      throw new IOException(
          "Pub/Sub emulator: "
              + what
              + " failed: HTTP "
              + response.status()
              + " "
              + response.raw());
    }
  }

  @Override
  public void close() {
    process.stop(Duration.ofSeconds(10));
  }
}
