package io.thriftbq.kafka;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Which side of Kafka a pipeline's client is on: the flag its extra properties come from, the
 * properties the client knows, and those the pipeline sets itself (a user may not override them
 * through the property flag; each names the flag or reason to use instead).
 */
public enum KafkaClientRole {
  /** The data generator's sink ({@code --kafkaProducerProperty}). */
  PRODUCER(
      "kafkaProducerProperty",
      Map.of(
          CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
          "use --kafkaBootstrapServers",
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
          "the pipeline writes raw bytes (ByteArraySerializer)",
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
          "the pipeline writes raw bytes (ByteArraySerializer)")),

  /** The ingestion pipeline's source ({@code --kafkaConsumerProperty}). */
  CONSUMER(
      "kafkaConsumerProperty",
      Map.of(
          CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
          "use --kafkaBootstrapServers",
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          "the pipeline reads raw bytes (ByteArrayDeserializer)",
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
          "the pipeline reads raw bytes (ByteArrayDeserializer)",
          ConsumerConfig.GROUP_ID_CONFIG,
          "use --kafkaConsumerGroup",
          ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
          "use --kafkaStartOffset",
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
          "the pipeline commits offsets as bundles finalize, never on a timer"));

  private final String flag;
  private final Map<String, String> reserved;

  KafkaClientRole(String flag, Map<String, String> reserved) {
    this.flag = flag;
    this.reserved = reserved;
  }

  /** The repeatable option that adds client properties, without {@code --}. */
  public String flag() {
    return flag;
  }

  /** Properties the pipeline sets itself, each with what to do instead of setting it. */
  public Map<String, String> reserved() {
    return reserved;
  }

  /** Every property this kind of client knows (Kafka's own list, for the kafka-clients in use). */
  public Set<String> knownProperties() {
    return this == PRODUCER ? ProducerConfig.configNames() : ConsumerConfig.configNames();
  }
}
