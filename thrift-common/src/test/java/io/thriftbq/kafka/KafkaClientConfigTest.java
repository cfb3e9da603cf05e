package io.thriftbq.kafka;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.Test;

public class KafkaClientConfigTest {

  @Test
  public void googleOauthIsSaslSslWithGooglesLoginHandlerAndNoSecret() {
    assertEquals(
        Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "OAUTHBEARER",
            "sasl.login.callback.handler.class",
                "com.google.cloud.hosted.kafka.auth.GcpLoginCallbackHandler",
            "sasl.jaas.config",
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;"),
        KafkaClientConfig.securityProperties(KafkaAuthentication.GOOGLE_OAUTH));
    assertEquals(Map.of(), KafkaClientConfig.securityProperties(KafkaAuthentication.NONE));
  }

  @Test
  public void propertiesParseInOrderAndRejoinValuesBeamSplitAtCommas() {
    List<String> problems = new ArrayList<>();
    // As Beam hands over --kafkaProducerProperty=linger.ms=20,ssl.enabled.protocols=TLSv1.2,TLSv1.3
    // plus a second --kafkaProducerProperty=linger.ms=5 (the last value of a key wins).
    Map<String, String> parsed =
        KafkaClientConfig.parseProperties(
            KafkaClientRole.PRODUCER,
            List.of("linger.ms=20", "ssl.enabled.protocols=TLSv1.2", "TLSv1.3", " acks = all "),
            problems);
    assertThat(problems, empty());
    assertEquals(
        List.of("linger.ms", "ssl.enabled.protocols", "acks"), new ArrayList<>(parsed.keySet()));
    assertEquals("TLSv1.2,TLSv1.3", parsed.get("ssl.enabled.protocols"));
    assertEquals("all", parsed.get("acks"));
    assertEquals(
        "5",
        KafkaClientConfig.parseProperties(
                KafkaClientRole.PRODUCER, List.of("linger.ms=20", "linger.ms=5"), problems)
            .get("linger.ms"));
    assertEquals(
        Map.of(), KafkaClientConfig.parseProperties(KafkaClientRole.PRODUCER, null, problems));
  }

  @Test
  public void malformedEntriesNameTheFlag() {
    List<String> problems =
        KafkaClientConfig.problems(
            KafkaClientRole.PRODUCER, KafkaAuthentication.NONE, List.of("lingerms", "=5"));
    assertThat(problems, hasSize(2));
    assertThat(
        problems.get(0),
        allOf(
            containsString("--kafkaProducerProperty=lingerms is not key=value"),
            containsString("--kafkaProducerProperty=linger.ms=20")));
    assertThat(problems.get(1), containsString("has no property name before '='"));
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.CONSUMER, KafkaAuthentication.NONE, List.of("fetch")),
        contains(containsString("--kafkaConsumerProperty=fetch is not key=value")));
  }

  @Test
  public void propertiesThePipelineSetsAreRefusedWithTheFlagToUse() {
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.PRODUCER,
            KafkaAuthentication.NONE,
            List.of("bootstrap.servers=x:1", "value.serializer=Foo")),
        contains(
            containsString("bootstrap.servers=... is set by the pipeline: drop it; use"),
            containsString("raw bytes (ByteArraySerializer)")));
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.CONSUMER,
            KafkaAuthentication.NONE,
            List.of("group.id=g", "auto.offset.reset=earliest")),
        contains(
            containsString("use --kafkaConsumerGroup"), containsString("use --kafkaStartOffset")));
  }

  @Test
  public void securityPropertiesConflictWithGoogleOauthButNotWithNone() {
    List<String> security = List.of("security.protocol=SSL", "sasl.mechanism=PLAIN");
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.CONSUMER, KafkaAuthentication.GOOGLE_OAUTH, security),
        contains(
            containsString(
                "--kafkaConsumerProperty=security.protocol=... conflicts with"
                    + " --kafkaAuthentication=GOOGLE_OAUTH"),
            containsString("sasl.mechanism")));
    assertThat(
        KafkaClientConfig.problems(KafkaClientRole.CONSUMER, KafkaAuthentication.NONE, security),
        empty());
  }

  @Test
  public void clientPropertiesAreTheSecurityPropertiesThenTheUsers() {
    Map<String, Object> config =
        KafkaClientConfig.clientProperties(
            KafkaClientRole.PRODUCER,
            KafkaAuthentication.GOOGLE_OAUTH,
            Arrays.asList("linger.ms=20", "compression.type=lz4"));
    assertEquals(
        List.of(
            "security.protocol",
            "sasl.mechanism",
            "sasl.login.callback.handler.class",
            "sasl.jaas.config",
            "linger.ms",
            "compression.type"),
        new ArrayList<>(config.keySet()));
    assertEquals("20", config.get("linger.ms"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KafkaClientConfig.clientProperties(
                    KafkaClientRole.PRODUCER, KafkaAuthentication.NONE, List.of("nope")));
    assertThat(e.getMessage(), containsString("--kafkaProducerProperty=nope is not key=value"));
  }

  @Test
  public void googleOauthNeedsTheLoginHandlerOnTheClasspath() {
    // On this test classpath (as in both pipelines' jars): no problem.
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.PRODUCER, KafkaAuthentication.GOOGLE_OAUTH, List.of()),
        empty());
    assertThat(
        KafkaClientConfig.problems(
            KafkaClientRole.PRODUCER, KafkaAuthentication.GOOGLE_OAUTH, List.of(), false),
        contains(
            allOf(
                containsString("needs com.google.cloud.hosted.kafka.auth.GcpLoginCallbackHandler"),
                containsString("managed-kafka-auth-login-handler"))));
  }

  @Test
  public void unknownPropertiesAreListedForAWarning() {
    assertEquals(
        List.of("linger.msec"),
        KafkaClientConfig.unknownProperties(
            KafkaClientRole.PRODUCER, List.of("linger.msec=5", ProducerConfig.ACKS_CONFIG + "=1")));
    assertEquals(
        List.of(),
        KafkaClientConfig.unknownProperties(
            KafkaClientRole.CONSUMER, List.of("fetch.min.bytes=1")));
  }

  @Test
  public void bootstrapServersAreHostPortPairs() {
    for (String good :
        List.of(
            "127.0.0.1:9092",
            "bootstrap.c1.us-central1.managedkafka.my-project.cloud.goog:9092",
            "b-1:9092, b-2:9093",
            "[::1]:9092")) {
      assertThat(good, KafkaClientConfig.bootstrapServersProblems(good, "--sink=KAFKA"), empty());
    }
    assertThat(
        KafkaClientConfig.bootstrapServersProblems(null, "--sink=KAFKA"),
        contains(containsString("--kafkaBootstrapServers is required with --sink=KAFKA")));
    for (String bad : List.of("broker", "broker:", "broker:99999", "a:1,,b:2", "http://b:9092")) {
      assertThat(
          bad,
          KafkaClientConfig.bootstrapServersProblems(bad, "--sink=KAFKA"),
          contains(containsString("is not host:port")));
    }
  }

  @Test
  public void topicNamesFollowKafkasRule() {
    assertThat(KafkaClientConfig.topicProblems("kafkaTopic", "thriftbq-events.v1_x", "x"), empty());
    assertThat(
        KafkaClientConfig.topicProblems("kafkaTopic", " ", "--sink=KAFKA"),
        contains(containsString("--kafkaTopic is required with --sink=KAFKA")));
    for (String bad : List.of("a/b", "..", ".", "x".repeat(250), "é")) {
      assertThat(
          bad,
          KafkaClientConfig.topicProblems("kafkaTopic", bad, "x"),
          contains(containsString("is not a Kafka topic name")));
    }
  }
}
