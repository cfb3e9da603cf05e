package io.thriftbq.local.stack;

import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PublishRequest;
import com.google.pubsub.v1.PublisherGrpc;
import com.google.pubsub.v1.PubsubMessage;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.thriftbq.local.beamio.PlaintextPubsubGrpcClientFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Google's Pub/Sub emulator (a gcloud component) on 127.0.0.1, administered over its REST API and
 * published to over gRPC, which the same port serves (the ingestion pipeline reads over gRPC too:
 * {@code PlaintextPubsubGrpcClientFactory}).
 *
 * <p>Why publish over gRPC: a REST publish of 10 messages of 1 KB cost the emulator 5-6 ms of CPU,
 * a gRPC one 0.65-0.8 ms (JSON and base64 on its side; benchmarks/RESULTS.md section 23). The paced
 * publisher sends 20 requests a second, so REST alone took a tenth of a core at the default rate.
 * Producers in the cloud publish over gRPC (Google's client libraries) too.
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

  /**
   * Pub/Sub's limit on one publish request, and so on one message. The emulator closes its gRPC
   * server (and stops answering anything) on a larger request instead of refusing it, so no such
   * request is sent.
   */
  static final int MAX_REQUEST_BYTES = 10_000_000;

  /** Pub/Sub's limit on the messages of one publish request. */
  static final int MAX_REQUEST_MESSAGES = 1000;

  /** What a message adds to a request besides its payload and attributes (a generous bound). */
  private static final int MESSAGE_OVERHEAD_BYTES = 64;

  private final ManagedProcess process;
  private final int port;
  private final String project;
  private final LoopbackHttp http;
  private final Launch launch;
  private final ManagedChannel channel;
  private final PublisherGrpc.PublisherBlockingStub publisher;

  /** How the emulator was started, to start it again the same way after a kill. */
  private record Launch(String gcloud, String project, Path dataDir, Path logFile) {}

  private PubsubEmulator(ManagedProcess process, int port, String project, Launch launch) {
    this.process = process;
    this.port = port;
    this.project = project;
    this.http = new LoopbackHttp(port);
    this.launch = launch;
    this.channel =
        PlaintextPubsubGrpcClientFactory.plaintextChannel(FreePorts.LOOPBACK + ":" + port);
    this.publisher = PublisherGrpc.newBlockingStub(channel);
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
    channel.shutdownNow();
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

  /**
   * Publishes messages in order, over gRPC, in as few requests as Pub/Sub's limits allow.
   *
   * @throws IOException when the emulator refuses a request, or (before anything is sent) when a
   *     message alone is over Pub/Sub's 10 MB, which the emulator would not survive
   */
  public void publish(String topic, List<RawMessage> messages) throws IOException {
    String topicPath = topicPath(topic);
    for (List<RawMessage> batch : requests(topicPath, messages)) {
      PublishRequest.Builder request = PublishRequest.newBuilder().setTopic(topicPath);
      for (RawMessage message : batch) {
        request.addMessages(
            PubsubMessage.newBuilder()
                .setData(ByteString.copyFrom(message.data()))
                .putAllAttributes(message.attributes()));
      }
      try {
        publisher.withDeadlineAfter(60, TimeUnit.SECONDS).publish(request.build());
      } catch (StatusRuntimeException e) {
        throw new IOException(
            "Pub/Sub emulator: publish to " + topic + " failed: " + e.getStatus(), e);
      }
    }
  }

  /** {@code messages} split, in order, into requests within Pub/Sub's limits. */
  static List<List<RawMessage>> requests(String topicPath, List<RawMessage> messages)
      throws IOException {
    List<List<RawMessage>> requests = new ArrayList<>();
    List<RawMessage> request = new ArrayList<>();
    long requestBytes = topicPath.length();
    for (RawMessage message : messages) {
      long size = size(message);
      if (size + topicPath.length() > MAX_REQUEST_BYTES) {
        throw new IOException(
            "Pub/Sub emulator: a message of "
                + size
                + " bytes is over Pub/Sub's limit of "
                + MAX_REQUEST_BYTES
                + " bytes per publish request; nothing was sent to "
                + topicPath);
      }
      if (!request.isEmpty()
          && (requestBytes + size > MAX_REQUEST_BYTES || request.size() >= MAX_REQUEST_MESSAGES)) {
        requests.add(request);
        request = new ArrayList<>();
        requestBytes = topicPath.length();
      }
      request.add(message);
      requestBytes += size;
    }
    if (!request.isEmpty()) {
      requests.add(request);
    }
    return requests;
  }

  private static long size(RawMessage message) {
    long size = message.data().length + MESSAGE_OVERHEAD_BYTES;
    for (Map.Entry<String, String> attribute : message.attributes().entrySet()) {
      size += attribute.getKey().length() * 3L + attribute.getValue().length() * 3L + 8;
    }
    return size;
  }

  private void send(PublishRequest request, String topic) throws IOException {
    try {
      publisher.withDeadlineAfter(60, TimeUnit.SECONDS).publish(request);
    } catch (StatusRuntimeException e) {
      throw new IOException(
          "Pub/Sub emulator: publish to " + topic + " failed: " + e.getStatus(), e);
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
    channel.shutdownNow();
    process.stop(Duration.ofSeconds(10));
  }
}
