package io.thriftbq.ingest.read;

import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.GenerateMessages;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.datagen.RatePlan;
import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.Metrics;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import io.thriftbq.sample.Event;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Test;

/**
 * Cross-module: the data generator's enveloped messages (its own transform, not a test copy of the
 * format) are unpacked by the ingestion pipeline, and every event lands once with its own id.
 */
public class EnvelopeFromGeneratorTest {
  private static final int EVENTS = 10;
  private static final int BATCH = 4; // 3 envelopes: 4 + 4 + 2 events

  @Test
  public void generatorEnvelopesAreUnpackedIntoOneRowPerEvent() {
    FakeBigQuery fake = FakeBigQuery.create();
    IngestionOptions options =
        TestOptions.create(
            fake,
            StorageFormat.AVRO_GENERIC_RECORD,
            WriteMethod.STORAGE_API_AT_LEAST_ONCE,
            "--includeAttributes=true");
    Pipeline pipeline = Pipeline.create(options);
    PCollection<DeadLetter> deadLetters =
        IngestionPipeline.ingest(
            pipeline.apply(
                "Generate",
                new GenerateMessages(TestData.generatorConfig(), RatePlan.of(0, BATCH, EVENTS))),
            options,
            fake.services);
    PAssert.that(deadLetters).empty();
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    RandomEventGenerator generator = TestData.generator();
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < EVENTS; i++) {
      expected.put(((Event) generator.generate(i)).getEvent_id(), Integer.toString(i));
    }
    Map<String, String> actual = new TreeMap<>();
    List<TableRow> rows = fake.eventRows();
    for (TableRow row : rows) {
      String eventIdAttribute = null;
      for (Object entry : (List<?>) row.get("_attributes")) {
        Map<?, ?> attribute = (Map<?, ?>) entry;
        if (EventAttributes.EVENT_ID.equals(attribute.get("key"))) {
          eventIdAttribute = (String) attribute.get("value");
        }
        assertEquals(
            "envelope markers are not copied to the events",
            false,
            "thriftbq_envelope".equals(attribute.get("key")));
      }
      actual.put((String) row.get("event_id"), eventIdAttribute);
    }
    assertEquals("each event once, with its own event_id attribute", expected, actual);

    Metrics metrics = new Metrics(result);
    assertEquals(3, metrics.counter(IngestionMetrics.MESSAGES_READ));
    assertEquals(3, metrics.counter(IngestionMetrics.ENVELOPES_UNPACKED));
    assertEquals(EVENTS, metrics.counter(IngestionMetrics.EVENTS_READ));
    assertEquals(EVENTS, metrics.counter(IngestionMetrics.ROWS_TO_BIGQUERY));
  }
}
