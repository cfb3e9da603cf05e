package io.thriftbq.kafka;

/**
 * How a pipeline's Kafka clients authenticate to the brokers ({@code --kafkaAuthentication}).
 * {@link KafkaClientConfig#securityProperties} turns each into the clients' security settings.
 */
public enum KafkaAuthentication {
  /**
   * The clients' own defaults (PLAINTEXT), or whatever security the user sets with the client
   * property flags: a local broker, or a self-managed cluster.
   */
  NONE,

  /**
   * Google Cloud Managed Service for Apache Kafka: SASL_SSL with the OAUTHBEARER mechanism, the
   * token coming from Google's {@code GcpLoginCallbackHandler} ({@code
   * com.google.cloud.hosted.kafka:managed-kafka-auth-login-handler}), which uses the Application
   * Default Credentials: on Dataflow, the worker service account. No secret is passed in a flag.
   */
  GOOGLE_OAUTH
}
