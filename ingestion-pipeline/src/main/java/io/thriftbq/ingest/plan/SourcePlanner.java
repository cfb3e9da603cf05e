package io.thriftbq.ingest.plan;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.Source;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.read.KafkaEventSource;
import io.thriftbq.ingest.read.KafkaStartOffset;
import io.thriftbq.ingest.read.PubsubEventSource;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.kafka.KafkaAuthentication;
import io.thriftbq.kafka.KafkaClientConfig;
import io.thriftbq.kafka.KafkaClientRole;
import io.thriftbq.template.PubsubNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The read the options ask for ({@code --source}): its checks, each saying which flag to change,
 * and the source transform. Options of the other source are errors, not silently ignored: a job
 * whose flags say more than it does misleads whoever reads them.
 */
final class SourcePlanner {

  private SourcePlanner() {}

  /**
   * The source transform, or null after adding to {@code problems}.
   *
   * @param input where messages come from: the options' source, or handed over by the caller (then
   *     only the metadata columns are checked against the source)
   */
  static @Nullable PTransform<PBegin, PCollection<EventMessage>> plan(
      IngestionOptions options,
      IngestionPlan.Input input,
      MetadataColumns metadataColumns,
      List<String> problems) {
    Source source = options.getSource();
    if (source == null) {
      problems.add("--source is empty: set PUBSUB or KAFKA");
      return null;
    }
    checkMetadataColumns(source, metadataColumns, problems);
    if (input != IngestionPlan.Input.SOURCE) {
      return null;
    }
    return switch (source) {
      case PUBSUB -> pubsub(options, problems);
      case KAFKA -> kafka(options, problems);
    };
  }

  private static void checkMetadataColumns(
      Source source, MetadataColumns columns, List<String> problems) {
    for (MetadataColumn column : columns.inOrder()) {
      if (source == Source.PUBSUB && column.isKafka()) {
        problems.add(
            column.flag()
                + " adds "
                + column.columnName()
                + ", which only Kafka records have: drop it, or set --source=KAFKA");
      } else if (source == Source.KAFKA && column.isPubsub()) {
        problems.add(
            column.flag()
                + " adds "
                + column.columnName()
                + ", which only Pub/Sub messages have: use "
                + kafkaCounterpart(column)
                + " with --source=KAFKA");
      }
    }
  }

  private static String kafkaCounterpart(MetadataColumn column) {
    return switch (column) {
      case MESSAGE_ID -> "--includeKafkaTopic, --includeKafkaPartition and --includeKafkaOffset";
      case PUBLISH_TIME -> "--includeKafkaTimestamp";
      default -> "--includeKafkaHeaders";
    };
  }

  private static @Nullable PTransform<PBegin, PCollection<EventMessage>> pubsub(
      IngestionOptions options, List<String> problems) {
    List<String> kafkaFlags = new ArrayList<>();
    if (isSet(options.getKafkaBootstrapServers())) {
      kafkaFlags.add("--kafkaBootstrapServers");
    }
    if (options.getKafkaTopics() != null && !options.getKafkaTopics().isEmpty()) {
      kafkaFlags.add("--kafkaTopics");
    }
    if (isSet(options.getKafkaConsumerGroup())) {
      kafkaFlags.add("--kafkaConsumerGroup");
    }
    if (options.getKafkaConsumerProperty() != null
        && !options.getKafkaConsumerProperty().isEmpty()) {
      kafkaFlags.add("--kafkaConsumerProperty");
    }
    if (!kafkaFlags.isEmpty()) {
      problems.add(
          String.join(", ", kafkaFlags)
              + (kafkaFlags.size() == 1 ? " is" : " are")
              + " for Kafka but --source=PUBSUB: set --source=KAFKA to read Kafka, or drop "
              + (kafkaFlags.size() == 1 ? "it" : "them"));
    }
    boolean subscription = isSet(options.getSubscription());
    boolean topic = isSet(options.getInputTopic());
    if (subscription == topic) {
      problems.add(
          subscription
              ? "Both --subscription and --inputTopic are set: keep only one (prefer"
                  + " --subscription in production)"
              : "Neither --subscription nor --inputTopic is set: set --subscription="
                  + "projects/PROJECT/subscriptions/NAME (or --inputTopic, or --source=KAFKA)");
      return null;
    }
    if (subscription && !PubsubNames.isSubscription(options.getSubscription().trim())) {
      problems.add(
          "--subscription="
              + options.getSubscription()
              + " is not of the form projects/PROJECT/subscriptions/NAME ("
              + PubsubNames.ID_RULE
              + ")");
      return null;
    }
    if (topic && !PubsubNames.isTopic(options.getInputTopic().trim())) {
      problems.add(
          "--inputTopic="
              + options.getInputTopic()
              + " is not of the form projects/PROJECT/topics/NAME ("
              + PubsubNames.ID_RULE
              + ")");
      return null;
    }
    return (subscription
            ? PubsubEventSource.fromSubscription(options.getSubscription().trim())
            : PubsubEventSource.fromTopic(options.getInputTopic().trim()))
        .withIdAttribute(isSet(options.getIdAttribute()) ? options.getIdAttribute().trim() : null);
  }

  private static @Nullable PTransform<PBegin, PCollection<EventMessage>> kafka(
      IngestionOptions options, List<String> problems) {
    int before = problems.size();
    if (isSet(options.getSubscription()) || isSet(options.getInputTopic())) {
      problems.add(
          (isSet(options.getSubscription()) ? "--subscription" : "--inputTopic")
              + " is for Pub/Sub but --source=KAFKA: drop it, or set --source=PUBSUB");
    }
    if (isSet(options.getIdAttribute())) {
      problems.add(
          "--idAttribute is a Pub/Sub attribute, but --source=KAFKA: drop it (for exact tables"
              + " from Kafka use change mode, --primaryKey)");
    }
    String servers = options.getKafkaBootstrapServers();
    problems.addAll(KafkaClientConfig.bootstrapServersProblems(servers, "--source=KAFKA"));
    List<String> topics = new ArrayList<>();
    if (options.getKafkaTopics() != null) {
      for (String topic : options.getKafkaTopics()) {
        if (isSet(topic)) {
          topics.add(topic.trim());
        }
      }
    }
    if (topics.isEmpty()) {
      problems.add("--source=KAFKA needs --kafkaTopics=TOPIC[,TOPIC...]");
    }
    for (String topic : topics) {
      problems.addAll(KafkaClientConfig.topicProblems("kafkaTopics", topic, "--source=KAFKA"));
    }
    if (topics.size() != topics.stream().distinct().count()) {
      problems.add("--kafkaTopics names a topic twice: " + topics);
    }
    if (!isSet(options.getKafkaConsumerGroup())) {
      problems.add(
          "--source=KAFKA needs --kafkaConsumerGroup=NAME: the job commits its offsets there, and"
              + " a new job on the same group resumes where the last one stopped");
    }
    KafkaStartOffset startOffset = null;
    try {
      startOffset =
          KafkaStartOffset.parse(
              options.getKafkaStartOffset() == null
                  ? IngestionOptions.DEFAULT_KAFKA_START_OFFSET
                  : options.getKafkaStartOffset());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    KafkaAuthentication authentication =
        options.getKafkaAuthentication() == null
            ? KafkaAuthentication.NONE
            : options.getKafkaAuthentication();
    problems.addAll(
        KafkaClientConfig.problems(
            KafkaClientRole.CONSUMER, authentication, options.getKafkaConsumerProperty()));
    if (problems.size() > before) {
      return null;
    }
    return KafkaEventSource.read(servers.trim(), topics, options.getKafkaConsumerGroup().trim())
        .withStartOffset(startOffset)
        .withConsumerProperties(
            KafkaClientConfig.clientProperties(
                KafkaClientRole.CONSUMER, authentication, options.getKafkaConsumerProperty()));
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
