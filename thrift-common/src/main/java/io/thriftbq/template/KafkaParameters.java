package io.thriftbq.template;

import io.thriftbq.kafka.KafkaClientConfig;
import io.thriftbq.kafka.KafkaConnectionOptions;
import java.util.List;
import java.util.Map;

/**
 * The flex-template parameters of {@link KafkaConnectionOptions} and of the client property flags,
 * the same in every template that talks to Kafka, with the same input checks as the launch checks
 * of {@code io.thriftbq.kafka.KafkaClientConfig}.
 */
public final class KafkaParameters {
  private KafkaParameters() {}

  /** Comma-separated host:port, as {@code --kafkaBootstrapServers} takes them. */
  public static final String BOOTSTRAP_SERVERS_REGEX =
      "^[^,:\\s]+:[0-9]{1,5}( *, *[^,:\\s]+:[0-9]{1,5})*$";

  /** One Kafka topic name (Kafka's rule: 1-249 of letters, digits, {@code . _ -}). */
  public static final String TOPIC_REGEX = "^" + KafkaClientConfig.TOPIC_NAME + "$";

  /**
   * Comma-separated topic names, as {@code --kafkaTopics} takes them (the pipeline trims each, so
   * spaces around the commas are accepted).
   */
  public static final String TOPIC_LIST_REGEX =
      "^" + KafkaClientConfig.TOPIC_NAME + "( *, *" + KafkaClientConfig.TOPIC_NAME + ")*$";

  /** key=value (a template passes the flag once; values split at commas are rejoined). */
  public static final String PROPERTY_REGEX = "^[^=,\\s]+=.*$";

  /** {@code --kafkaBootstrapServers} and {@code --kafkaAuthentication}, in {@code group}. */
  public static List<TemplateParameter> connection(String group) {
    return List.of(
        TemplateParameter.of(
                "kafkaBootstrapServers",
                "Kafka bootstrap servers",
                group,
                TemplateParameter.ParamType.TEXT)
            .withRegex(BOOTSTRAP_SERVERS_REGEX),
        TemplateParameter.of(
                "kafkaAuthentication",
                "Kafka authentication",
                group,
                TemplateParameter.ParamType.ENUM)
            .withEnumLabels(
                Map.of(
                    "NONE",
                    "None (client defaults or given properties)",
                    "GOOGLE_OAUTH",
                    "Managed Service for Apache Kafka (Google OAuth, worker service account)")));
  }

  /** The repeatable client property flag {@code name} ({@code kafkaProducerProperty}, ...). */
  public static TemplateParameter clientProperty(String name, String label, String group) {
    return TemplateParameter.of(name, label, group, TemplateParameter.ParamType.TEXT)
        .withRegex(PROPERTY_REGEX);
  }
}
