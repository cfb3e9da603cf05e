package io.thriftbq.ingest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.read.EventMessageCoder;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.RowNormalizer;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.ingest.testing.TestOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Messages read from Kafka, through the whole pipeline after the read, with every format and write
 * method against Beam's fake BigQuery: every Kafka metadata column holds the record's topic,
 * partition, offset, key, timestamp and headers, the four formats land the same rows, and a
 * malformed record's dead letter names its topic, partition and offset beside its raw bytes.
 */
@RunWith(Parameterized.class)
public class KafkaOriginPipelineTest {
  private static final int EVENTS = 8;
  private static final String TOPIC = "shop.events-v1";
  private static final Instant RECORD_TIME = Instant.parse("2026-11-26T10:00:00.250Z");
  private static final byte[] MALFORMED = {(byte) 0xff, 0x00, 0x13, 0x37};

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    List<Object[]> cases = new ArrayList<>();
    for (WriteMethod method : WriteMethod.values()) {
      cases.add(new Object[] {method});
    }
    return cases;
  }

  private final WriteMethod method;

  public KafkaOriginPipelineTest(WriteMethod method) {
    this.method = method;
  }

  @Test
  public void everyFormatLandsTheRecordsMetadataAndDeadLettersKeepTheirOrigin() {
    TableSchema schema =
        EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.ALL_KAFKA).tableSchema();
    Map<StorageFormat, List<Map<String, Object>>> rowsByFormat = new EnumMap<>(StorageFormat.class);
    for (StorageFormat format : StorageFormat.values()) {
      FakeBigQuery fake = FakeBigQuery.create();
      IngestionOptions options =
          TestOptions.create(
              fake,
              format,
              method,
              "--source=KAFKA",
              "--includeKafkaTopic=true",
              "--includeKafkaPartition=true",
              "--includeKafkaOffset=true",
              "--includeKafkaKey=true",
              "--includeKafkaTimestamp=true",
              "--includeKafkaHeaders=true");
      Pipeline pipeline = Pipeline.create(options);
      IngestionPipeline.ingestMessages(
          pipeline.apply(Create.timestamped(records()).withCoder(EventMessageCoder.of())),
          options,
          fake.services);
      pipeline.run().waitUntilFinish();

      List<Map<String, Object>> rows = new ArrayList<>();
      for (TableRow row : fake.eventRows()) {
        rows.add(RowNormalizer.normalize(row, schema));
      }
      rows.sort(Comparator.comparing(row -> (Long) row.get("_kafka_offset")));
      assertEquals(format + ": one row per event", EVENTS, rows.size());
      for (int i = 0; i < EVENTS; i++) {
        assertRowHasItsRecord(format, i, rows.get(i));
      }
      rowsByFormat.put(format, rows);

      List<TableRow> deadLetters = fake.deadLetterRows();
      assertEquals(format + ": the malformed record is dead-lettered", 1, deadLetters.size());
      TableRow deadLetter = deadLetters.get(0);
      assertEquals(TOPIC, deadLetter.get(DeadLetterSchema.KAFKA_TOPIC));
      assertEquals("1", String.valueOf(deadLetter.get(DeadLetterSchema.KAFKA_PARTITION)));
      assertEquals(
          String.valueOf(EVENTS + 1000L),
          String.valueOf(deadLetter.get(DeadLetterSchema.KAFKA_OFFSET)));
      assertEquals(
          Base64.getEncoder().encodeToString(MALFORMED),
          deadLetter.get(DeadLetterSchema.PAYLOAD).toString());
      assertEquals("DECODE", deadLetter.get(DeadLetterSchema.STAGE));
      assertNull("no Pub/Sub message id", deadLetter.get(DeadLetterSchema.MESSAGE_ID));
    }
    for (StorageFormat format : StorageFormat.values()) {
      assertEquals(
          format + " lands the same rows as TABLE_ROW",
          rowsByFormat.get(StorageFormat.TABLE_ROW),
          rowsByFormat.get(format));
    }
  }

  private static void assertRowHasItsRecord(StorageFormat format, int i, Map<String, Object> row) {
    String where = format + " record " + i;
    assertEquals(where, TestData.event(i).getEvent_id(), row.get("event_id"));
    assertEquals(where, TOPIC, row.get(MetadataColumn.KAFKA_TOPIC.columnName()));
    assertEquals(where, (long) partition(i), row.get(MetadataColumn.KAFKA_PARTITION.columnName()));
    assertEquals(where, offset(i), row.get(MetadataColumn.KAFKA_OFFSET.columnName()));
    if (key(i) == null) {
      assertFalse(where + " has no key", row.containsKey(MetadataColumn.KAFKA_KEY.columnName()));
    } else {
      assertEquals(
          where,
          Base64.getEncoder().encodeToString(key(i)),
          row.get(MetadataColumn.KAFKA_KEY.columnName()));
    }
    assertEquals(
        where, time(i).getMillis() * 1000, row.get(MetadataColumn.KAFKA_TIMESTAMP.columnName()));
    List<String> headers = new ArrayList<>();
    for (Object entry : (List<?>) row.get(MetadataColumn.KAFKA_HEADERS.columnName())) {
      headers.add(((Map<?, ?>) entry).get("key") + "=" + ((Map<?, ?>) entry).get("value"));
    }
    List<String> expected = new ArrayList<>();
    headers(i).entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> expected.add(e.getKey() + "=" + e.getValue()));
    assertEquals(where + " headers, sorted by key", expected, headers);
    assertTrue(where, !row.containsKey(MetadataColumn.MESSAGE_ID.columnName()));
  }

  private static List<TimestampedValue<EventMessage>> records() {
    List<TimestampedValue<EventMessage>> records = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      records.add(
          TimestampedValue.of(
              new EventMessage(
                  TestData.bytes(i),
                  headers(i),
                  null,
                  new KafkaOrigin(TOPIC, partition(i), offset(i), key(i))),
              time(i)));
    }
    records.add(
        TimestampedValue.of(
            new EventMessage(
                MALFORMED, Map.of(), null, new KafkaOrigin(TOPIC, 1, EVENTS + 1000L, null)),
            RECORD_TIME));
    return records;
  }

  private static int partition(int i) {
    return i % 3;
  }

  private static long offset(int i) {
    return 40_000_000_000L + i;
  }

  private static byte[] key(int i) {
    return i % 4 == 3 ? null : ("user-" + i).getBytes(StandardCharsets.UTF_8);
  }

  private static Instant time(int i) {
    return RECORD_TIME.plus(i * 1_001L);
  }

  private static Map<String, String> headers(int i) {
    Map<String, String> headers = new LinkedHashMap<>(TestData.attributes(i));
    headers.put("trace", "zz-" + i);
    return headers;
  }
}
