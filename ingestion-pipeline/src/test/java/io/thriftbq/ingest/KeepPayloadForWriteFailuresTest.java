package io.thriftbq.ingest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.EventAttributes;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * {@code --keepPayloadForWriteFailures}: with every format and every write method, a row BigQuery
 * rejects is dead-lettered at stage WRITE with the exact Thrift bytes it arrived as, its message
 * id, publish time and attributes, also without metadata columns and for an envelope member; the
 * rows BigQuery accepts land unchanged, and the counts reconcile.
 *
 * <p>Bounded input for every pair, and unbounded input with auto-sharding for the two methods with
 * a write shuffle (where the payload travels through the shuffle), with metadata columns enabled.
 */
@RunWith(Parameterized.class)
public class KeepPayloadForWriteFailuresTest {
  private static final int GOOD = 5; // messages 0..4
  private static final int REJECTED = 5; // a plain message BigQuery refuses
  private static final int BAD = 6; // a payload that does not decode
  private static final int ENVELOPE = 7; // an envelope of events 7, 8, 9; BigQuery refuses 8
  private static final int REJECTED_MEMBER = 8;

  @Parameters(name = "{0} {1} unbounded={2}")
  public static Collection<Object[]> cases() {
    List<Object[]> cases = new ArrayList<>();
    for (WriteMethod method : WriteMethod.values()) {
      for (StorageFormat format : StorageFormat.values()) {
        cases.add(new Object[] {method, format, false});
      }
    }
    cases.add(
        new Object[] {WriteMethod.STREAMING_INSERTS, StorageFormat.AVRO_GENERIC_RECORD, true});
    cases.add(new Object[] {WriteMethod.STORAGE_WRITE_API, StorageFormat.BEAM_ROW, true});
    cases.add(new Object[] {WriteMethod.STORAGE_WRITE_API, StorageFormat.TABLE_ROW, true});
    cases.add(
        new Object[] {WriteMethod.STORAGE_API_AT_LEAST_ONCE, StorageFormat.PROTO_MESSAGE, true});
    return cases;
  }

  private final WriteMethod method;
  private final StorageFormat format;
  private final boolean unbounded;

  public KeepPayloadForWriteFailuresTest(
      WriteMethod method, StorageFormat format, boolean unbounded) {
    this.method = method;
    this.format = format;
    this.unbounded = unbounded;
  }

  @Test
  public void rejectedRowsAreDeadLetteredWithTheirPayloadAndMetadata() {
    Set<String> rejectedIds =
        Set.of(
            TestData.event(REJECTED).getEvent_id(), TestData.event(REJECTED_MEMBER).getEvent_id());
    // Only event rows have an event_id; dead-letter rows go through the same fake.
    FakeBigQuery fake =
        FakeBigQuery.rejecting(
            row -> row.get("event_id") != null && rejectedIds.contains(row.get("event_id")));
    IngestionOptions options = TestOptions.create(fake, format, method, args());

    Pipeline pipeline = Pipeline.create(options);
    PCollection<DeadLetter> deadLetters =
        IngestionPipeline.ingest(input(pipeline), options, fake.services);
    PAssert.that(deadLetters)
        .satisfies(
            letters -> {
              assertDeadLetters(letters);
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    Metrics metrics = new Metrics(result);
    assertEquals(GOOD + 1 + 1 + 3, metrics.counter(IngestionMetrics.EVENTS_READ));
    assertEquals(1, metrics.failed(Stage.DECODE));
    assertEquals(2, metrics.failed(Stage.WRITE));
    List<TableRow> written = fake.eventRows();
    metrics.assertCountsReconcile(written.size());
    assertEquals(GOOD + 2, written.size());
    for (TableRow row : written) {
      assertFalse("accepted rows are event rows", rejectedIds.contains(row.get("event_id")));
      for (String column : row.keySet()) {
        assertFalse("no fail-safe column reaches the table: " + column, column.contains("."));
      }
    }

    // The dead-letter table holds the Thrift bytes too.
    int writeRows = 0;
    for (TableRow row : fake.deadLetterRows()) {
      if (Stage.WRITE.name().equals(row.get(DeadLetterSchema.STAGE))) {
        writeRows++;
        assertEquals(PayloadEncoding.THRIFT.name(), row.get(DeadLetterSchema.PAYLOAD_FORMAT));
        String messageId = (String) row.get(DeadLetterSchema.MESSAGE_ID);
        int sequence = messageId.equals(TestData.messageId(REJECTED)) ? REJECTED : REJECTED_MEMBER;
        assertArrayEquals(
            TestData.bytes(sequence),
            Base64.getDecoder().decode((String) row.get(DeadLetterSchema.PAYLOAD)));
      }
    }
    assertEquals(2, writeRows);
  }

  private String[] args() {
    List<String> args = new ArrayList<>();
    args.add("--keepPayloadForWriteFailures=true");
    if (unbounded) {
      // The payload must not depend on metadata columns, but must not disturb them either.
      args.add("--includePubsubMessageId=true");
      args.add("--includePublishTime=true");
      args.add("--includeAttributes=true");
      if (method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
        args.add("--enableBigQueryAutoshard=true");
      }
      if (method == WriteMethod.STORAGE_WRITE_API) {
        args.add("--storageWriteApiTriggeringFrequencySec=1");
      }
    }
    return args.toArray(new String[0]);
  }

  private PCollection<PubsubMessage> input(Pipeline pipeline) {
    List<TimestampedValue<PubsubMessage>> messages = new ArrayList<>();
    for (int i = 0; i < GOOD; i++) {
      messages.add(TestData.published(TestData.message(i), i));
    }
    messages.add(TestData.published(TestData.message(REJECTED), REJECTED));
    messages.add(TestData.published(TestData.message(BAD, new byte[] {1, 2, 3}), BAD));
    Map<String, String> envelopeAttributes = EventEnvelope.envelopeAttributes(3);
    envelopeAttributes.putAll(TestData.attributes(ENVELOPE));
    byte[] envelope =
        EventEnvelope.pack(
            List.of(
                TestData.bytes(ENVELOPE),
                TestData.bytes(REJECTED_MEMBER),
                TestData.bytes(ENVELOPE + 2)));
    messages.add(
        TestData.published(
            new PubsubMessage(envelope, envelopeAttributes, TestData.messageId(ENVELOPE)),
            ENVELOPE));
    if (!unbounded) {
      return pipeline.apply(
          Create.timestamped(messages)
              .withCoder(PubsubMessageWithAttributesAndMessageIdCoder.of()));
    }
    TestStream.Builder<PubsubMessage> stream =
        TestStream.create(PubsubMessageWithAttributesAndMessageIdCoder.of())
            .advanceWatermarkTo(TestData.PUBLISH_BASE);
    for (TimestampedValue<PubsubMessage> message : messages) {
      stream = stream.addElements(message);
    }
    return pipeline.apply(stream.advanceWatermarkToInfinity());
  }

  private static void assertDeadLetters(Iterable<DeadLetter> letters) {
    Map<Stage, Integer> stages = new HashMap<>();
    Set<String> writeIds = new TreeSet<>();
    for (DeadLetter letter : letters) {
      stages.merge(letter.stage(), 1, Integer::sum);
      if (letter.stage() != Stage.WRITE) {
        continue;
      }
      String where = letter.toString();
      writeIds.add(letter.messageId());
      assertEquals(where, PayloadEncoding.THRIFT, letter.payloadEncoding());
      assertThat(where, letter.errorMessage(), containsString("BigQuery"));
      if (TestData.messageId(REJECTED).equals(letter.messageId())) {
        assertArrayEquals(where, TestData.bytes(REJECTED), letter.payload());
        assertEquals(where, TestData.publishTime(REJECTED), letter.publishTime());
        assertEquals(where, TestData.attributes(REJECTED), letter.attributes());
      } else {
        // Member 1 of the envelope: its own bytes and id, the envelope's time and attributes.
        assertEquals(where, TestData.messageId(ENVELOPE) + "#1", letter.messageId());
        assertArrayEquals(where, TestData.bytes(REJECTED_MEMBER), letter.payload());
        assertEquals(where, TestData.publishTime(ENVELOPE), letter.publishTime());
        Map<String, String> expected = new HashMap<>(TestData.attributes(ENVELOPE));
        expected.put(EventAttributes.EVENT_ID, Integer.toString(REJECTED_MEMBER));
        assertEquals(where, expected, letter.attributes());
      }
      assertEquals(where, true, letter.failedAt().isAfter(Instant.parse("2020-01-01T00:00:00Z")));
    }
    assertEquals(Map.of(Stage.DECODE, 1, Stage.WRITE, 2), stages);
    assertEquals(
        Set.of(TestData.messageId(REJECTED), TestData.messageId(ENVELOPE) + "#1"), writeIds);
  }
}
