package io.thriftbq.ingest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.RowNormalizer;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.Product;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every format with every write method, through the whole pipeline after the read, against Beam's
 * fake BigQuery: bounded input, and unbounded input (TestStream) with auto-sharding where the
 * method has a write shuffle. Asserts the rows' contents against the source events, and that the
 * four formats land exactly the same rows.
 *
 * <p>Each case runs four pipelines (one per format) on plain {@link Pipeline}s rather than a
 * TestPipeline rule, because the cross-format comparison needs all four in one test.
 */
@RunWith(Parameterized.class)
public class FormatMethodMatrixTest {
  private static final int EVENTS = 12;

  @Parameters(name = "{0}, unbounded={1}")
  public static Collection<Object[]> cases() {
    List<Object[]> cases = new ArrayList<>();
    for (WriteMethod method : WriteMethod.values()) {
      cases.add(new Object[] {method, false});
      cases.add(new Object[] {method, true});
    }
    return cases;
  }

  private final WriteMethod method;
  private final boolean unbounded;

  public FormatMethodMatrixTest(WriteMethod method, boolean unbounded) {
    this.method = method;
    this.unbounded = unbounded;
  }

  @Test
  public void everyFormatLandsTheSameCorrectRows() {
    TableSchema schema = EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.ALL).tableSchema();
    Map<StorageFormat, List<Map<String, Object>>> rowsByFormat = new EnumMap<>(StorageFormat.class);
    for (StorageFormat format : StorageFormat.values()) {
      FakeBigQuery fake = FakeBigQuery.create();
      IngestionOptions options = TestOptions.create(fake, format, method, args(format));
      Pipeline pipeline = Pipeline.create(options);
      PCollection<DeadLetter> deadLetters =
          IngestionPipeline.ingest(input(pipeline), options, fake.services);
      PAssert.that(deadLetters).empty();
      assertEquals(
          format + ": the rows reach the writer through a hand-off",
          handsOff(),
          TransformNames.anyEndsWith(pipeline, "/HandOff"));
      assertEquals(
          format + ": the hand-off deals the rows to two writers",
          handsOff(),
          TransformNames.anyEndsWith(pipeline, "/Writer2/HandOff"));
      pipeline.run().waitUntilFinish();

      List<Map<String, Object>> rows = new ArrayList<>();
      for (TableRow row : fake.eventRows()) {
        rows.add(RowNormalizer.normalize(row, schema));
      }
      rows.sort(Comparator.comparing(row -> (String) row.get("event_id")));
      assertEquals(format + ": one row per event", EVENTS, rows.size());
      assertRowsMatchEvents(format, rows);
      assertEquals(format + ": no dead letters", 0, fake.deadLetterRows().size());
      rowsByFormat.put(format, rows);
    }
    assertEquals(
        "BEAM_ROW and TABLE_ROW land the same rows",
        rowsByFormat.get(StorageFormat.TABLE_ROW),
        rowsByFormat.get(StorageFormat.BEAM_ROW));
    assertEquals(
        "AVRO_GENERIC_RECORD and TABLE_ROW land the same rows",
        rowsByFormat.get(StorageFormat.TABLE_ROW),
        rowsByFormat.get(StorageFormat.AVRO_GENERIC_RECORD));
    assertEquals(
        "PROTO_MESSAGE and TABLE_ROW land the same rows",
        rowsByFormat.get(StorageFormat.TABLE_ROW),
        rowsByFormat.get(StorageFormat.PROTO_MESSAGE));
  }

  private boolean handsOff() {
    return unbounded && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE;
  }

  private String[] args(StorageFormat format) {
    List<String> args = new ArrayList<>();
    args.add("--includePubsubMessageId=true");
    args.add("--includePublishTime=true");
    args.add("--includeAttributes=true");
    if (unbounded && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      args.add("--enableBigQueryAutoshard=true");
    }
    if (unbounded && method == WriteMethod.STORAGE_WRITE_API) {
      args.add("--storageWriteApiTriggeringFrequencySec=1");
    }
    if (handsOff()) {
      // The rows reach two writers, each through a Reshuffle of its own (local mode's setting
      // for saturation).
      args.add("--handOffBeforeWrite=true");
      args.add("--handOffWriters=2");
    }
    return args.toArray(new String[0]);
  }

  private PCollection<PubsubMessage> input(Pipeline pipeline) {
    return TestData.input(pipeline, TestData.publishedMessages(EVENTS), unbounded);
  }

  /**
   * Checks row contents field by field against the generated events, independently of the
   * converters.
   */
  private static void assertRowsMatchEvents(StorageFormat format, List<Map<String, Object>> rows) {
    Map<String, Integer> sequenceById = new TreeMap<>();
    for (int i = 0; i < EVENTS; i++) {
      sequenceById.put(TestData.event(i).getEvent_id(), i);
    }
    for (Map<String, Object> row : rows) {
      String eventId = (String) row.get("event_id");
      Integer sequence = sequenceById.get(eventId);
      String where = format + " row " + eventId;
      assertEquals(where + " is a generated event", true, sequence != null);
      Event event = TestData.event(sequence);
      assertEquals(where, event.getEvent_type().name(), row.get("event_type"));
      assertEquals(where, event.getEvent_time(), row.get("event_time"));
      assertEquals(where, event.getUser_id(), row.get("user_id"));
      if (event.isSetRevenue()) {
        assertEquals(where, event.getRevenue(), (Double) row.get("revenue"), 0.0);
      }
      if (event.isSetPayload_signature()) {
        assertEquals(
            where,
            Base64.getEncoder().encodeToString(event.getPayload_signature()),
            row.get("payload_signature"));
      }
      if (event.isSetSession()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> session = (Map<String, Object>) row.get("session");
        assertEquals(where, event.getSession().getSession_id(), session.get("session_id"));
      }
      if (event.isSetProducts() && !event.getProducts().isEmpty()) {
        List<String> skus = new ArrayList<>();
        for (Product product : event.getProducts()) {
          skus.add(product.getSku());
        }
        List<String> rowSkus = new ArrayList<>();
        for (Object product : (List<?>) row.get("products")) {
          rowSkus.add((String) ((Map<?, ?>) product).get("sku"));
        }
        assertEquals(where + " products", skus, rowSkus);
      }
      if (event.isSetProperties() && !event.getProperties().isEmpty()) {
        List<String> expected = new ArrayList<>();
        event.getProperties().forEach((k, v) -> expected.add(k + "=" + v));
        List<String> actual = new ArrayList<>();
        for (Object entry : (List<?>) row.get("properties")) {
          actual.add(((Map<?, ?>) entry).get("key") + "=" + ((Map<?, ?>) entry).get("value"));
        }
        assertThat(where + " properties", actual, containsInAnyOrder(expected.toArray()));
      }
      assertEquals(where, TestData.messageId(sequence), row.get(MetadataColumns.MESSAGE_ID));
      assertEquals(
          where,
          TestData.publishTime(sequence).getMillis() * 1000,
          row.get(MetadataColumns.PUBLISH_TIME));
      List<String> attributes = new ArrayList<>();
      for (Object entry : (List<?>) row.get(MetadataColumns.ATTRIBUTES)) {
        attributes.add(((Map<?, ?>) entry).get("key") + "=" + ((Map<?, ?>) entry).get("value"));
      }
      List<String> expectedAttributes = new ArrayList<>();
      TestData.attributes(sequence).forEach((k, v) -> expectedAttributes.add(k + "=" + v));
      assertThat(
          where + " attributes", attributes, containsInAnyOrder(expectedAttributes.toArray()));
    }
  }
}
