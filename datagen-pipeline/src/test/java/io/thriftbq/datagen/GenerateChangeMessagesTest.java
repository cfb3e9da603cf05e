package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.EventAttributes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** The generator job's change stream: the same messages as the stream, and its launch checks. */
@RunWith(JUnit4.class)
public class GenerateChangeMessagesTest {
  private static final String TOPIC = "--outputTopic=projects/my-project/topics/changes";
  private static final String NOOP_CREDENTIALS =
      "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory";

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final transient TemporaryFolder folder = new TemporaryFolder();

  private static final String[] CHANGES = {
    TOPIC,
    "--thriftIdl=" + ChangeStreamTest.SHOP_IDL,
    "--thriftStructs=Order,Refund",
    "--primaryKey=Order=order_id;Refund=refund_id",
    "--changeType=attribute:op",
    "--changeSequence=field:created_at_ms",
    "--changeKeys=40",
    "--changeDeleteRatio=0.1",
    "--changeDuplicateRatio=0.1",
    "--changeReorderRatio=0.1",
    "--maxEvents=300",
    "--seed=5"
  };

  private static DatagenOptions options(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add(NOOP_CREDENTIALS);
    all.add("--project=my-project");
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(DatagenOptions.class);
  }

  /** A message as a comparable string: payload and attributes, without the creation time. */
  private static String describe(byte[] payload, Map<String, String> attributes) {
    Map<String, String> kept = new HashMap<>(attributes);
    kept.remove(EventAttributes.EVENT_TIME_MS);
    return Base64.getEncoder().encodeToString(payload) + " " + new java.util.TreeMap<>(kept);
  }

  @Test
  public void theJobPublishesTheStreamsMessages() {
    DatagenOptions options = options(CHANGES);
    GeneratorConfig config = DatagenPipeline.validate(options);
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, new ArrayList<>());
    ChangeStream stream = new ChangeStream(config, change);
    List<String> expected = new ArrayList<>();
    for (int n = 0; n < 300; n++) {
      ChangeStream.Message message = stream.next();
      expected.add(describe(message.payload(), message.attributes()));
    }
    PCollection<PubsubMessage> messages =
        pipeline.apply(
            new GenerateChangeMessages(
                config, change, RatePlan.of(0, 1, 300), MessageLimit.PUBSUB));
    PAssert.that(messages)
        .satisfies(
            all -> {
              List<String> actual = new ArrayList<>();
              for (PubsubMessage message : all) {
                assertTrue(message.getAttributeMap().containsKey(EventAttributes.EVENT_TIME_MS));
                actual.add(describe(message.getPayload(), message.getAttributeMap()));
              }
              actual.sort(null);
              List<String> sorted = new ArrayList<>(expected);
              sorted.sort(null);
              assertEquals(sorted, actual);
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    assertEquals(300, GenerateMessagesTest.counter(result, "messages_published"));
    long kinds = 0;
    for (ChangeStream.Kind kind : ChangeStream.Kind.values()) {
      kinds +=
          GenerateMessagesTest.counter(
              result, "changes_" + kind.name().toLowerCase(java.util.Locale.ROOT));
    }
    assertEquals(300, kinds);
  }

  @Test
  public void buildingTheJobWritesTheExpectedState() throws Exception {
    Path file = folder.getRoot().toPath().resolve("state/expected.jsonl");
    DatagenOptions options = options(CHANGES);
    options.setExpectedStateFile(file.toString());
    DatagenPipeline.buildPipeline(options);
    ExpectedState read = ExpectedState.read(file);
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, new ArrayList<>());
    ExpectedState computed =
        new ChangeStream(GeneratorConfig.fromOptions(options), change).expectedState(300);
    assertEquals(computed.entries().size(), read.entries().size());
    assertEquals(80, read.entries().size());
    for (int i = 0; i < read.entries().size(); i++) {
      assertEquals(
          ExpectedState.toJson(computed.entries().get(i)),
          ExpectedState.toJson(read.entries().get(i)));
    }
  }

  private static String problems(String... args) {
    return assertThrows(
            IllegalArgumentException.class, () -> DatagenPipeline.validate(options(args)))
        .getMessage();
  }

  @Test
  public void invalidCombinationsFailAtLaunchNamingTheFlag() {
    List<String> base = new ArrayList<>(Arrays.asList(CHANGES));
    base.remove("--maxEvents=300");
    assertThat(
        problems(base.toArray(new String[0])),
        containsString("whose expected final state needs a bounded run: set --maxEvents"));
    List<String> batched = new ArrayList<>(Arrays.asList(CHANGES));
    batched.add("--maxRecordsPerBatch=10");
    assertThat(
        problems(batched.toArray(new String[0])), containsString("use --maxRecordsPerBatch=1"));
    assertThat(
        problems(TOPIC, "--changeKeys=5", "--changeReorderRatio=0.1"),
        containsString(
            "--changeKeys, --changeReorderRatio are for change streams, which --primaryKey turns"
                + " on"));
    List<String> kafkaOffset = new ArrayList<>(Arrays.asList(CHANGES));
    kafkaOffset.set(5, "--changeSequence=KAFKA_OFFSET");
    kafkaOffset.set(9, "--changeReorderRatio=0");
    assertThat(
        problems(kafkaOffset.toArray(new String[0])),
        containsString("--changeSequence=KAFKA_OFFSET is a Kafka record's offset"));
    List<String> missing = new ArrayList<>(Arrays.asList(CHANGES));
    missing.set(3, "--primaryKey=Order=order_id");
    assertThat(
        problems(missing.toArray(new String[0])),
        containsString("--primaryKey gives no key for struct Refund"));
  }
}
