package io.thriftbq.ingest.write;

import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.deadletter.PayloadEncoding;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Instant;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Dead letters reach their table with either method, and one the dead-letter table itself refuses
 * is counted and handed back, not lost silently.
 */
@RunWith(Parameterized.class)
public class WriteDeadLettersTest {
  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Parameters(name = "{0}")
  public static List<Object[]> methods() {
    return List.of(
        new Object[] {WriteMethod.STREAMING_INSERTS},
        new Object[] {WriteMethod.STORAGE_API_AT_LEAST_ONCE});
  }

  private final WriteMethod method;

  public WriteDeadLettersTest(WriteMethod method) {
    this.method = method;
  }

  private static DeadLetter letter(String messageId, Stage stage) {
    return new DeadLetter(
        messageId.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        PayloadEncoding.THRIFT,
        stage,
        "java.lang.Exception: " + messageId,
        EventMetadata.of(
            messageId, Instant.parse("2024-05-01T12:00:00Z"), Map.of("event_id", messageId), null),
        Instant.parse("2024-05-01T12:00:01Z"),
        "p:d.events",
        "");
  }

  @Test
  public void writesDeadLettersAndCountsTheOnesTheTableRefuses() {
    FakeBigQuery fake = FakeBigQuery.rejecting(row -> "refused".equals(row.get("message_id")));
    PCollection<TableRow> refused =
        pipeline
            .apply(
                Create.of(
                        letter("m-1", Stage.DECODE),
                        letter("m-2", Stage.WRITE),
                        letter("refused", Stage.CONVERT))
                    .withCoder(DeadLetterCoder.of()))
            .apply(
                WriteDeadLetters.to(fake.tableSpec(fake.deadLetters))
                    .withMethod(method)
                    .withTestServices(fake.services));
    PAssert.that(refused)
        .satisfies(
            rows -> {
              int count = 0;
              for (TableRow row : rows) {
                assertEquals("refused", row.get("message_id"));
                count++;
              }
              assertEquals(1, count);
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    List<TableRow> rows = fake.deadLetterRows();
    assertEquals(2, rows.size());
    Metrics metrics = new Metrics(result);
    assertEquals(1, metrics.counter(IngestionMetrics.DEAD_LETTER_WRITE_FAILED));
    assertEquals(1, metrics.deadLettered(Stage.DECODE));
    assertEquals(1, metrics.deadLettered(Stage.CONVERT));
  }
}
