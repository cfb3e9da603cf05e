package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.SourceMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The local Kafka broker on its own: records with headers go in, survive a SIGKILL and a restart on
 * the same data directory and ports, and the broker listens on 127.0.0.1 only and is gone once
 * closed. Needs the broker's jars ({@code ./mvnw -pl local-mode -am package}); fails without them.
 */
public class KafkaBrokerTest {
  private static final int PARTITIONS = 4;
  private static final String GROUP = "kafka-broker-test";

  @Rule public Timeout timeout = Timeout.seconds(120);

  private Path dir;
  private KafkaBroker broker;

  @Before
  public void startBroker() throws Exception {
    dir = Files.createTempDirectory("kafka-broker-test-");
    broker = KafkaBroker.start(LocalPaths.kafkaBrokerLibs(), dir);
  }

  @After
  public void stopBroker() {
    if (broker != null) {
      broker.close();
    }
    EmulatorStack.deleteRecursively(dir);
  }

  /** One broker's life in one test: each start costs seconds of a 2-core machine. */
  @Test
  public void keepsRecordsWithHeadersThroughSigkillAndRestartAndIsStoppedByPid() throws Exception {
    Map<Integer, String> listening = listeningSockets(broker.pid());
    assertEquals(
        "the broker and controller ports, nothing else (no JMX)",
        Set.of(broker.port(), broker.controllerPort()),
        listening.keySet());
    assertThat(listening.values(), everyItem(startsWith("127.0.0.1")));

    List<SourceMessage> sent = messages(40);
    List<Consumed> before;
    try (KafkaSource source = KafkaSource.create(broker, "survives", PARTITIONS)) {
      assertEquals(
          List.of(
              "--source=KAFKA",
              "--kafkaBootstrapServers=" + broker.bootstrapServers(),
              "--kafkaTopics=" + source.topic(),
              "--kafkaConsumerGroup=" + source.consumerGroup(),
              "--kafkaStartOffset=EARLIEST",
              "--includeKafkaHeaders=true",
              "--includeKafkaTopic=true",
              "--includeKafkaPartition=true",
              "--includeKafkaOffset=true",
              "--includeKafkaTimestamp=true"),
          source.ingestionArgs());
      assertEquals(
          List.of(
              "--sink=KAFKA",
              "--kafkaBootstrapServers=" + broker.bootstrapServers(),
              "--kafkaTopic=" + source.topic()),
          source.generatorArgs());
      assertEquals("kafka", source.describe().get("source"));
      assertEquals(Integer.toString(PARTITIONS), source.describe().get("partitions"));

      source.publish(sent);
      before = readAll(source.topic(), sent.size(), true);
      assertEquals(asSent(sent), asSetOf(before));
      assertEquals(
          "keyed by event_id, the records spread over the partitions",
          PARTITIONS,
          before.stream().map(Consumed::partition).distinct().count());

      long killedPid = broker.pid();
      String bootstrap = broker.bootstrapServers();
      broker.kill();
      assertFalse("SIGKILLed broker still alive", ProcessHandle.of(killedPid).isPresent());
      assertFalse(FreePorts.isListening(broker.port()));

      broker.restart();
      assertNotEquals(killedPid, broker.pid());
      assertEquals("same ports after a restart", bootstrap, broker.bootstrapServers());
      List<Consumed> after = readAll(source.topic(), sent.size(), false);
      assertEquals("every acknowledged record is back, in place", before, after);
      assertEquals(
          "the group's committed offsets survived too",
          endOffsets(before),
          committedOffsets(source.topic()));

      // The producer that sent before the kill goes on against the restarted broker.
      source.publish(messages(1));
      assertEquals(sent.size() + 1, readAll(source.topic(), sent.size() + 1, false).size());
    }

    long pid = broker.pid();
    broker.close();
    assertFalse("broker process left behind", ProcessHandle.of(pid).isPresent());
    assertFalse(FreePorts.isListening(broker.port()));
    assertFalse(FreePorts.isListening(broker.controllerPort()));
  }

  /** Attributes as the local runs set them: ids, times, envelope markers, the struct name. */
  private static List<SourceMessage> messages(int count) {
    List<SourceMessage> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> attributes = new LinkedHashMap<>();
      byte[] payload = ("event-" + i).getBytes(StandardCharsets.UTF_8);
      if (i == 5) {
        // As the hostile-input runs send: a payload near Pub/Sub's 10 MB limit.
        payload = new byte[9 * 1024 * 1024];
        new java.util.Random(i).nextBytes(payload);
      }
      if (i % 10 == 9) {
        // As a malformed message: no event id (so no key), a hostile value, an envelope marker.
        attributes.putAll(EventEnvelope.envelopeAttributes(3));
        attributes.put("malformed_kind", "CORRUPT_ENVELOPE \u00e9\u4e2d\u0000");
        payload = new byte[] {0x7f, 0, (byte) 0xff};
      } else {
        attributes.put(EventAttributes.EVENT_ID, Integer.toString(i));
        attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(1_700_000_000_000L + i));
        attributes.put("thrift_struct", i % 2 == 0 ? "Order" : "Click");
      }
      out.add(new SourceMessage(payload, attributes));
    }
    return out;
  }

  /** A record as read back: where it is, its key, value and headers (decoded as UTF-8). */
  private record Consumed(
      int partition, long offset, String key, String value, Map<String, String> headers) {}

  private static Set<List<Object>> asSent(List<SourceMessage> sent) {
    Set<List<Object>> out = new HashSet<>();
    for (SourceMessage m : sent) {
      String key = m.attributes().get(EventAttributes.EVENT_ID);
      out.add(
          List.of(
              String.valueOf(key),
              new String(m.data(), StandardCharsets.ISO_8859_1),
              new TreeMap<>(m.attributes())));
    }
    return out;
  }

  private static Set<List<Object>> asSetOf(List<Consumed> consumed) {
    Set<List<Object>> out = new HashSet<>();
    for (Consumed c : consumed) {
      out.add(List.of(String.valueOf(c.key()), c.value(), new TreeMap<>(c.headers())));
    }
    return out;
  }

  /** Every record of {@code topic} from the start, in (partition, offset) order. */
  private List<Consumed> readAll(String topic, int expected, boolean commit) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      List<Consumed> out = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          Map<String, String> headers = new LinkedHashMap<>();
          for (Header h : r.headers()) {
            headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
          }
          out.add(
              new Consumed(
                  r.partition(),
                  r.offset(),
                  r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8),
                  new String(r.value(), StandardCharsets.ISO_8859_1),
                  headers));
        }
      }
      if (commit) {
        consumer.commitSync();
      }
      out.sort(
          (a, b) ->
              a.partition() != b.partition()
                  ? Integer.compare(a.partition(), b.partition())
                  : Long.compare(a.offset(), b.offset()));
      return out;
    }
  }

  private static Map<Integer, Long> endOffsets(List<Consumed> consumed) {
    Map<Integer, Long> out = new TreeMap<>();
    for (Consumed c : consumed) {
      out.merge(c.partition(), c.offset() + 1, Math::max);
    }
    return out;
  }

  private Map<Integer, Long> committedOffsets(String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig())) {
      Set<TopicPartition> partitions = new HashSet<>();
      for (int p = 0; p < PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      Map<Integer, Long> out = new TreeMap<>();
      for (Map.Entry<TopicPartition, OffsetAndMetadata> e :
          consumer.committed(partitions, Duration.ofSeconds(30)).entrySet()) {
        if (e.getValue() != null) {
          out.put(e.getKey().partition(), e.getValue().offset());
        }
      }
      return out;
    }
  }

  private Map<String, Object> consumerConfig() {
    return Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
        broker.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG,
        GROUP,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
        false,
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
        ByteArrayDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
        ByteArrayDeserializer.class);
  }

  /**
   * The TCP sockets process {@code pid} listens on: port to local address (IPv4 dotted; an
   * IPv4-mapped IPv6 address as its IPv4 part), from /proc (Linux).
   */
  private static Map<Integer, String> listeningSockets(long pid) throws IOException {
    Path fds = Path.of("/proc", Long.toString(pid), "fd");
    assumeTrue("needs Linux /proc", Files.isDirectory(fds));
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> links = Files.list(fds)) {
      for (Path link : (Iterable<Path>) links::iterator) {
        try {
          String target = Files.readSymbolicLink(link).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // An fd closed between listing and reading: not a listening socket.
        }
      }
    }
    Map<Integer, String> out = new TreeMap<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode.
        if (f[3].equals("0A") && inodes.contains(f[9])) {
          String[] addressPort = f[1].split(":");
          out.put(Integer.parseInt(addressPort[1], 16), ipv4(addressPort[0]));
        }
      }
    }
    assertTrue("no listening socket found for pid " + pid, !out.isEmpty());
    return out;
  }

  /** /proc's hex address (little-endian words) as dotted IPv4, or the raw hex if not IPv4. */
  private static String ipv4(String hex) {
    String word = hex.length() == 8 ? hex : hex.substring(24);
    if (hex.length() == 32 && !hex.substring(0, 24).equals("0000000000000000FFFF0000")) {
      return hex;
    }
    return (Integer.parseInt(word.substring(6, 8), 16)
        + "."
        + Integer.parseInt(word.substring(4, 6), 16)
        + "."
        + Integer.parseInt(word.substring(2, 4), 16)
        + "."
        + Integer.parseInt(word.substring(0, 2), 16));
  }
}
