package io.thriftbq.ingest.plan;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.read.KafkaEventSource;
import io.thriftbq.ingest.read.PubsubEventSource;
import io.thriftbq.ingest.schema.MetadataColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubGrpcClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubJsonClient;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/**
 * {@code --source=KAFKA} and its flags: each mistake fails at launch, naming the flag to change.
 */
public class KafkaSourcePlanTest {
  private static final String[] KAFKA = {
    "--source=KAFKA",
    "--kafkaBootstrapServers=127.0.0.1:9092,broker-2.internal:9093",
    "--kafkaTopics=orders,refunds",
    "--kafkaConsumerGroup=thriftbq-events"
  };

  private static IngestionOptions options(String... args) {
    List<String> all = new ArrayList<>();
    all.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    all.add("--project=my-project");
    all.add("--outputTable=my-project:ds.events");
    all.addAll(Arrays.asList(args));
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(IngestionOptions.class);
  }

  private static IngestionPlan plan(String... args) {
    return IngestionPlan.of(options(args), IngestionPlan.Input.SOURCE);
  }

  private static String[] kafka(String... more) {
    List<String> args = new ArrayList<>(Arrays.asList(KAFKA));
    args.addAll(Arrays.asList(more));
    return args.toArray(new String[0]);
  }

  private static String failure(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> plan(args)).getMessage();
  }

  @Test
  public void aKafkaJobReadsKafkaWithEveryKafkaColumn() {
    IngestionPlan plan =
        plan(
            kafka(
                "--kafkaStartOffset=2026-11-26T10:00:00Z",
                "--kafkaConsumerProperty=max.poll.records=500",
                "--kafkaConsumerProperty=isolation.level=read_committed",
                "--includeKafkaTopic=true",
                "--includeKafkaPartition=true",
                "--includeKafkaOffset=true",
                "--includeKafkaKey=true",
                "--includeKafkaTimestamp=true",
                "--includeKafkaHeaders=true"));
    assertTrue(plan.source() instanceof KafkaEventSource);
    List<String> columns = plan.schemas().topLevelColumnNames();
    for (MetadataColumn column : MetadataColumn.values()) {
      if (column.isKafka()) {
        assertTrue(column + " in " + columns, columns.contains(column.columnName()));
      }
    }
    assertTrue(plan(KAFKA).source() instanceof KafkaEventSource);
  }

  @Test
  public void pubsubStaysTheDefault() {
    assertTrue(
        plan("--subscription=projects/my-project/subscriptions/events-sub").source()
            instanceof PubsubEventSource);
  }

  @Test
  public void anotherPubsubClientReplacesTheJsonOneAndLeavesKafkaAlone() {
    IngestionPlan pubsub = plan("--subscription=projects/my-project/subscriptions/events-sub");
    assertSame(PubsubJsonClient.FACTORY, ((PubsubEventSource) pubsub.source()).clientFactory());
    IngestionPlan grpc = pubsub.withPubsubClientFactory(PubsubGrpcClient.FACTORY);
    assertSame(PubsubGrpcClient.FACTORY, ((PubsubEventSource) grpc.source()).clientFactory());
    assertSame(pubsub.types(), grpc.types());
    assertSame(pubsub, pubsub.withPubsubClientFactory(null));
    IngestionPlan kafka = plan(KAFKA);
    assertSame(kafka, kafka.withPubsubClientFactory(PubsubGrpcClient.FACTORY));
  }

  @Test
  public void eachMissingKafkaFlagIsNamed() {
    String error = failure("--source=KAFKA");
    assertThat(error, containsString("--kafkaBootstrapServers"));
    assertThat(error, containsString("--kafkaTopics"));
    assertThat(error, containsString("--kafkaConsumerGroup"));
    assertThat(error, not(containsString("--subscription=projects")));
  }

  @Test
  public void flagsOfTheOtherSourceAreRefused() {
    assertThat(
        failure(kafka("--subscription=projects/my-project/subscriptions/events-sub")),
        containsString("--subscription is for Pub/Sub but --source=KAFKA"));
    String error =
        failure(
            "--subscription=projects/my-project/subscriptions/events-sub",
            "--kafkaTopics=orders",
            "--kafkaConsumerGroup=g");
    assertThat(error, containsString("--kafkaTopics, --kafkaConsumerGroup are for Kafka"));
    assertThat(error, containsString("set --source=KAFKA"));
  }

  @Test
  public void metadataColumnsMustBelongToTheSource() {
    assertThat(
        failure(kafka("--includePubsubMessageId=true")),
        containsString("--includePubsubMessageId adds _message_id, which only Pub/Sub messages"));
    assertThat(
        failure(kafka("--includePublishTime=true")), containsString("use --includeKafkaTimestamp"));
    assertThat(
        failure(kafka("--includeAttributes=true")), containsString("use --includeKafkaHeaders"));
    assertThat(
        failure(
            "--subscription=projects/my-project/subscriptions/events-sub",
            "--includeKafkaOffset=true"),
        containsString("--includeKafkaOffset adds _kafka_offset, which only Kafka records have"));
  }

  @Test
  public void malformedValuesSayWhatTheyShouldBe() {
    assertThat(
        failure(
            "--source=KAFKA",
            "--kafkaBootstrapServers=broker-without-port",
            "--kafkaTopics=orders",
            "--kafkaConsumerGroup=g"),
        containsString("'broker-without-port', which is not host:port"));
    assertThat(
        failure(
            "--source=KAFKA",
            "--kafkaBootstrapServers=b:9092",
            "--kafkaTopics=orders,bad topic!",
            "--kafkaConsumerGroup=g"),
        containsString("--kafkaTopics=bad topic! is not a Kafka topic name"));
    assertThat(
        failure(kafka("--kafkaStartOffset=yesterday")),
        containsString("--kafkaStartOffset=yesterday is not EARLIEST, LATEST"));
    assertThat(
        failure(kafka("--kafkaConsumerProperty=novalue")),
        containsString("--kafkaConsumerProperty=novalue is not key=value"));
  }

  @Test
  public void propertiesThePipelineOwnsCannotBeOverridden() {
    assertThat(
        failure(kafka("--kafkaConsumerProperty=group.id=other")),
        containsString("group.id=... is set by the pipeline: drop it; use --kafkaConsumerGroup"));
    assertThat(
        failure(kafka("--kafkaConsumerProperty=enable.auto.commit=true")),
        containsString("enable.auto.commit=... is set by the pipeline"));
    assertThat(
        failure(kafka("--kafkaConsumerProperty=auto.offset.reset=none")),
        containsString("use --kafkaStartOffset"));
  }

  @Test
  public void startOffsetsParse() {
    assertNotNull(plan(kafka("--kafkaStartOffset=latest")).source());
    assertNotNull(plan(kafka("--kafkaStartOffset=1764151200000")).source());
    assertNotNull(plan(kafka("--kafkaStartOffset=2026-11-26T10:00:00.5Z")).source());
  }

  @Test
  public void googleAuthenticationNeedsNoSecretAndOwnsTheSecuritySettings() {
    assertTrue(
        plan(kafka("--kafkaAuthentication=GOOGLE_OAUTH")).source() instanceof KafkaEventSource);
    assertThat(
        failure(
            kafka(
                "--kafkaAuthentication=GOOGLE_OAUTH",
                "--kafkaConsumerProperty=sasl.mechanism=PLAIN")),
        containsString("conflicts with --kafkaAuthentication=GOOGLE_OAUTH"));
  }
}
