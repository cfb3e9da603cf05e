package io.thriftbq.kafka;

import io.thriftbq.template.KafkaParameters;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateParameter.EnumLabel;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Where the Kafka brokers are and how to authenticate to them: the options every pipeline that
 * talks to Kafka shares (the generator's sink, the ingestion pipeline's source), described once.
 * Each pipeline adds its own topic, consumer or producer options. {@link KafkaClientConfig} checks
 * them and builds the clients' settings.
 */
public interface KafkaConnectionOptions extends PipelineOptions {
  @Description(
      "Kafka bootstrap servers, comma-separated host:port pairs, for example"
          + " bootstrap.CLUSTER.REGION.managedkafka.PROJECT.cloud.goog:9092 for Managed Service for"
          + " Apache Kafka, or 127.0.0.1:9092 for a local broker.")
  @TemplateParameter(
      label = "Kafka bootstrap servers",
      order = 10,
      pattern = KafkaParameters.BOOTSTRAP_SERVERS_REGEX)
  String getKafkaBootstrapServers();

  void setKafkaBootstrapServers(String value);

  @Description(
      "How the Kafka clients authenticate: NONE (the clients' defaults, or the security settings"
          + " given as client properties) or GOOGLE_OAUTH (Managed Service for Apache Kafka:"
          + " SASL_SSL with OAUTHBEARER tokens from Google's GcpLoginCallbackHandler, made from the"
          + " workers' service account credentials; no secret in any flag).")
  @Default.Enum("NONE")
  @TemplateParameter(
      label = "Kafka authentication",
      order = 20,
      enumLabels = {
        @EnumLabel(value = "NONE", label = "None (client defaults or given properties)"),
        @EnumLabel(
            value = "GOOGLE_OAUTH",
            label = "Managed Service for Apache Kafka (Google OAuth, worker service account)")
      })
  KafkaAuthentication getKafkaAuthentication();

  void setKafkaAuthentication(KafkaAuthentication value);
}
