package io.thriftbq.ingest;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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
 * Fields from a newer IDL (a producer ahead of the pipeline) are never silently lost: counted in
 * {@code unknown_fields}, and with {@code --keepUnknownFields} the event's bytes are kept in the
 * {@code _unknown_fields} column, in every format.
 */
@RunWith(Parameterized.class)
public class UnknownFieldsPipelineTest {
  private static final int GOOD = 3;
  private static final int NEWER_A = 3;
  private static final int NEWER_B = 4;

  @Parameters(name = "{0}")
  public static Collection<Object[]> formats() {
    return List.of(
        new Object[] {StorageFormat.TABLE_ROW},
        new Object[] {StorageFormat.BEAM_ROW},
        new Object[] {StorageFormat.AVRO_GENERIC_RECORD});
  }

  private final StorageFormat format;

  public UnknownFieldsPipelineTest(StorageFormat format) {
    this.format = format;
  }

  /** The event with a field the IDL does not know (id 200, a string) before its STOP byte. */
  static byte[] withUnknownField(int sequence) {
    byte[] event = TestData.serialize(TestData.event(sequence));
    byte[] value = ("newer-" + sequence).getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(event.length + 7 + value.length);
    out.put(event, 0, event.length - 1); // binary protocol: the last byte is the STOP
    out.put((byte) 11).putShort((short) 200).putInt(value.length).put(value);
    out.put((byte) 0);
    return out.array();
  }

  private record Result(Metrics metrics, List<TableRow> rows) {
    TableRow row(int sequence) {
      String id = TestData.event(sequence).getEvent_id();
      return rows.stream().filter(r -> id.equals(r.get("event_id"))).findFirst().orElseThrow();
    }
  }

  private Result run(String... flags) {
    FakeBigQuery fake = FakeBigQuery.create();
    IngestionOptions options =
        TestOptions.create(fake, format, WriteMethod.STORAGE_API_AT_LEAST_ONCE, flags);
    List<TimestampedValue<PubsubMessage>> messages =
        new ArrayList<>(TestData.publishedMessages(GOOD));
    for (int sequence : new int[] {NEWER_A, NEWER_B}) {
      messages.add(
          TestData.published(TestData.message(sequence, withUnknownField(sequence)), sequence));
    }
    Pipeline pipeline = Pipeline.create(options);
    PCollection<DeadLetter> deadLetters =
        IngestionPipeline.ingest(
            pipeline.apply(
                Create.timestamped(messages)
                    .withCoder(PubsubMessageWithAttributesAndMessageIdCoder.of())),
            options,
            fake.services);
    PAssert.that(deadLetters).empty();
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    return new Result(new Metrics(result), fake.eventRows());
  }

  private static byte[] bytesOf(Object value) {
    return value instanceof byte[] bytes ? bytes : Base64.getDecoder().decode((String) value);
  }

  @Test
  public void unknownFieldsAreCountedAndTheRowIsWritten() {
    Result result = run();
    assertEquals(GOOD + 2, result.rows().size());
    assertEquals(2, result.metrics().counter(IngestionMetrics.UNKNOWN_FIELDS));
    assertFalse(result.row(NEWER_A).containsKey(MetadataColumns.UNKNOWN_FIELDS));
    result.metrics().assertCountsReconcile(result.rows().size());
  }

  @Test
  public void keptUnknownFieldsHoldTheEventsBytes() {
    Result result = run("--keepUnknownFields=true");
    assertEquals(GOOD + 2, result.rows().size());
    assertEquals(2, result.metrics().counter(IngestionMetrics.UNKNOWN_FIELDS));
    for (int sequence : new int[] {NEWER_A, NEWER_B}) {
      assertArrayEquals(
          withUnknownField(sequence),
          bytesOf(result.row(sequence).get(MetadataColumns.UNKNOWN_FIELDS)));
    }
    assertNull(result.row(0).get(MetadataColumns.UNKNOWN_FIELDS));
    result.metrics().assertCountsReconcile(result.rows().size());
  }
}
