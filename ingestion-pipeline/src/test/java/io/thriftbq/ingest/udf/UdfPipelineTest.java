package io.thriftbq.ingest.udf;

import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.PayloadEncoding;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.EventType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Rule;
import org.junit.Test;

/**
 * The user function's contract end to end: a changed event is written, null filters (counted, not
 * dead-lettered), a throw or a wrong return type is a TRANSFORM dead letter, and an event the
 * function left invalid is a CONVERT dead letter, each with the original bytes.
 */
public class UdfPipelineTest {
  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static final String[] IDS = {
    "keep-1", "keep-2", "drop-1", "throw-1", "wrong-1", "clear-1"
  };

  @Test
  public void userFunctionOutcomesReconcile() {
    FakeBigQuery fake = FakeBigQuery.create();
    IngestionOptions options = pipeline.getOptions().as(IngestionOptions.class);
    options.setProject(FakeBigQuery.PROJECT);
    options.setOutputTable(fake.eventsSpec());
    options.setThriftClassName(TestData.EVENT_CLASS);
    options.setFormatToStore(StorageFormat.TABLE_ROW);
    options.setBigQueryWriteMethod(WriteMethod.STORAGE_API_AT_LEAST_ONCE);
    options.setUdfClassName(ScriptedUdf.class.getName());

    Map<String, byte[]> payloads = new TreeMap<>();
    List<PubsubMessage> messages = new ArrayList<>();
    for (int i = 0; i < IDS.length; i++) {
      Event event =
          new Event(IDS[i], EventType.CLICK, 1_714_564_800_000L + i).setUser_id("user-" + i);
      byte[] payload = TestData.serialize(event);
      payloads.put(IDS[i], payload);
      messages.add(TestData.message(i, payload));
    }

    PCollection<DeadLetter> deadLetters =
        IngestionPipeline.ingest(
            pipeline.apply(
                Create.of(messages).withCoder(PubsubMessageWithAttributesAndMessageIdCoder.of())),
            options,
            fake.services);
    PAssert.that(deadLetters)
        .satisfies(
            letters -> {
              Map<Stage, List<String>> byStage = new EnumMap<>(Stage.class);
              for (DeadLetter letter : letters) {
                assertEquals(PayloadEncoding.THRIFT, letter.payloadEncoding());
                int index = Integer.parseInt(letter.messageId().substring("msg-".length()));
                assertEquals(
                    "original bytes",
                    java.util.Arrays.toString(payloads.get(IDS[index])),
                    java.util.Arrays.toString(letter.payload()));
                byStage.computeIfAbsent(letter.stage(), s -> new ArrayList<>()).add(IDS[index]);
              }
              byStage.values().forEach(ids -> ids.sort(null));
              assertEquals(
                  Map.of(
                      Stage.TRANSFORM, List.of("throw-1", "wrong-1"),
                      Stage.CONVERT, List.of("clear-1")),
                  byStage);
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    Map<String, Object> userIds = new TreeMap<>();
    for (TableRow row : fake.eventRows()) {
      userIds.put((String) row.get("event_id"), row.get("user_id"));
    }
    assertEquals(Map.of("keep-1", "USER-0", "keep-2", "USER-1"), userIds);

    Metrics metrics = new Metrics(result);
    assertEquals(1, metrics.counter(IngestionMetrics.FILTERED));
    assertEquals(2, metrics.failed(Stage.TRANSFORM));
    assertEquals(1, metrics.failed(Stage.CONVERT));
    assertEquals(
        metrics.counter(IngestionMetrics.EVENTS_READ),
        metrics.counter(IngestionMetrics.ROWS_TO_BIGQUERY)
            + metrics.failedBeforeSink()
            + metrics.counter(IngestionMetrics.FILTERED));
  }
}
