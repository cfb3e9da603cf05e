package io.thriftbq.ingest.write;

import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.PayloadFormat;
import io.thriftbq.ingest.deadletter.Stage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.CivilTimeEncoder;
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
      assertEquals("shape " + shape, PUBLISHED, FailedRows.publishTime(row));
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
        FailedRows.deadLetter(row, "BigQueryInsertError: invalid", MetadataColumns.ALL, "p:d.t");
    assertEquals(Stage.WRITE, letter.stage());
    assertEquals(PayloadFormat.BIGQUERY_ROW_JSON, letter.payloadFormat());
    String json = new String(letter.payload(), StandardCharsets.UTF_8);
    assertEquals(true, json.contains("\"event_id\":\"e-1\""));
    assertEquals("msg-1", letter.messageId());
    assertEquals(PUBLISHED, letter.publishTime());
    assertEquals(Map.of("event_id", "7"), letter.attributes());

    DeadLetter withoutColumns = FailedRows.deadLetter(row, "x", MetadataColumns.NONE, "p:d.t");
    assertEquals(null, withoutColumns.messageId());
    assertEquals(null, withoutColumns.publishTime());
    assertEquals(Map.of(), withoutColumns.attributes());
  }
}
