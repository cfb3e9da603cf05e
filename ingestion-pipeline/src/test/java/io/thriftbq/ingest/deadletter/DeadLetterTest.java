package io.thriftbq.ingest.deadletter;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.CoderProperties;
import org.joda.time.Instant;
import org.junit.Test;

public class DeadLetterTest {
  private static final DeadLetter FULL =
      new DeadLetter(
          new byte[] {1, 2, 3},
          PayloadEncoding.THRIFT,
          Stage.DECODE,
          "org.apache.thrift.TException: bad",
          EventMetadata.of(
              "msg-1", Instant.parse("2024-05-01T12:00:00.123Z"), Map.of("b", "2", "a", "1"), null),
          Instant.parse("2024-05-01T12:00:01Z"),
          "p:d.events_order",
          "Order");

  private static final DeadLetter SPARSE =
      new DeadLetter(
          new byte[0],
          PayloadEncoding.BIGQUERY_ROW_JSON,
          Stage.WRITE,
          "x",
          EventMetadata.of(null, null, Map.of(), null),
          Instant.EPOCH,
          "p:d.events",
          "");

  private static final DeadLetter FROM_KAFKA =
      withKafka(SPARSE, new KafkaOrigin("orders", 3, 1234567890123L, new byte[] {9, 8}));

  private static DeadLetter withKafka(DeadLetter letter, KafkaOrigin kafka) {
    return new DeadLetter(
        letter.payload(),
        letter.payloadEncoding(),
        letter.stage(),
        letter.errorMessage(),
        EventMetadata.of(letter.messageId(), letter.publishTime(), letter.attributes(), kafka),
        letter.failedAt(),
        letter.eventTable(),
        letter.eventStruct());
  }

  @Test
  public void coderRoundTripsEveryField() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(DeadLetterCoder.of(), FULL);
    CoderProperties.coderDecodeEncodeEqual(DeadLetterCoder.of(), SPARSE);
    CoderProperties.coderDecodeEncodeEqual(DeadLetterCoder.of(), FROM_KAFKA);
    CoderProperties.coderDecodeEncodeEqual(
        DeadLetterCoder.of(), withKafka(FULL, new KafkaOrigin("t", 0, 0, null)));
  }

  @Test
  public void kafkaOriginFillsItsColumns() {
    TableRow row = DeadLetterSchema.toTableRow(FROM_KAFKA);
    assertEquals("orders", row.get(DeadLetterSchema.KAFKA_TOPIC));
    assertEquals(3L, row.get(DeadLetterSchema.KAFKA_PARTITION));
    assertEquals(1234567890123L, row.get(DeadLetterSchema.KAFKA_OFFSET));
    assertEquals("CQg=", row.get(DeadLetterSchema.KAFKA_KEY));
    TableRow pubsub = DeadLetterSchema.toTableRow(FULL);
    assertFalse(pubsub.containsKey(DeadLetterSchema.KAFKA_TOPIC));
    assertFalse(pubsub.containsKey(DeadLetterSchema.KAFKA_OFFSET));
    assertNotEquals(FROM_KAFKA, SPARSE);
  }

  @Test
  public void equalityComparesPayloadBytes() {
    DeadLetter copy =
        new DeadLetter(
            new byte[] {1, 2, 3},
            FULL.payloadEncoding(),
            FULL.stage(),
            FULL.errorMessage(),
            EventMetadata.of(FULL.messageId(), FULL.publishTime(), FULL.attributes(), null),
            FULL.failedAt(),
            FULL.eventTable(),
            FULL.eventStruct());
    assertEquals(FULL, copy);
    assertNotEquals(
        FULL,
        new DeadLetter(
            new byte[] {1, 2, 4},
            FULL.payloadEncoding(),
            FULL.stage(),
            FULL.errorMessage(),
            EventMetadata.of(FULL.messageId(), FULL.publishTime(), FULL.attributes(), null),
            FULL.failedAt(),
            FULL.eventTable(),
            FULL.eventStruct()));
  }

  @Test
  public void schemaHasExactlyTheDocumentedColumns() {
    List<String> columns = new ArrayList<>();
    for (TableFieldSchema field : DeadLetterSchema.tableSchema().getFields()) {
      columns.add(field.getName() + " " + field.getType() + " " + field.getMode());
    }
    assertEquals(
        List.of(
            "payload BYTES NULLABLE",
            "payload_format STRING NULLABLE",
            "stage STRING NULLABLE",
            "error_message STRING NULLABLE",
            "message_id STRING NULLABLE",
            "publish_time TIMESTAMP NULLABLE",
            "attributes RECORD REPEATED",
            "failed_at TIMESTAMP NULLABLE",
            "event_table STRING NULLABLE",
            "struct STRING NULLABLE",
            "kafka_topic STRING NULLABLE",
            "kafka_partition INT64 NULLABLE",
            "kafka_offset INT64 NULLABLE",
            "kafka_key BYTES NULLABLE"),
        columns);
  }

  @Test
  public void rowCarriesEveryField() {
    TableRow row = DeadLetterSchema.toTableRow(FULL);
    assertEquals(Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}), row.get("payload"));
    assertEquals("THRIFT", row.get("payload_format"));
    assertEquals("DECODE", row.get("stage"));
    assertEquals("msg-1", row.get("message_id"));
    assertEquals("2024-05-01T12:00:00.123Z", row.get("publish_time"));
    assertEquals("2024-05-01T12:00:01Z", row.get("failed_at"));
    assertEquals(
        List.of(
            new TableRow().set("key", "a").set("value", "1"),
            new TableRow().set("key", "b").set("value", "2")),
        row.get("attributes"));
    assertEquals("p:d.events_order", row.get("event_table"));
    assertEquals("Order", row.get("struct"));
    assertEquals(null, DeadLetterSchema.toTableRow(SPARSE).get("publish_time"));
    assertEquals(null, DeadLetterSchema.toTableRow(SPARSE).get("struct"));
  }

  @Test
  public void theDefaultDeadLetterTableLeavesTheStructPlaceholderOut() {
    assertEquals("p:d.events_dead_letter", DeadLetterTables.resolve(null, "p:d.events"));
    assertEquals("p:d.events_dead_letter", DeadLetterTables.resolve(" ", "p:d.events_{struct}"));
    assertEquals("d.events_dead_letter", DeadLetterTables.resolve(null, "d.{struct}_events"));
    assertEquals("p.d.raw_v1_dead_letter", DeadLetterTables.resolve(null, "p.d.raw_{struct}_v1"));
    assertEquals("p:d.events_dead_letter", DeadLetterTables.resolve(null, "p:d.{struct}"));
    assertEquals("p:d.dl", DeadLetterTables.resolve("p:d.dl", "p:d.events_{struct}"));
  }

  @Test
  public void describeNamesTheExceptionAndItsCauses() throws IOException {
    String text = DeadLetter.describe(new IllegalStateException("outer", new IOException("inner")));
    assertEquals(
        "java.lang.IllegalStateException: outer; caused by java.io.IOException: inner", text);
    assertThat(
        DeadLetter.describe(new RuntimeException("x".repeat(10_000))),
        startsWith("java.lang.RuntimeException: xxx"));
    assertEquals(
        DeadLetter.MAX_ERROR_CHARS,
        DeadLetter.describe(new RuntimeException("x".repeat(10_000))).length());
  }
}
