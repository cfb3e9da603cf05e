package io.thriftbq.ingest.read;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.kafka.KafkaClientRole;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.io.kafka.CustomTimestampPolicyWithLimitedDelay;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Reads Kafka records as raw bytes with Beam's {@link KafkaIO} and turns each into an {@link
 * EventMessage}: the value is the payload, the headers (read as UTF-8) are the attributes, and the
 * topic, partition, offset and key travel as its {@link KafkaOrigin}. Elements are stamped with the
 * record's timestamp, which later steps use as the Kafka-timestamp metadata.
 *
 * <p>Offsets are committed to the consumer group when the runner finalizes the bundles (Flink: a
 * completed checkpoint; Dataflow: a committed bundle), so a new job on the same group resumes where
 * the last one stopped, and nothing the last job had not yet written is skipped.
 */
public final class KafkaEventSource extends PTransform<PBegin, PCollection<EventMessage>> {

  /**
   * How far behind the newest record's timestamp the watermark is held: records of a partition
   * arrive in offset order, not time order, and producers' clocks differ.
   */
  private static final Duration MAX_TIMESTAMP_DELAY = Duration.standardSeconds(30);

  private final String bootstrapServers;
  private final List<String> topics;
  private final String consumerGroup;
  private final KafkaStartOffset startOffset;
  private final Map<String, Object> consumerProperties;

  private KafkaEventSource(
      String bootstrapServers,
      List<String> topics,
      String consumerGroup,
      KafkaStartOffset startOffset,
      Map<String, Object> consumerProperties) {
    this.bootstrapServers = bootstrapServers;
    this.topics = List.copyOf(topics);
    this.consumerGroup = consumerGroup;
    this.startOffset = startOffset;
    this.consumerProperties = Map.copyOf(consumerProperties);
  }

  /** Reads {@code topics} from {@code bootstrapServers} as {@code consumerGroup}. */
  public static KafkaEventSource read(
      String bootstrapServers, List<String> topics, String consumerGroup) {
    return new KafkaEventSource(
        bootstrapServers, topics, consumerGroup, new KafkaStartOffset.Earliest(), Map.of());
  }

  /** Where to start in partitions the group has committed no offset for (or at a time). */
  public KafkaEventSource withStartOffset(KafkaStartOffset offset) {
    return new KafkaEventSource(
        bootstrapServers, topics, consumerGroup, offset, consumerProperties);
  }

  /**
   * Further consumer properties (security, fetch sizes); none of those the source sets itself
   * ({@link KafkaClientRole#CONSUMER}'s reserved ones).
   */
  public KafkaEventSource withConsumerProperties(Map<String, Object> properties) {
    return new KafkaEventSource(bootstrapServers, topics, consumerGroup, startOffset, properties);
  }

  @Override
  public PCollection<EventMessage> expand(PBegin begin) {
    checkArgument(!bootstrapServers.isBlank(), "Set the Kafka bootstrap servers");
    checkArgument(!topics.isEmpty(), "Set at least one Kafka topic");
    checkArgument(!consumerGroup.isBlank(), "Set the Kafka consumer group");
    Map<String, String> reserved = KafkaClientRole.CONSUMER.reserved();
    for (String key : consumerProperties.keySet()) {
      checkArgument(
          !reserved.containsKey(key),
          "The consumer property %s is set by the source: %s",
          key,
          reserved.get(key));
    }
    Map<String, Object> config = new HashMap<>(consumerProperties);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, consumerGroup);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
        startOffset instanceof KafkaStartOffset.Latest ? "latest" : "earliest");
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(bootstrapServers)
            .withTopics(topics)
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(config)
            .withTimestampPolicyFactory(new RecordTimestamps())
            .commitOffsetsInFinalize();
    if (startOffset instanceof KafkaStartOffset.AtTime at) {
      read = read.withStartReadTime(at.time());
    }
    return begin
        .apply("ReadKafka", read)
        .apply("ToEventMessages", ParDo.of(new ToEventMessage()))
        .setCoder(EventMessageCoder.of());
  }

  /** The record's own timestamp (CreateTime or LogAppendTime, whichever the topic keeps). */
  private static final class RecordTimestamps implements TimestampPolicyFactory<byte[], byte[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public TimestampPolicy<byte[], byte[]> createTimestampPolicy(
        TopicPartition partition, Optional<Instant> previousWatermark) {
      return new CustomTimestampPolicyWithLimitedDelay<>(
          KafkaEventSource::timestampOf, MAX_TIMESTAMP_DELAY, previousWatermark);
    }
  }

  /** A record without a timestamp (message format before 0.10) is stamped when it is read. */
  static Instant timestampOf(KafkaRecord<byte[], byte[]> record) {
    long timestamp = record.getTimestamp();
    return timestamp >= 0 ? new Instant(timestamp) : Instant.now();
  }

  static final class ToEventMessage extends DoFn<KafkaRecord<byte[], byte[]>, EventMessage> {
    @ProcessElement
    public void process(
        @Element KafkaRecord<byte[], byte[]> record, OutputReceiver<EventMessage> out) {
      out.output(toEventMessage(record));
    }
  }

  /** The message of one record: value, headers as attributes, origin. */
  static EventMessage toEventMessage(KafkaRecord<byte[], byte[]> record) {
    Map<String, String> attributes = Map.of();
    if (record.getHeaders() != null) {
      Header[] headers = record.getHeaders().toArray();
      if (headers.length > 0) {
        attributes = new LinkedHashMap<>(headers.length * 2);
        for (Header header : headers) {
          // A repeated key keeps its last value, as a map of attributes can hold one.
          byte[] value = header.value();
          attributes.put(
              header.key(), value == null ? "" : new String(value, StandardCharsets.UTF_8));
        }
      }
    }
    KafkaOrigin origin =
        new KafkaOrigin(
            record.getTopic(), record.getPartition(), record.getOffset(), record.getKV().getKey());
    return new EventMessage(record.getKV().getValue(), attributes, null, origin);
  }
}
