package io.thriftbq.datagen;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * Publishes through the real Pub/Sub emulator with the pipeline main builds, then pulls and
 * unpacks. Skipped when the Google Cloud CLI is not installed.
 */
@RunWith(JUnit4.class)
public class DatagenPipelineEmulatorTest {
  private static final String PROJECT = "datagen-test";
  private static final String TOPIC = "projects/" + PROJECT + "/topics/events";
  private static final String SUBSCRIPTION = "projects/" + PROJECT + "/subscriptions/events-sub";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static Process emulator;
  private static String rootUrl;

  @BeforeClass
  public static void startEmulator() throws Exception {
    assumeTrue("gcloud is not installed", onPath("gcloud"));
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path log = Files.createTempFile("pubsub-emulator", ".log");
    emulator =
        new ProcessBuilder(
                "gcloud",
                "beta",
                "emulators",
                "pubsub",
                "start",
                "--host-port=127.0.0.1:" + port,
                "--project=" + PROJECT)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    rootUrl = "http://localhost:" + port;
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      try {
        if (send("GET", "/", null).statusCode() == 200) {
          break;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      }
      if (!emulator.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "Pub/Sub emulator did not start; its log:\n" + Files.readString(log));
      }
      Thread.sleep(250);
    }
    send("PUT", "/v1/" + TOPIC, "{}");
    send("PUT", "/v1/" + SUBSCRIPTION, "{\"topic\":\"" + TOPIC + "\"}");
  }

  @AfterClass
  public static void stopEmulator() throws InterruptedException {
    if (emulator != null) {
      // gcloud starts the emulator JVM as a child: stop the children by PID, then gcloud itself.
      emulator.descendants().forEach(ProcessHandle::destroy);
      emulator.destroy();
      emulator.waitFor();
    }
  }

  @Test
  public void publishesEnvelopesAndAttributesThatUnpackToTheGeneratedEvents() throws Exception {
    DatagenOptions options =
        PipelineOptionsFactory.fromArgs(
                "--outputTopic=" + TOPIC,
                "--pubsubRootUrl=" + rootUrl,
                "--project=" + PROJECT,
                "--credentialFactoryClass="
                    + "org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory",
                "--maxEvents=30",
                "--maxRecordsPerBatch=4",
                "--generatorRatePerSec=0",
                "--seed=11")
            .as(DatagenOptions.class);
    DatagenPipeline.buildPipeline(options).run().waitUntilFinish();

    Map<Long, byte[]> events = new TreeMap<>();
    int messages = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (events.size() < 30 && System.nanoTime() < deadline) {
      JsonNode pulled =
          JSON.readTree(
              send("POST", "/v1/" + SUBSCRIPTION + ":pull", "{\"maxMessages\":100}").body());
      List<String> ackIds = new java.util.ArrayList<>();
      for (JsonNode received : pulled.path("receivedMessages")) {
        ackIds.add(received.get("ackId").asText());
        JsonNode message = received.get("message");
        Map<String, String> attributes = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = message.path("attributes").fields();
        fields.forEachRemaining(e -> attributes.put(e.getKey(), e.getValue().asText()));
        byte[] data = Base64.getDecoder().decode(message.path("data").asText());
        List<byte[]> unpacked = EventEnvelope.unpack(data, attributes, 4, 1 << 20);
        for (int i = 0; i < unpacked.size(); i++) {
          events.put(Long.parseLong(EventAttributes.eventIdAt(attributes, i)), unpacked.get(i));
        }
        messages++;
      }
      if (!ackIds.isEmpty()) {
        send(
            "POST",
            "/v1/" + SUBSCRIPTION + ":acknowledge",
            JSON.writeValueAsString(Map.of("ackIds", ackIds)));
      }
    }
    assertEquals(8, messages);
    assertEquals(30, events.size());
    RandomEventGenerator generator =
        new RandomEventGenerator(GeneratorConfig.builder().seed(11).build());
    events.forEach((id, bytes) -> assertArrayEquals("event " + id, generator.serialize(id), bytes));
  }

  private static HttpResponse<String> send(String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(rootUrl + path)).timeout(Duration.ofSeconds(30));
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static boolean onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (new File(dir, command).canExecute()) {
        return true;
      }
    }
    return false;
  }
}
