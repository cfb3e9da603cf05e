package io.thriftbq.ingest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.deadletter.PayloadEncoding;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import io.thriftbq.sample.Device;
import io.thriftbq.sample.Platform;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.thrift.protocol.TType;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every kind of bad input lands in the dead letters with the right stage and its original bytes,
 * and the counts reconcile: events_read = rows_to_bigquery + failed before the sink, and rows
 * written = rows_to_bigquery - failed_write. Runs once per write method (each with another format,
 * so that each rejected-row path is covered).
 */
@RunWith(Parameterized.class)
public class BadInputTest {
  private static final int GOOD = 5;
  private static final int REJECTED = 12; // a valid event BigQuery refuses

  @Parameters(name = "{0} {1}")
  public static Collection<Object[]> cases() {
    return List.of(
        new Object[] {WriteMethod.STREAMING_INSERTS, StorageFormat.AVRO_GENERIC_RECORD},
        new Object[] {WriteMethod.STORAGE_WRITE_API, StorageFormat.BEAM_ROW},
        new Object[] {WriteMethod.STORAGE_API_AT_LEAST_ONCE, StorageFormat.TABLE_ROW});
  }

  private final WriteMethod method;
  private final StorageFormat format;

  public BadInputTest(WriteMethod method, StorageFormat format) {
    this.method = method;
    this.format = format;
  }

  @Test
  public void badInputIsDeadLetteredWithItsStageAndCountsReconcile() {
    String rejectedId = TestData.event(REJECTED).getEvent_id();
    FakeBigQuery fake = FakeBigQuery.rejecting(row -> rejectedId.equals(row.get("event_id")));
    IngestionOptions options =
        TestOptions.create(
            fake,
            format,
            method,
            "--includePubsubMessageId=true",
            "--includePublishTime=true",
            "--includeAttributes=true");

    Map<Integer, byte[]> bad = new HashMap<>();
    byte[] good = TestData.bytes(5);
    bad.put(5, Arrays.copyOf(good, good.length / 2)); // truncated
    byte[] random = new byte[300];
    new Random(7).nextBytes(random);
    bad.put(6, random);
    bad.put(7, TestData.serialize(new Device(Platform.IOS).setModel("another struct")));
    bad.put(8, new byte[0]);
    bad.put(9, hugeList());
    bad.put(10, hugeString());

    List<TimestampedValue<PubsubMessage>> messages = new ArrayList<>();
    for (int i = 0; i < GOOD; i++) {
      messages.add(TestData.published(TestData.message(i), i));
    }
    bad.forEach((i, payload) -> messages.add(TestData.published(TestData.message(i, payload), i)));
    Map<String, String> corruptEnvelope = EventEnvelope.envelopeAttributes(3);
    corruptEnvelope.putAll(TestData.attributes(11));
    byte[] corrupt = "not a zlib stream".getBytes(StandardCharsets.UTF_8);
    messages.add(
        TestData.published(
            new PubsubMessage(corrupt, corruptEnvelope, TestData.messageId(11)), 11));
    messages.add(TestData.published(TestData.message(REJECTED), REJECTED));
    // A valid envelope of events 13, 14, 15 among the bad ones.
    Map<String, String> envelopeAttributes = EventEnvelope.envelopeAttributes(3);
    envelopeAttributes.putAll(TestData.attributes(13));
    byte[] envelope =
        EventEnvelope.pack(List.of(TestData.bytes(13), TestData.bytes(14), TestData.bytes(15)));
    messages.add(
        TestData.published(
            new PubsubMessage(envelope, envelopeAttributes, TestData.messageId(13)), 13));

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
              assertDeadLetters(letters, bad, corrupt, rejectedId);
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    Metrics metrics = new Metrics(result);
    assertEquals(16, metrics.counter(IngestionMetrics.EVENTS_READ));
    assertEquals(14, metrics.counter(IngestionMetrics.MESSAGES_READ));
    assertEquals(6, metrics.failed(Stage.DECODE));
    assertEquals(1, metrics.failed(Stage.UNPACK));
    assertEquals(1, metrics.failed(Stage.WRITE));
    List<TableRow> written = fake.eventRows();
    metrics.assertCountsReconcile(written.size());
    assertEquals(GOOD + 3, written.size());
    assertEquals(9, metrics.latencySamples());

    // The dead-letter table holds all of them, with the stage column set.
    List<TableRow> deadLetterRows = fake.deadLetterRows();
    assertEquals(8, deadLetterRows.size());
    Map<String, Integer> byStage = new HashMap<>();
    for (TableRow row : deadLetterRows) {
      byStage.merge((String) row.get(DeadLetterSchema.STAGE), 1, Integer::sum);
      assertEquals(fake.eventsSpec(), row.get(DeadLetterSchema.EVENT_TABLE));
    }
    assertEquals(Map.of("DECODE", 6, "UNPACK", 1, "WRITE", 1), byStage);
    assertEquals(6, metrics.deadLettered(Stage.DECODE));
  }

  private static void assertDeadLetters(
      Iterable<DeadLetter> letters, Map<Integer, byte[]> bad, byte[] corrupt, String rejectedId) {
    Map<Stage, Integer> stages = new EnumMap<>(Stage.class);
    for (DeadLetter letter : letters) {
      stages.merge(letter.stage(), 1, Integer::sum);
      assertNotNull(letter.messageId());
      int sequence = Integer.parseInt(letter.messageId().substring("msg-".length()));
      assertEquals(TestData.publishTime(sequence), letter.publishTime());
      assertEquals(Integer.toString(sequence), letter.attributes().get("event_id"));
      switch (letter.stage()) {
        case DECODE -> {
          assertEquals(PayloadEncoding.THRIFT, letter.payloadEncoding());
          assertArrayEquals("raw bytes kept", bad.get(sequence), letter.payload());
          assertThat(letter.errorMessage(), containsString("Exception"));
        }
        case UNPACK -> {
          assertEquals(PayloadEncoding.ENVELOPE, letter.payloadEncoding());
          assertArrayEquals(corrupt, letter.payload());
          assertThat(letter.errorMessage(), startsWith("io.thriftbq.codec.EnvelopeException"));
        }
        case WRITE -> {
          assertEquals(REJECTED, sequence);
          assertEquals(PayloadEncoding.BIGQUERY_ROW_JSON, letter.payloadEncoding());
          String json = new String(letter.payload(), StandardCharsets.UTF_8);
          assertThat(json, containsString(rejectedId));
        }
        default -> throw new AssertionError("unexpected stage " + letter);
      }
    }
    assertEquals(Map.of(Stage.DECODE, 6, Stage.UNPACK, 1, Stage.WRITE, 1), stages);
  }

  /** Field 6 (products, a list of structs) declaring 2^31-1 elements, then nothing. */
  private static byte[] hugeList() {
    return ByteBuffer.allocate(16)
        .put(TType.LIST)
        .putShort((short) 6)
        .put(TType.STRUCT)
        .putInt(Integer.MAX_VALUE)
        .array();
  }

  /** Field 1 (event_id, a string) declaring 2 GB of characters, then a few. */
  private static byte[] hugeString() {
    return ByteBuffer.allocate(16)
        .put(TType.STRING)
        .putShort((short) 1)
        .putInt(Integer.MAX_VALUE - 8)
        .put("abc".getBytes(StandardCharsets.US_ASCII))
        .array();
  }
}
