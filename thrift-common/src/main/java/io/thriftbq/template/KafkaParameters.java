package io.thriftbq.template;

/**
 * The input patterns of the Kafka parameters of every template that talks to Kafka ({@code
 * io.thriftbq.kafka.KafkaConnectionOptions} and each pipeline's topic and client property flags),
 * with the same input checks as the launch checks of {@code io.thriftbq.kafka.KafkaClientConfig}.
 */
public final class KafkaParameters {
  private KafkaParameters() {}

  /**
   * Kafka's rule for a topic name (org.apache.kafka.common.internals.Topic): 1-249 of letters,
   * digits, {@code . _ -}. The one copy of it: {@code KafkaClientConfig}'s launch check reads
   * {@link #TOPIC_REGEX}, and refuses the names {@code .} and {@code ..} besides.
   */
  private static final String TOPIC = "[A-Za-z0-9._-]{1,249}";

  /** Comma-separated host:port, as {@code --kafkaBootstrapServers} takes them. */
  public static final String BOOTSTRAP_SERVERS_REGEX =
      "^[^,:\\s]+:[0-9]{1,5}( *, *[^,:\\s]+:[0-9]{1,5})*$";

  /** One Kafka topic name. */
  public static final String TOPIC_REGEX = "^" + TOPIC + "$";

  /**
   * Kafka topic names, comma-separated, as {@code --kafkaTopics} takes them (the pipeline trims
   * each, so spaces around the commas are accepted).
   */
  public static final String TOPICS_REGEX = "^" + TOPIC + "( *, *" + TOPIC + ")*$";

  /** key=value (a template passes the flag once; values split at commas are rejoined). */
  public static final String PROPERTY_REGEX = "^[^=,\\s]+=.*$";
}
