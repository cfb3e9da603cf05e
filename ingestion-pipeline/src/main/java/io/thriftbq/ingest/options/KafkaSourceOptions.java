package io.thriftbq.ingest.options;

import static io.thriftbq.ingest.options.TemplateGroups.SOURCE;

import io.thriftbq.kafka.KafkaConnectionOptions;
import io.thriftbq.template.KafkaParameters;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateParameter.EnumLabel;
import java.util.List;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * Where the pipeline reads (Pub/Sub or Kafka), and how it reads Kafka; the brokers and the
 * authentication are the options every Kafka client of the project shares.
 */
public interface KafkaSourceOptions extends KafkaConnectionOptions {
  /** Default of {@code --kafkaStartOffset}. */
  String DEFAULT_KAFKA_START_OFFSET = "EARLIEST";

  @Description(
      "Where events come from: PUBSUB (--subscription or --inputTopic) or KAFKA"
          + " (--kafkaBootstrapServers, --kafkaTopics, --kafkaConsumerGroup).")
  @Default.Enum("PUBSUB")
  @TemplateParameter(
      label = "Where events come from",
      group = SOURCE,
      order = 40,
      enumLabels = {
        @EnumLabel(value = "PUBSUB", label = "Pub/Sub"),
        @EnumLabel(value = "KAFKA", label = "Kafka")
      })
  Source getSource();

  void setSource(Source value);

  @Description("Kafka topics to read, comma-separated, for --source=KAFKA.")
  @TemplateParameter(
      label = "Kafka topics",
      group = SOURCE,
      order = 60,
      pattern = KafkaParameters.TOPICS_REGEX)
  List<String> getKafkaTopics();

  void setKafkaTopics(List<String> value);

  @Description(
      "Kafka consumer group, for --source=KAFKA. The job commits its offsets to it as bundles"
          + " finalize, so a new job on the same group resumes where the last one stopped.")
  @TemplateParameter(label = "Kafka consumer group", group = SOURCE, order = 70)
  String getKafkaConsumerGroup();

  void setKafkaConsumerGroup(String value);

  @Description(
      "Where to start in a partition the consumer group has no committed offset for: EARLIEST,"
          + " LATEST, or a time (ISO-8601 like 2026-11-26T10:00:00Z, or epoch milliseconds) to start"
          + " at the first record at or after it. Committed offsets always win.")
  @Default.String(DEFAULT_KAFKA_START_OFFSET)
  @TemplateParameter(
      label = "Kafka start offset",
      group = SOURCE,
      order = 80,
      pattern = "^(EARLIEST|LATEST|[0-9]{1,19}|[0-9]{4}-[0-9]{2}-[0-9]{2}T.+)$")
  String getKafkaStartOffset();

  void setKafkaStartOffset(String value);

  @Description(
      "Any other Kafka consumer property as key=value; repeat the flag (or separate with commas)"
          + " for several, e.g. --kafkaConsumerProperty=fetch.max.bytes=52428800. The properties the"
          + " pipeline sets itself (bootstrap servers, key and value deserializers, group id, offset"
          + " reset, auto commit, and the security settings of --kafkaAuthentication) cannot be"
          + " overridden.")
  @TemplateParameter(
      label = "Other Kafka consumer properties",
      group = SOURCE,
      order = 90,
      pattern = KafkaParameters.PROPERTY_REGEX)
  List<String> getKafkaConsumerProperty();

  void setKafkaConsumerProperty(List<String> value);
}
