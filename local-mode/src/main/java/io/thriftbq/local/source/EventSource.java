package io.thriftbq.local.source;

import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where a local run's events travel from the publisher to the ingestion pipeline: what the run
 * created on the broker, how it publishes into it, and the flags that point the pipelines at it.
 * The run, the progress follower and the report see only this: Pub/Sub ({@link PubsubSource}) and
 * Kafka ({@link KafkaSource}) are two implementations, not changes to them.
 */
public interface EventSource extends AutoCloseable {
  /**
   * A new source for one run on the stack's server for {@code kind}: a fresh topic, and a fresh
   * subscription (Pub/Sub) or consumer group (Kafka).
   */
  static EventSource create(EmulatorStack stack, SourceKind kind, String prefix)
      throws IOException {
    return switch (kind) {
      case PUBSUB -> PubsubSource.create(stack, prefix);
      case KAFKA -> KafkaSource.create(stack, prefix);
    };
  }

  /**
   * The ingestion pipeline's flags that make it read from this source, with the source's metadata
   * columns (the run reads each row's {@code event_id} back from {@link #attributesColumn()}).
   */
  List<String> ingestionArgs();

  /**
   * The row column that holds the message's attributes ({@code _attributes} for Pub/Sub, {@code
   * _kafka_headers} for Kafka), where the run finds each row's {@code event_id}.
   */
  String attributesColumn();

  /** The data generator pipeline's flags that make it publish into this source. */
  List<String> generatorArgs();

  /** Publishes {@code messages} in order; returns once the source has accepted all of them. */
  void publish(List<SourceMessage> messages) throws IOException;

  /** The keys of {@link #describe()}, which the report's configuration has as they are. */
  String SOURCE = "source";

  String TOPIC = "topic";
  String SUBSCRIPTION = "subscription";
  String PARTITIONS = "partitions";
  String CONSUMER_GROUP = "consumer_group";
  String BOOTSTRAP_SERVERS = "bootstrap_servers";

  /**
   * What the report names as the run's source: {@link #SOURCE} ({@code pubsub} or {@code kafka})
   * first, then the names a user would look for (Pub/Sub: topic and subscription paths; Kafka:
   * topic, partitions, consumer group, bootstrap servers).
   */
  Map<String, String> describe();

  /** Releases the clients this source opened (not what it created on the broker). */
  @Override
  default void close() {}
}
