package io.thriftbq.datagen;

import static io.thriftbq.datagen.EventMixTest.config;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasEntry;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.kafka.KafkaAuthentication;
import io.thriftbq.kafka.KafkaClientConfig;
import io.thriftbq.kafka.KafkaClientRole;
import io.thriftbq.schema.EventTypes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The Kafka sink publishes exactly what the Pub/Sub sink would: the same messages, built once, go
 * through {@code KafkaIO.writeRecords()} into a MockProducer (no broker) and are compared with the
 * messages handed to the Pub/Sub sink: value = payload, headers = attributes, key = event id.
 */
@RunWith(JUnit4.class)
public class KafkaSinkTest {
  private static final String TOPIC = "thriftbq-events";

  /** Per test run (by id): the producer KafkaIO writes to, its config, the Pub/Sub-side copies. */
  private static final Map<String, MockProducer<byte[], byte[]>> PRODUCERS =
      new ConcurrentHashMap<>();

  private static final Map<String, Map<String, Object>> PRODUCER_CONFIGS =
      new ConcurrentHashMap<>();
  private static final Map<String, Queue<PubsubMessage>> PUBSUB_SIDE = new ConcurrentHashMap<>();

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Test
  public void aRecordIsThePayloadWithTheAttributesAsHeadersAndTheEventIdAsKey() {
    byte[] payload = {1, 2, 3, (byte) 0xff};
    Map<String, String> attributes = new HashMap<>();
    attributes.put(EventAttributes.EVENT_ID, "42");
    attributes.put(EventAttributes.EVENT_TIME_MS, "1700000000000");
    attributes.put(EventTypes.DEFAULT_STRUCT_ATTRIBUTE, "Ordér");
    ProducerRecord<byte[], byte[]> record =
        KafkaSink.toRecord(TOPIC, new PubsubMessage(payload, attributes));
    assertEquals(TOPIC, record.topic());
    assertArrayEquals(payload, record.value());
    assertArrayEquals("42".getBytes(StandardCharsets.UTF_8), record.key());
    assertEquals(attributes, headers(record));
    assertNull("the producer partitions by key", record.partition());
    assertNull("the producer stamps the send time", record.timestamp());
    // Headers in key order, so the same message always makes the same record.
    assertEquals(
        List.of(EventAttributes.EVENT_ID, EventAttributes.EVENT_TIME_MS, "thrift_struct"),
        java.util.Arrays.stream(record.headers().toArray()).map(Header::key).toList());

    ProducerRecord<byte[], byte[]> noId =
        KafkaSink.toRecord(TOPIC, new PubsubMessage(payload, Map.of("a", "b")));
    assertNull(noId.key());
    assertEquals(Map.of("a", "b"), headers(noId));
  }

  @Test
  public void aChangeStreamsRecordKeyReplacesTheEventIdAndIsNoHeader() {
    ProducerRecord<byte[], byte[]> record =
        KafkaSink.toRecord(
            TOPIC,
            new PubsubMessage(
                new byte[] {1},
                Map.of(
                    EventAttributes.EVENT_ID,
                    "12",
                    KafkaSink.RECORD_KEY_ATTRIBUTE,
                    "Order/key-7",
                    "op",
                    "DELETE")));
    assertArrayEquals("Order/key-7".getBytes(StandardCharsets.UTF_8), record.key());
    assertNull(record.headers().lastHeader(KafkaSink.RECORD_KEY_ATTRIBUTE));
    assertNotNull(record.headers().lastHeader(EventAttributes.EVENT_ID));
    assertNotNull(record.headers().lastHeader("op"));
  }

  @Test
  public void kafkaRecordsCarryExactlyThePubSubMessagesPlain() {
    assertKafkaMatchesPubSub(
        new GenerateMessages(
            config("--thriftStructs=Order:5,Refund:1,Click:94", "--seed=5"),
            RatePlan.of(0, 1, 120)),
        120);
  }

  @Test
  public void kafkaRecordsCarryExactlyThePubSubMessagesInEnvelopes() {
    assertKafkaMatchesPubSub(
        new GenerateMessages(config("--thriftUnion=AnyEvent", "--seed=9"), RatePlan.of(0, 10, 95)),
        10);
  }

  /**
   * Runs {@code generate} once, hands its messages to a recording Pub/Sub stand-in and to the Kafka
   * sink (GOOGLE_OAUTH and a producer property, into a MockProducer), and compares.
   */
  private void assertKafkaMatchesPubSub(GenerateMessages generate, int expectedMessages) {
    String id = UUID.randomUUID().toString();
    PRODUCERS.put(id, new KeepOpenMockProducer());
    PUBSUB_SIDE.put(id, new ConcurrentLinkedQueue<>());
    Map<String, Object> producerProperties =
        KafkaClientConfig.clientProperties(
            KafkaClientRole.PRODUCER,
            KafkaAuthentication.GOOGLE_OAUTH,
            List.of("linger.ms=20", "compression.type=lz4"));
    try {
      PCollection<PubsubMessage> messages = pipeline.apply(generate);
      messages.apply("PubSubSide", ParDo.of(new RecordPubsubSide(id)));
      messages.apply(
          "PublishToKafka",
          KafkaSink.to(
                  "bootstrap.c.us-central1.managedkafka.p.cloud.goog:9092",
                  TOPIC,
                  producerProperties)
              .withProducerFactory(new MockProducerFactory(id)));
      pipeline.run().waitUntilFinish();

      Map<String, PubsubMessage> pubsub = new TreeMap<>();
      for (PubsubMessage m : PUBSUB_SIDE.get(id)) {
        assertNull("duplicate", pubsub.put(m.getAttribute(EventAttributes.EVENT_ID), m));
      }
      List<ProducerRecord<byte[], byte[]>> records = PRODUCERS.get(id).history();
      assertEquals(expectedMessages, pubsub.size());
      assertEquals(expectedMessages, records.size());
      for (ProducerRecord<byte[], byte[]> record : records) {
        assertEquals(TOPIC, record.topic());
        String key = new String(record.key(), StandardCharsets.UTF_8);
        PubsubMessage message = pubsub.get(key);
        assertNotNull("record with key " + key + " has no Pub/Sub twin", message);
        assertArrayEquals("value of " + key, message.getPayload(), record.value());
        assertEquals("headers of " + key, message.getAttributeMap(), headers(record));
      }
      if (expectedMessages < 100) { // the envelope run: the markers travel as headers
        for (ProducerRecord<byte[], byte[]> record : records) {
          assertThat(
              headers(record),
              hasEntry(EventEnvelope.ENVELOPE_ATTRIBUTE, EventEnvelope.FORMAT_DEFLATE_V1));
        }
      }
      // KafkaIO got the servers, the raw-bytes serializers and the shared security settings.
      Map<String, Object> config = PRODUCER_CONFIGS.get(id);
      assertEquals(
          "bootstrap.c.us-central1.managedkafka.p.cloud.goog:9092",
          config.get("bootstrap.servers"));
      assertEquals(ByteArraySerializer.class, config.get("value.serializer"));
      assertEquals("SASL_SSL", config.get("security.protocol"));
      assertEquals(
          KafkaClientConfig.GCP_LOGIN_CALLBACK_HANDLER,
          config.get("sasl.login.callback.handler.class"));
      assertEquals("20", config.get("linger.ms"));
      assertEquals("lz4", config.get("compression.type"));
    } finally {
      PRODUCERS.remove(id);
      PRODUCER_CONFIGS.remove(id);
      PUBSUB_SIDE.remove(id);
    }
  }

  private static Map<String, String> headers(ProducerRecord<?, ?> record) {
    Map<String, String> headers = new HashMap<>();
    for (Header header : record.headers()) {
      assertNull("header " + header.key() + " twice", headers.get(header.key()));
      headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
    }
    return headers;
  }

  /** What the Pub/Sub sink would get: the messages as they are. */
  private static final class RecordPubsubSide extends DoFn<PubsubMessage, Void> {
    private final String id;

    RecordPubsubSide(String id) {
      this.id = id;
    }

    @ProcessElement
    public void process(@Element PubsubMessage message) {
      PUBSUB_SIDE.get(id).add(message);
    }
  }

  /** Hands KafkaIO's writers the run's MockProducer and keeps the config they built. */
  private static final class MockProducerFactory
      implements SerializableFunction<Map<String, Object>, Producer<byte[], byte[]>> {
    private final String id;

    MockProducerFactory(String id) {
      this.id = id;
    }

    @Override
    public Producer<byte[], byte[]> apply(Map<String, Object> config) {
      PRODUCER_CONFIGS.put(id, Map.copyOf(config));
      return PRODUCERS.get(id);
    }
  }

  /** Several writer instances share one producer: one closing it must not fail the others. */
  private static final class KeepOpenMockProducer extends MockProducer<byte[], byte[]> {
    KeepOpenMockProducer() {
      super(true, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void close() {}

    @Override
    public void close(Duration timeout) {}
  }
}
