package io.thriftbq.ingest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import io.thriftbq.sample.Event;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The decoding rules of the README's contract, end to end in every format: an unknown enum value is
 * kept as UNKNOWN_n and counted, or dead-lettered when asked; a string that is not UTF-8 is a
 * DECODE dead letter with its raw bytes, or stored with U+FFFD and counted when asked.
 */
@RunWith(Parameterized.class)
public class DecodingRulesPipelineTest {
  private static final int GOOD = 3;
  private static final int UNKNOWN_ENUM = 3;
  private static final int BAD_UTF8 = 4;

  @Parameters(name = "{0}")
  public static Collection<Object[]> formats() {
    List<Object[]> formats = new ArrayList<>();
    for (StorageFormat format : StorageFormat.values()) {
      formats.add(new Object[] {format});
    }
    return formats;
  }

  private final StorageFormat format;

  public DecodingRulesPipelineTest(StorageFormat format) {
    this.format = format;
  }

  private static byte[] badUtf8Event() {
    Event event = TestData.event(BAD_UTF8).setUser_id("@@@@");
    byte[] payload = TestData.serialize(event);
    byte[] marker = "@@@@".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + marker.length <= payload.length; i++) {
      if (payload[i] == '@'
          && payload[i + 1] == '@'
          && payload[i + 2] == '@'
          && payload[i + 3] == '@') {
        payload[i] = (byte) 0xC3; // a truncated two-byte sequence
        payload[i + 1] = 'x';
        return payload;
      }
    }
    throw new AssertionError("marker not found");
  }

  private Result run(String... rules) {
    FakeBigQuery fake = FakeBigQuery.create();
    List<String> args = new ArrayList<>(List.of(rules));
    IngestionOptions options =
        TestOptions.create(
            fake, format, WriteMethod.STORAGE_API_AT_LEAST_ONCE, args.toArray(new String[0]));
    List<TimestampedValue<PubsubMessage>> messages =
        new ArrayList<>(TestData.publishedMessages(GOOD));
    byte[] unknownEnum =
        TestData.serializeWithI32(
            TestData.event(UNKNOWN_ENUM), ThriftProtocol.BINARY, 999, /* event_type */ 2);
    byte[] badUtf8 = badUtf8Event();
    messages.add(TestData.published(TestData.message(UNKNOWN_ENUM, unknownEnum), UNKNOWN_ENUM));
    messages.add(TestData.published(TestData.message(BAD_UTF8, badUtf8), BAD_UTF8));

    Pipeline pipeline = Pipeline.create(options);
    PCollection<DeadLetter> deadLetters =
        IngestionPipeline.ingest(
            pipeline.apply(
                Create.timestamped(messages)
                    .withCoder(PubsubMessageWithAttributesAndMessageIdCoder.of())),
            options,
            fake.services);
    PAssert.that(deadLetters)
        .satisfies(
            letters -> {
              for (DeadLetter letter : letters) {
                assertEquals(Stage.DECODE, letter.stage());
                boolean utf8 = letter.messageId().equals(TestData.messageId(BAD_UTF8));
                assertArrayEquals("raw bytes kept", utf8 ? badUtf8 : unknownEnum, letter.payload());
                assertThat(
                    letter.errorMessage(),
                    containsString(
                        utf8
                            ? "Field 'user_id': string is not valid UTF-8"
                            : "Field 'event_type': enum EventType has no value 999"));
              }
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    return new Result(new Metrics(result), fake.eventRows());
  }

  private record Result(Metrics metrics, List<TableRow> rows) {
    TableRow row(int sequence) {
      String id = TestData.event(sequence).getEvent_id();
      return rows.stream().filter(r -> id.equals(r.get("event_id"))).findFirst().orElse(null);
    }
  }

  @Test
  public void byDefaultUnknownEnumValuesAreKeptAndBadUtf8IsADeadLetter() {
    Result result = run();
    assertEquals(GOOD + 1, result.rows().size());
    assertEquals("UNKNOWN_999", result.row(UNKNOWN_ENUM).get("event_type"));
    assertEquals(null, result.row(BAD_UTF8));
    assertEquals(1, result.metrics().counter(IngestionMetrics.UNKNOWN_ENUM_VALUES));
    assertEquals(0, result.metrics().counter(IngestionMetrics.INVALID_UTF8_REPLACED));
    assertEquals(1, result.metrics().failed(Stage.DECODE));
    result.metrics().assertCountsReconcile(result.rows().size());
  }

  @Test
  public void askedForItUnknownEnumValuesAreDeadLettersAndBadUtf8IsReplaced() {
    Result result = run("--unknownEnumValues=DEAD_LETTER", "--invalidUtf8=REPLACE");
    assertEquals(GOOD + 1, result.rows().size());
    assertEquals(null, result.row(UNKNOWN_ENUM));
    assertThat((String) result.row(BAD_UTF8).get("user_id"), containsString("\uFFFDx"));
    assertEquals(1, result.metrics().counter(IngestionMetrics.UNKNOWN_ENUM_VALUES));
    assertEquals(1, result.metrics().counter(IngestionMetrics.INVALID_UTF8_REPLACED));
    assertEquals(1, result.metrics().failed(Stage.DECODE));
    result.metrics().assertCountsReconcile(result.rows().size());
  }
}
