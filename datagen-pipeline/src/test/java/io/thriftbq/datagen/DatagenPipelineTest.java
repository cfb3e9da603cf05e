package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class DatagenPipelineTest {
  private static final String TOPIC = "--outputTopic=projects/my-project/topics/events";
  private static final String NOOP_CREDENTIALS =
      "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory";

  @Test
  public void anIdlReadAtLaunchReplacesTheClassAndExcludesIt() {
    String idl = "--thriftIdl=../thrift-common/src/test/idl/byo_event.thrift";
    GeneratorConfig config =
        DatagenPipeline.validate(options(TOPIC, idl, "--thriftStruct=ByoEvent"));
    assertEquals("byo_event.ByoEvent", config.source().resolve().qualifiedName());
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                DatagenPipeline.validate(
                    options(TOPIC, idl, "--thriftStruct=ByoEvent", "--className=a.b.C")));
    assertTrue(both.getMessage(), both.getMessage().contains("give exactly one"));
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> DatagenPipeline.validate(options(TOPIC, idl, "--thriftStruct=Nope")));
    assertTrue(unknown.getMessage(), unknown.getMessage().contains("known: "));
  }

  @Test
  public void everyDocumentedOptionNameParses() {
    DatagenOptions options =
        options(
            "--className=io.thriftbq.testing.AllTypes",
            TOPIC,
            "--generatorRatePerSec=250",
            "--maxEvents=1000",
            "--seed=9",
            "--completeObjects=true",
            "--optionalFieldProbability=0.5",
            "--minStringLength=2",
            "--maxStringLength=8",
            "--maxCollectionSize=3",
            "--fieldsWithSkew=a_string,a_nested.inner.name",
            "--skewCardinality=50",
            "--skewExponent=1.5",
            "--maxRecordsPerBatch=20",
            "--thriftProtocol=COMPACT",
            "--pubsubRootUrl=http://localhost:8085");
    GeneratorConfig config = DatagenPipeline.validate(options);
    assertEquals(ThriftSource.generatedClass("io.thriftbq.testing.AllTypes"), config.source());
    assertEquals(9, config.seed());
    assertTrue(config.completeObjects());
    assertEquals(0.5, config.optionalFieldProbability(), 0);
    assertEquals(2, config.minStringLength());
    assertEquals(8, config.maxStringLength());
    assertEquals(3, config.maxCollectionSize());
    assertEquals(List.of("a_string", "a_nested.inner.name"), config.fieldsWithSkew());
    assertEquals(50, config.skewCardinality());
    assertEquals(1.5, config.skewExponent(), 0);
    assertEquals(ThriftProtocol.COMPACT, config.protocol());
    assertEquals(250, options.getGeneratorRatePerSec());
    assertEquals(1000, options.getMaxEvents());
    assertEquals(20, options.getMaxRecordsPerBatch());
    assertEquals("http://localhost:8085", options.getPubsubRootUrl());
  }

  @Test
  public void defaultsAreValidAndMatchTheBuilder() {
    DatagenOptions options = options(TOPIC);
    assertEquals(GeneratorConfig.builder().build(), DatagenPipeline.validate(options));
    assertEquals(1, options.getMaxRecordsPerBatch());
    assertEquals(0, options.getMaxEvents());
    assertEquals(ThriftProtocol.BINARY, options.getThriftProtocol());
  }

  @Test
  public void unboundedRunSwitchesOnStreamingAndBoundedDoesNot() {
    DatagenOptions unbounded = options(TOPIC);
    Pipeline pipeline = DatagenPipeline.buildPipeline(unbounded);
    assertTrue(unbounded.isStreaming());
    List<String> transforms = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            transforms.add(node.getFullName());
            return CompositeBehavior.ENTER_TRANSFORM;
          }
        });
    assertTrue(transforms.toString(), transforms.contains("GenerateMessages"));
    assertTrue(transforms.toString(), transforms.contains("PublishToPubSub"));

    DatagenOptions bounded = options(TOPIC, "--maxEvents=10");
    DatagenPipeline.buildPipeline(bounded);
    assertFalse(bounded.isStreaming());
  }

  @Test
  public void missingOrMalformedTopicIsRejected() {
    assertThat(problems(), containsString("--outputTopic is required"));
    assertThat(problems("--outputTopic=events"), containsString("projects/PROJECT/topics/TOPIC"));
    assertThat(
        problems("--outputTopic=projects/p/subscriptions/s"), containsString("not a topic path"));
    assertThat(
        problems("--outputTopic=projects/p/topics/events"), containsString("not a valid Pub/Sub"));
  }

  @Test
  public void everyProblemIsReportedAtOnce() {
    String message =
        problems(
            "--generatorRatePerSec=-1",
            "--maxEvents=-5",
            "--maxRecordsPerBatch=0",
            "--optionalFieldProbability=2",
            "--minStringLength=9",
            "--maxStringLength=3",
            "--maxCollectionSize=-1",
            "--skewCardinality=0",
            "--skewExponent=-1");
    assertThat(
        message,
        allOf(
            containsString("--outputTopic"),
            containsString("--generatorRatePerSec=-1"),
            containsString("--maxEvents=-5"),
            containsString("--maxRecordsPerBatch=0"),
            containsString("--optionalFieldProbability=2.0"),
            containsString("--maxStringLength=3 is below --minStringLength=9"),
            containsString("--maxCollectionSize=-1"),
            containsString("--skewCardinality=0"),
            containsString("--skewExponent=-1.0")));
  }

  @Test
  public void batchSizeAboveTheLimitIsRejected() {
    assertThat(problems(TOPIC, "--maxRecordsPerBatch=10001"), containsString("outside 1..10000"));
  }

  @Test
  public void unknownClassAndSkewPathAreRejected() {
    assertThat(
        problems(TOPIC, "--className=com.example.Nope"), containsString("not on the classpath"));
    assertThat(
        problems(TOPIC, "--fieldsWithSkew=user_id,session.nope"),
        allOf(containsString("session.nope"), containsString("session.device.model")));
  }

  @Test
  public void messagesThatCannotFitPubSubAreRejectedAtLaunch() {
    assertThat(
        problems(
            TOPIC,
            "--maxRecordsPerBatch=10000",
            "--minStringLength=20000",
            "--maxStringLength=20000",
            "--completeObjects=true"),
        containsString("lower --maxRecordsPerBatch"));
  }

  @Test
  public void manyEventTypesAreReadFromTheIdlOptions() {
    String idl = "--thriftIdl=" + EventMixTest.SHOP_IDL;
    GeneratorConfig structs =
        DatagenPipeline.validate(options(TOPIC, idl, "--thriftStructs=Order:5,Refund:1,Click:94"));
    assertTrue(structs.isMix());
    assertEquals(EventTypes.Layout.ATTRIBUTE, structs.eventTypes().layout());
    assertEquals("thrift_struct", structs.eventTypes().attribute());
    assertEquals(94.0, structs.eventTypes().types().get(2).weight(), 0);
    GeneratorConfig union =
        DatagenPipeline.validate(
            options(TOPIC, idl, "--thriftUnion=AnyEvent", "--thriftStructs=Order,Click"));
    assertEquals(EventTypes.Layout.UNION, union.eventTypes().layout());
    assertEquals(2, union.eventTypes().types().size());
    // The pipeline builds with them (unbounded: streaming).
    DatagenPipeline.buildPipeline(options(TOPIC, idl, "--thriftUnion=AnyEvent"));
  }

  @Test
  public void badEventTypeOptionsFailAtLaunchNamingTheFlag() {
    String idl = "--thriftIdl=" + EventMixTest.SHOP_IDL;
    assertThat(
        problems(TOPIC, idl, "--thriftUnion=Order"),
        allOf(containsString("--thriftUnion=Order is a struct, not a union")));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order:0,Click"),
        allOf(containsString("--thriftStructs"), containsString("positive weight")));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order:-2,Click"), containsString("positive weight"));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order,Nope"),
        allOf(containsString("--thriftStructs"), containsString("Nope")));
    assertThat(
        problems(TOPIC, idl, "--thriftUnion=AnyEvent", "--thriftStructs=Money"),
        containsString("is not a struct member of --thriftUnion=AnyEvent"));
    assertThat(
        problems(TOPIC, "--thriftStructs=Order,Click", "--className=a.b.C"),
        containsString("drop --className"));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order,Click", "--structAttribute=event_id"),
        containsString("--structAttribute=event_id is an attribute the generator already sets"));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order,Click", "--structAttribute=googtype"),
        containsString("--structAttribute=googtype is not an attribute Pub/Sub accepts"));
    assertThat(
        problems(TOPIC, idl, "--thriftStructs=Order,Click", "--fieldsWithSkew=refund_id"),
        allOf(containsString("refund_id"), containsString("none of the event types")));
    // Other problems are still reported in the same message.
    assertThat(
        problems(idl, "--thriftUnion=Order", "--maxEvents=-1"),
        allOf(containsString("--thriftUnion=Order"), containsString("--maxEvents=-1")));
  }

  private static final String KAFKA = "--sink=KAFKA";
  private static final String SERVERS = "--kafkaBootstrapServers=127.0.0.1:9092";
  private static final String KAFKA_TOPIC = "--kafkaTopic=thriftbq-events";

  @Test
  public void kafkaSinkPublishesWithKafkaIoInsteadOfPubSub() {
    DatagenOptions options =
        options(
            KAFKA,
            SERVERS,
            KAFKA_TOPIC,
            "--kafkaProducerProperty=linger.ms=20",
            "--kafkaProducerProperty=batch.size=1048576",
            "--kafkaAuthentication=GOOGLE_OAUTH",
            "--maxEvents=10");
    assertEquals(DatagenOptions.Sink.KAFKA, options.getSink());
    assertEquals(List.of("linger.ms=20", "batch.size=1048576"), options.getKafkaProducerProperty());
    List<String> transforms = transforms(DatagenPipeline.buildPipeline(options));
    assertTrue(transforms.toString(), transforms.contains("PublishToKafka"));
    assertTrue(transforms.toString(), transforms.contains("PublishToKafka/WriteToKafka"));
    assertFalse(transforms.toString(), transforms.contains("PublishToPubSub"));
    assertEquals(DatagenOptions.Sink.PUBSUB, options(TOPIC).getSink());
  }

  @Test
  public void kafkaSinkNeedsItsServersAndTopicAndRefusesThePubSubTopic() {
    assertThat(
        problems(KAFKA),
        allOf(
            containsString("--kafkaBootstrapServers is required with --sink=KAFKA"),
            containsString("--kafkaTopic is required with --sink=KAFKA"),
            not(containsString("--outputTopic is required"))));
    assertThat(
        problems(KAFKA, SERVERS, KAFKA_TOPIC, TOPIC),
        containsString("drop --outputTopic, or use --sink=PUBSUB"));
    assertThat(
        problems(KAFKA, "--kafkaBootstrapServers=broker", "--kafkaTopic=a/b"),
        allOf(containsString("'broker', which is not host:port"), containsString("not a Kafka")));
    // Valid: no Pub/Sub topic needed.
    DatagenPipeline.validate(options(KAFKA, SERVERS, KAFKA_TOPIC));
  }

  @Test
  public void malformedOrReservedProducerPropertiesFailAtLaunch() {
    assertThat(
        problems(KAFKA, SERVERS, KAFKA_TOPIC, "--kafkaProducerProperty=lingerms"),
        containsString("--kafkaProducerProperty=lingerms is not key=value"));
    assertThat(
        problems(KAFKA, SERVERS, KAFKA_TOPIC, "--kafkaProducerProperty=bootstrap.servers=b:9092"),
        containsString("use --kafkaBootstrapServers"));
    assertThat(
        problems(
            KAFKA,
            SERVERS,
            KAFKA_TOPIC,
            "--kafkaAuthentication=GOOGLE_OAUTH",
            "--kafkaProducerProperty=security.protocol=PLAINTEXT"),
        containsString("conflicts with --kafkaAuthentication=GOOGLE_OAUTH"));
    assertThat(
        problems(KAFKA, SERVERS, KAFKA_TOPIC, "--kafkaProducerProperty=max.request.size=big"),
        containsString("--kafkaProducerProperty=max.request.size=big is not a byte count"));
  }

  @Test
  public void kafkaOptionsWithoutTheKafkaSinkAreRefused() {
    assertThat(
        problems(TOPIC, KAFKA_TOPIC),
        containsString("--kafkaTopic is for --sink=KAFKA, and --sink=PUBSUB publishes to"));
    assertThat(
        problems(TOPIC, SERVERS, "--kafkaAuthentication=GOOGLE_OAUTH"),
        containsString(
            "--kafkaBootstrapServers, --kafkaAuthentication are for --sink=KAFKA, and"
                + " --sink=PUBSUB publishes to --outputTopic: add --sink=KAFKA, or drop them"));
  }

  @Test
  public void kafkaMessagesAreBoundedByTheProducersMaxRequestSize() {
    assertEquals(
        DatagenPipeline.MAX_MESSAGE_BYTES, DatagenPipeline.limit(options(TOPIC)).maxBytes());
    assertEquals(
        1_048_576 - 1024, DatagenPipeline.limit(options(KAFKA, SERVERS, KAFKA_TOPIC)).maxBytes());
    assertEquals(
        5_000_000 - 1024,
        DatagenPipeline.limit(
                options(
                    KAFKA,
                    SERVERS,
                    KAFKA_TOPIC,
                    "--kafkaProducerProperty=max.request.size=5000000"))
            .maxBytes());
    // About 2 MB per event: fits a Pub/Sub message, not a default Kafka request.
    String[] big = {
      "--maxCollectionSize=0",
      "--minStringLength=200000",
      "--maxStringLength=200000",
      "--completeObjects=true"
    };
    DatagenPipeline.validate(options(concat(big, TOPIC)));
    assertThat(
        problems(concat(big, KAFKA, SERVERS, KAFKA_TOPIC)),
        allOf(
            containsString("-byte limit for Kafka (the producer's max.request.size of 1048576"),
            containsString("raise --kafkaProducerProperty=max.request.size=BYTES")));
  }

  private static String[] concat(String[] first, String... more) {
    List<String> all = new ArrayList<>(Arrays.asList(first));
    all.addAll(Arrays.asList(more));
    return all.toArray(new String[0]);
  }

  private static List<String> transforms(Pipeline pipeline) {
    List<String> transforms = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            transforms.add(node.getFullName());
            return CompositeBehavior.ENTER_TRANSFORM;
          }
        });
    return transforms;
  }

  private static String problems(String... args) {
    return assertThrows(
            IllegalArgumentException.class, () -> DatagenPipeline.validate(options(args)))
        .getMessage();
  }

  private static DatagenOptions options(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add(NOOP_CREDENTIALS);
    all.add("--project=my-project");
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(DatagenOptions.class);
  }
}
