package io.thriftbq.ingest.options;

/** Where the ingestion pipeline reads its events ({@code --source}). */
public enum Source {
  /** A Pub/Sub subscription or topic ({@code --subscription}, {@code --inputTopic}). */
  PUBSUB,
  /** Kafka topics ({@code --kafkaBootstrapServers}, {@code --kafkaTopics}, ...). */
  KAFKA
}
