package io.thriftbq.local.source;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.KafkaBroker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A topic on the stack's Kafka broker and a consumer group for the ingestion pipeline, both new for
 * one run. Each message's attributes travel as record headers (UTF-8 values), its payload as the
 * record's value, and its {@code event_id} attribute, when it has one, as the record's key: events
 * spread over the partitions by id, as a producer keyed by entity would spread them.
 */
public final class KafkaSource implements EventSource {
  /** Several partitions, so the pipeline's reading of many partitions (and their order) is used. */
  public static final int DEFAULT_PARTITIONS = 4;

  private final KafkaBroker broker;
  private final String topic;
  private final int partitions;
  private final String consumerGroup;
  private KafkaProducer<byte[], byte[]> producer;

  private KafkaSource(KafkaBroker broker, String topic, int partitions, String consumerGroup) {
    this.broker = broker;
    this.topic = topic;
    this.partitions = partitions;
    this.consumerGroup = consumerGroup;
  }

  /**
   * A new topic of {@value #DEFAULT_PARTITIONS} partitions and a new group on the stack's broker.
   */
  public static KafkaSource create(EmulatorStack stack, String prefix) throws IOException {
    return create(stack.kafka(), prefix, DEFAULT_PARTITIONS);
  }

  /**
   * A new topic {@code prefix-<random>} of {@code partitions} partitions on {@code broker}, and the
   * name of a consumer group no one has used ({@code <topic>-ingestion}).
   */
  public static KafkaSource create(KafkaBroker broker, String prefix, int partitions)
      throws IOException {
    String topic = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    broker.createTopic(topic, partitions);
    return new KafkaSource(broker, topic, partitions, topic + "-ingestion");
  }

  public KafkaBroker broker() {
    return broker;
  }

  public String topic() {
    return topic;
  }

  public int partitions() {
    return partitions;
  }

  public String consumerGroup() {
    return consumerGroup;
  }

  /**
   * The ingestion pipeline reads the topic from its earliest offset: the pipeline starts before
   * anything is published, so nothing published before its partitions are assigned is skipped.
   */
  @Override
  public List<String> ingestionArgs() {
    return ingestionArgs(broker.bootstrapServers(), topic, consumerGroup);
  }

  /**
   * The flags that read {@code topic} at {@code bootstrapServers} as {@code consumerGroup}, from
   * its earliest offset, with its metadata columns.
   */
  public static List<String> ingestionArgs(
      String bootstrapServers, String topic, String consumerGroup) {
    return List.of(
        "--source=KAFKA",
        "--kafkaBootstrapServers=" + bootstrapServers,
        "--kafkaTopics=" + topic,
        "--kafkaConsumerGroup=" + consumerGroup,
        "--kafkaStartOffset=EARLIEST",
        "--includeKafkaHeaders=true",
        "--includeKafkaTopic=true",
        "--includeKafkaPartition=true",
        "--includeKafkaOffset=true",
        "--includeKafkaTimestamp=true");
  }

  @Override
  public String attributesColumn() {
    return MetadataColumn.KAFKA_HEADERS.columnName();
  }

  @Override
  public List<String> generatorArgs() {
    return List.of(
        "--sink=KAFKA",
        "--kafkaBootstrapServers=" + broker.bootstrapServers(),
        "--kafkaTopic=" + topic);
  }

  /**
   * Sends every message and returns once the broker has acknowledged each one (acks=all,
   * idempotent: a retried send is written once, and each partition keeps the order sent).
   *
   * @throws IOException naming the first message the broker did not take
   */
  @Override
  public synchronized void publish(List<SourceMessage> messages) throws IOException {
    KafkaProducer<byte[], byte[]> sender = producer();
    List<Future<RecordMetadata>> acks = new ArrayList<>(messages.size());
    for (SourceMessage message : messages) {
      acks.add(sender.send(record(topic, message)));
    }
    sender.flush();
    for (int i = 0; i < acks.size(); i++) {
      try {
        acks.get(i).get();
      } catch (ExecutionException e) {
        throw new IOException(
            "Kafka broker refused message "
                + i
                + " of "
                + acks.size()
                + " for topic "
                + topic
                + ": "
                + e.getCause(),
            e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the Kafka broker's acks");
      }
    }
  }

  /**
   * {@code message} as a record: attributes as headers; its record key, else {@code event_id} (if
   * any), as the key.
   */
  static ProducerRecord<byte[], byte[]> record(String topic, SourceMessage message) {
    List<Header> headers = new ArrayList<>(message.attributes().size());
    message
        .attributes()
        .forEach(
            (name, value) ->
                headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8))));
    String recordKey =
        message.recordKey() != null
            ? message.recordKey()
            : message.attributes().get(EventAttributes.EVENT_ID);
    byte[] key = recordKey == null ? null : recordKey.getBytes(StandardCharsets.UTF_8);
    return new ProducerRecord<>(topic, null, null, key, message.data(), headers);
  }

  private KafkaProducer<byte[], byte[]> producer() {
    if (producer == null) {
      producer = new KafkaProducer<>(producerConfig(broker.bootstrapServers()));
    }
    return producer;
  }

  static Map<String, Object> producerConfig(String bootstrapServers) {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.CLIENT_ID_CONFIG, "thriftbq-local-publisher");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    // The publisher sends a tick's worth of events at once and flushes: a few ms of lingering
    // fills batches without adding latency that matters.
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    // As in the study: events travel uncompressed (batching many per message is the envelope's
    // job, --records-per-message).
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    // As large as the broker takes: the hostile-input runs send payloads up to 9 MB.
    config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, KafkaBroker.MAX_MESSAGE_BYTES);
    // A restarted broker is found again within a second.
    config.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
    return config;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put(SOURCE, SourceKind.KAFKA.flagValue());
    names.put(TOPIC, topic);
    names.put(PARTITIONS, Integer.toString(partitions));
    names.put(CONSUMER_GROUP, consumerGroup);
    names.put(BOOTSTRAP_SERVERS, broker.bootstrapServers());
    return names;
  }

  /** Closes the producer (publishing after this opens a new one). */
  @Override
  public synchronized void close() {
    if (producer != null) {
      producer.close(java.time.Duration.ofSeconds(10));
      producer = null;
    }
  }

  @Override
  public String toString() {
    return "Kafka topic " + topic + " (" + partitions + " partitions)";
  }
}
