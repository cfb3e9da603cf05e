package io.thriftbq.datagen;

import io.thriftbq.codec.EventAttributes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.ProducerRecordCoder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Publishes the generator's messages to a Kafka topic with {@code KafkaIO.writeRecords()}: each
 * message becomes one record whose value is the payload (the same bytes Pub/Sub would get), whose
 * headers are the attributes (UTF-8 values, in key order), and whose key is the {@value
 * EventAttributes#EVENT_ID} attribute's UTF-8 bytes, or null without it. Keying by event id spreads
 * the records evenly over the partitions and sends a retried event to the partition it went to.
 *
 * <p>The record timestamp is left to the producer (its send time, Kafka's CreateTime): the event's
 * creation time is in the {@value EventAttributes#EVENT_TIME_MS} header, as on Pub/Sub. Publication
 * is at least once, like the Pub/Sub sink: a retried bundle may publish a message again, and the
 * ingestion side counts it as a duplicate by its id.
 */
public final class KafkaSink extends PTransform<PCollection<PubsubMessage>, PDone> {
  private final String bootstrapServers;
  private final String topic;
  private final Map<String, Object> producerProperties;
  private final @Nullable SerializableFunction<Map<String, Object>, Producer<byte[], byte[]>>
      producerFactory;

  private KafkaSink(
      String bootstrapServers,
      String topic,
      Map<String, Object> producerProperties,
      @Nullable SerializableFunction<Map<String, Object>, Producer<byte[], byte[]>>
          producerFactory) {
    this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    this.topic = Objects.requireNonNull(topic, "topic");
    this.producerProperties = Map.copyOf(producerProperties);
    this.producerFactory = producerFactory;
  }

  /**
   * A sink to {@code topic} on {@code bootstrapServers}, the producer configured with {@code
   * producerProperties} on top of KafkaIO's defaults (see {@code
   * io.thriftbq.kafka.KafkaClientConfig#clientProperties}).
   */
  public static KafkaSink to(
      String bootstrapServers, String topic, Map<String, Object> producerProperties) {
    return new KafkaSink(bootstrapServers, topic, producerProperties, null);
  }

  /** The same sink with another producer (tests: a MockProducer instead of a broker). */
  KafkaSink withProducerFactory(
      SerializableFunction<Map<String, Object>, Producer<byte[], byte[]>> factory) {
    return new KafkaSink(bootstrapServers, topic, producerProperties, factory);
  }

  @Override
  public PDone expand(PCollection<PubsubMessage> messages) {
    String target = topic;
    KafkaIO.WriteRecords<byte[], byte[]> write =
        KafkaIO.<byte[], byte[]>writeRecords()
            .withBootstrapServers(bootstrapServers)
            .withTopic(topic)
            .withKeySerializer(ByteArraySerializer.class)
            .withValueSerializer(ByteArraySerializer.class)
            .withProducerConfigUpdates(producerProperties);
    if (producerFactory != null) {
      write = write.withProducerFactoryFn(producerFactory);
    }
    return messages
        .apply(
            "ToKafkaRecords",
            MapElements.into(new TypeDescriptor<ProducerRecord<byte[], byte[]>>() {})
                .via(message -> toRecord(target, message)))
        .setCoder(
            ProducerRecordCoder.of(NullableCoder.of(ByteArrayCoder.of()), ByteArrayCoder.of()))
        .apply("WriteToKafka", write);
  }

  /**
   * An attribute that, when a message has it, is its record's key instead of the event id, and is
   * not a header: a change stream keys its records by primary key, so that the changes of one key
   * stay in one partition, in order (what {@code --changeSequence=KAFKA_OFFSET} needs).
   */
  public static final String RECORD_KEY_ATTRIBUTE = "thriftbq_record_key";

  /**
   * The record a message becomes: value = payload, key = the {@value #RECORD_KEY_ATTRIBUTE} or else
   * the event id's UTF-8 bytes (or null), headers = the other attributes (UTF-8), partition and
   * timestamp left to the producer.
   */
  static ProducerRecord<byte[], byte[]> toRecord(String topic, PubsubMessage message) {
    Map<String, String> attributes = message.getAttributeMap();
    byte[] key = null;
    List<Header> headers = new ArrayList<>();
    if (attributes != null) {
      String recordKey = attributes.get(RECORD_KEY_ATTRIBUTE);
      String eventId = attributes.get(EventAttributes.EVENT_ID);
      if (recordKey != null) {
        key = recordKey.getBytes(StandardCharsets.UTF_8);
      } else if (eventId != null) {
        key = eventId.getBytes(StandardCharsets.UTF_8);
      }
      for (Map.Entry<String, String> attribute : new TreeMap<>(attributes).entrySet()) {
        if (attribute.getKey().equals(RECORD_KEY_ATTRIBUTE)) {
          continue;
        }
        headers.add(
            new RecordHeader(
                attribute.getKey(), attribute.getValue().getBytes(StandardCharsets.UTF_8)));
      }
    }
    return new ProducerRecord<>(topic, null, null, key, message.getPayload(), headers);
  }
}
