package io.thriftbq.ingest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import io.thriftbq.sample.Event;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Change mode end to end on Beam's fake BigQuery, which applies upserts and deletes by the table's
 * primary key and sequence numbers: in every format, a stream with updates, a late older change, a
 * delete and a redelivered duplicate leaves one row per live key, its newest version; events that
 * make no change are CHANGE dead letters; the four formats leave the same table.
 */
@RunWith(Parameterized.class)
public class ChangeModePipelineTest {

  @Parameters(name = "unbounded={0}")
  public static Collection<Object[]> cases() {
    return List.of(new Object[] {false}, new Object[] {true});
  }

  private final boolean unbounded;

  public ChangeModePipelineTest(boolean unbounded) {
    this.unbounded = unbounded;
  }

  /** One change: key, version (the sequence field event_time), change type attribute. */
  private record Step(String key, long version, String op) {}

  private static final List<Step> STREAM =
      List.of(
          new Step("k1", 10, "UPSERT"),
          new Step("k2", 50, "UPSERT"),
          new Step("k1", 20, "UPDATE"), // newer: replaces k1@10
          new Step("k3", 10, "INSERT"),
          new Step("k2", 30, "UPSERT"), // older, arrives later: loses to k2@50
          new Step("k3", 11, "DELETE"), // k3 gone
          new Step("k4", 7, "UPSERT"),
          new Step("k4", 7, "UPSERT"), // a redelivery of the same change
          new Step("k5", 1, "MERGE"), // unknown change type: CHANGE dead letter
          new Step("k6", 1, "")); // no change type attribute: CHANGE dead letter

  @Test
  public void everyFormatLeavesTheNewestVersionOfEveryLiveKey() {
    Map<StorageFormat, Map<String, Long>> tableByFormat = new TreeMap<>();
    for (StorageFormat format : StorageFormat.values()) {
      FakeBigQuery fake = FakeBigQuery.create();
      IngestionOptions options =
          TestOptions.create(
              fake,
              format,
              WriteMethod.STORAGE_API_AT_LEAST_ONCE,
              "--primaryKey=event_id",
              "--changeType=attribute:op",
              "--changeSequence=field:event_time");
      Pipeline pipeline = Pipeline.create(options);
      IngestionPipeline.ingest(
          TestData.input(pipeline, messages(), unbounded), options, fake.services);
      pipeline.run().waitUntilFinish();

      Map<String, Long> versionByKey = new TreeMap<>();
      for (TableRow row : fake.eventRows()) {
        Long previous =
            versionByKey.put(
                (String) row.get("event_id"), Long.parseLong(row.get("event_time").toString()));
        assertEquals(format + ": one row per key", null, previous);
      }
      assertEquals(
          format + ": the newest live versions",
          Map.of("k1", 20L, "k2", 50L, "k4", 7L),
          versionByKey);
      List<TableRow> deadLetters = fake.deadLetterRows();
      assertEquals(format + ": two events make no change", 2, deadLetters.size());
      for (TableRow deadLetter : deadLetters) {
        assertEquals("CHANGE", deadLetter.get("stage"));
        String error = String.valueOf(deadLetter.get("error_message"));
        assertTrue(error, error.contains("change type attribute (or Kafka header) op"));
      }
      tableByFormat.put(format, versionByKey);
    }
    assertEquals(1, new java.util.HashSet<>(tableByFormat.values()).size());
  }

  private static List<TimestampedValue<PubsubMessage>> messages() {
    List<TimestampedValue<PubsubMessage>> messages = new ArrayList<>();
    for (int i = 0; i < STREAM.size(); i++) {
      Step step = STREAM.get(i);
      // Every version of a key has other content, so a stale row would show.
      Event event = TestData.event(step.key().hashCode() * 31 + (int) step.version());
      event.setEvent_id(step.key());
      event.setEvent_time(step.version());
      Map<String, String> attributes = new HashMap<>(TestData.attributes(i));
      if (!step.op().isEmpty()) {
        attributes.put("op", step.op());
      }
      messages.add(
          TestData.published(
              new PubsubMessage(TestData.serialize(event), attributes, TestData.messageId(i)), i));
    }
    return messages;
  }
}
