package io.thriftbq.ingest.write;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.PayloadEncoding;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.format.FailsafeRow;
import io.thriftbq.ingest.format.RowWithPayload;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.CivilTimeEncoder;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Instant;
import org.junit.Test;

public class FailedRowsTest {
  private static final Instant PUBLISHED = Instant.parse("2024-05-01T12:00:00.123Z");

  @Test
  public void recoversMetadataFromEveryTimestampShape() {
    long micros = PUBLISHED.getMillis() * 1000;
    for (Object shape :
        List.of(
            "2024-05-01T12:00:00.123Z",
            "2024-05-01 12:00:00.123 UTC",
            "2024-05-01 12:00:00.123000",
            "2024-05-01 T12:00:00.123",
            "2024-05-01T14:00:00.123+02:00",
            micros,
            PUBLISHED.getMillis() / 1000.0,
            // Beam's rendering of a Beam-row DATETIME in a failed Storage API row.
            java.time.LocalDateTime.ofEpochSecond(0, 0, java.time.ZoneOffset.UTC)
                .plusNanos(0)
                .toString()
                .replace("1970-01-01T00:00", unpack(micros)))) {
      TableRow row = new TableRow().set(MetadataColumns.PUBLISH_TIME, shape);
      DeadLetter letter =
          new FailedRows.ToDeadLetter(MetadataColumns.ALL, false).apply(row, "rejected");
      assertEquals("shape " + shape, PUBLISHED, letter.publishTime());
    }
  }

  private static String unpack(long micros) {
    return CivilTimeEncoder.decodePacked64DatetimeMicrosAsJavaTime(micros).toString();
  }

  @Test
  public void deadLetterKeepsTheRowAsJsonAndItsMetadata() {
    TableRow row =
        new TableRow()
            .set("event_id", "e-1")
            .set(MetadataColumns.MESSAGE_ID, "msg-1")
            .set(MetadataColumns.PUBLISH_TIME, "2024-05-01T12:00:00.123Z")
            .set(
                MetadataColumns.ATTRIBUTES,
                List.of(new TableRow().set("key", "event_id").set("value", "7")));
    DeadLetter letter =
        new FailedRows.ToDeadLetter(MetadataColumns.ALL, false)
            .apply(row, "BigQueryInsertError: invalid");
    assertEquals(Stage.WRITE, letter.stage());
    assertEquals(PayloadEncoding.BIGQUERY_ROW_JSON, letter.payloadEncoding());
    String json = new String(letter.payload(), StandardCharsets.UTF_8);
    assertEquals(true, json.contains("\"event_id\":\"e-1\""));
    assertEquals("msg-1", letter.messageId());
    assertEquals(PUBLISHED, letter.publishTime());
    assertEquals(Map.of("event_id", "7"), letter.attributes());

    DeadLetter withoutColumns =
        new FailedRows.ToDeadLetter(MetadataColumns.NONE, false).apply(row, "x");
    assertEquals(null, withoutColumns.messageId());
    assertEquals(null, withoutColumns.publishTime());
    assertEquals(Map.of(), withoutColumns.attributes());
  }

  @Test
  public void keptPayloadComesBackFromTheFailsafeRowAfterItsJsonRoundTrip() throws Exception {
    byte[] payload = {0, 1, 2, -1, -128, 127};
    Map<String, String> attributes = Map.of("event_id", "7", "event_time_ms", "123");
    TableRow failsafe =
        FailsafeRow.<TableRow>function()
            .apply(
                new RowWithPayload<>(
                    new TableRow().set("event_id", "e-1"),
                    payload,
                    new EventMetadata("msg-7", PUBLISHED.getMillis(), attributes)));
    // The Storage API paths carry the fail-safe row JSON-encoded.
    TableRow shipped =
        CoderUtils.decodeFromByteArray(
            TableRowJsonCoder.of(), CoderUtils.encodeToByteArray(TableRowJsonCoder.of(), failsafe));

    DeadLetter letter =
        new FailedRows.ToDeadLetter(MetadataColumns.NONE, true)
            .apply(shipped, "BigQueryStorageApiInsertError: bad");
    assertEquals(Stage.WRITE, letter.stage());
    assertEquals(PayloadEncoding.THRIFT, letter.payloadEncoding());
    assertArrayEquals(payload, letter.payload());
    assertEquals("msg-7", letter.messageId());
    assertEquals(PUBLISHED, letter.publishTime());
    assertEquals(attributes, letter.attributes());
    assertEquals("BigQueryStorageApiInsertError: bad", letter.errorMessage());
    // The table is stamped once, where the pipeline gathers its dead letters.
    assertEquals("", letter.eventTable());
    assertEquals("p:d.t", letter.withEventTable("p:d.t").eventTable());
  }

  @Test
  public void keptKafkaRecordComesBackWithItsWholeMetadataRecord() throws Exception {
    EventMetadata metadata =
        new EventMetadata(
            null,
            PUBLISHED.getMillis(),
            Map.of("h", "v"),
            new KafkaOrigin("events", 3, 1234567890123L, new byte[] {7, 0, -7}));
    TableRow failsafe =
        FailsafeRow.<TableRow>function()
            .apply(new RowWithPayload<>(new TableRow(), new byte[] {5}, metadata));
    TableRow shipped =
        CoderUtils.decodeFromByteArray(
            TableRowJsonCoder.of(), CoderUtils.encodeToByteArray(TableRowJsonCoder.of(), failsafe));
    // No metadata column is enabled: the record comes from the fail-safe row alone.
    DeadLetter letter =
        new FailedRows.ToDeadLetter(MetadataColumns.NONE, true).apply(shipped, "rejected");
    assertEquals(PayloadEncoding.THRIFT, letter.payloadEncoding());
    assertEquals(metadata, letter.metadata());
  }

  @Test
  public void failsafeRowWithUnreadableMetadataIsDeadLetteredAsJson() {
    TableRow failsafe =
        FailsafeRow.<TableRow>function()
            .apply(new RowWithPayload<>(new TableRow(), new byte[] {9}, EventMetadata.EMPTY));
    TableRow truncated = failsafe.clone();
    truncated.set(FailsafeRow.METADATA, "AAE=");
    for (TableRow row : List.of(truncated, failsafe.clone().set(FailsafeRow.METADATA, 12))) {
      DeadLetter letter = new FailedRows.ToDeadLetter(MetadataColumns.NONE, true).apply(row, "e");
      assertEquals(PayloadEncoding.BIGQUERY_ROW_JSON, letter.payloadEncoding());
    }
  }

  @Test
  public void failsafeRowWithoutMetadataGivesADeadLetterWithoutIt() {
    TableRow failsafe =
        FailsafeRow.<TableRow>function()
            .apply(new RowWithPayload<>(new TableRow(), new byte[] {9}, EventMetadata.EMPTY));
    DeadLetter letter = new FailedRows.ToDeadLetter(MetadataColumns.ALL, true).apply(failsafe, "e");
    assertEquals(PayloadEncoding.THRIFT, letter.payloadEncoding());
    assertArrayEquals(new byte[] {9}, letter.payload());
    assertNull(letter.messageId());
    assertNull(letter.publishTime());
    assertEquals(Map.of(), letter.attributes());
  }

  @Test
  public void withTheFlagAnEventRowOrADamagedFailsafeRowIsStillDeadLetteredAsJson() {
    TableRow eventRow = new TableRow().set("event_id", "e-1").set(MetadataColumns.MESSAGE_ID, "m");
    TableRow damaged = new TableRow().set(FailsafeRow.PAYLOAD, "not base64 !");
    for (TableRow row : List.of(eventRow, damaged)) {
      DeadLetter letter = new FailedRows.ToDeadLetter(MetadataColumns.ALL, true).apply(row, "e");
      assertEquals(PayloadEncoding.BIGQUERY_ROW_JSON, letter.payloadEncoding());
    }
    assertEquals(
        "m",
        new FailedRows.ToDeadLetter(MetadataColumns.ALL, true).apply(eventRow, "e").messageId());
    assertEquals(
        PayloadEncoding.BIGQUERY_ROW_JSON,
        new FailedRows.ToDeadLetter(MetadataColumns.ALL, true).apply(null, "e").payloadEncoding());
  }
}
