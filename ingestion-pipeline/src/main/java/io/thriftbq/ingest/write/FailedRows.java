package io.thriftbq.ingest.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.services.bigquery.model.ErrorProto;
import com.google.api.services.bigquery.model.TableDataInsertAllResponse;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.PayloadFormat;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.CivilTimeEncoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * Turns rows BigQuery rejected into dead letters with stage WRITE.
 *
 * <p>The payload is the rejected row as JSON, not the original Thrift bytes: BigQueryIO hands back
 * only the row. Keeping the Thrift bytes would need {@code withFormatRecordOnFailureFunction},
 * which JSON-encodes a fail-safe copy of every element before the write shuffle, whether it fails
 * or not; on the hot path that costs more than the conversion itself, for a failure that a correct
 * schema makes rare. The Pub/Sub metadata is recovered from the row's metadata columns when they
 * are enabled.
 */
final class FailedRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FailedRows() {}

  /** Rejected streaming inserts (needs {@code withExtendedErrorInfo()}). */
  static final class FromInsertErrorFn extends DoFn<BigQueryInsertError, DeadLetter> {
    private final MetadataColumns metadataColumns;
    private final String eventTable;
    private final Counter failedWrite = IngestionMetrics.failed(Stage.WRITE);

    FromInsertErrorFn(MetadataColumns metadataColumns, String eventTable) {
      this.metadataColumns = metadataColumns;
      this.eventTable = eventTable;
    }

    @ProcessElement
    public void process(@Element BigQueryInsertError error, OutputReceiver<DeadLetter> out) {
      failedWrite.inc();
      out.output(
          deadLetter(error.getRow(), describe(error.getError()), metadataColumns, eventTable));
    }
  }

  /** Rows the Storage Write API refused, or that could not be converted to its protos. */
  static final class FromStorageApiErrorFn extends DoFn<BigQueryStorageApiInsertError, DeadLetter> {
    private final MetadataColumns metadataColumns;
    private final String eventTable;
    private final Counter failedWrite = IngestionMetrics.failed(Stage.WRITE);

    FromStorageApiErrorFn(MetadataColumns metadataColumns, String eventTable) {
      this.metadataColumns = metadataColumns;
      this.eventTable = eventTable;
    }

    @ProcessElement
    public void process(
        @Element BigQueryStorageApiInsertError error, OutputReceiver<DeadLetter> out) {
      failedWrite.inc();
      String message = error.getErrorMessage();
      out.output(
          deadLetter(
              error.getRow(),
              "BigQueryStorageApiInsertError: " + (message == null ? "no details" : message),
              metadataColumns,
              eventTable));
    }
  }

  static DeadLetter deadLetter(
      @Nullable TableRow row, String error, MetadataColumns metadataColumns, String eventTable) {
    TableRow safeRow = row == null ? new TableRow() : row;
    return new DeadLetter(
        toJson(safeRow),
        PayloadFormat.BIGQUERY_ROW_JSON,
        Stage.WRITE,
        error,
        metadataColumns.messageId() ? messageId(safeRow) : null,
        metadataColumns.publishTime() ? publishTime(safeRow) : null,
        metadataColumns.attributes() ? attributes(safeRow) : Map.of(),
        Instant.now(),
        eventTable);
  }

  static byte[] toJson(TableRow row) {
    try {
      return JSON.writeValueAsBytes(row);
    } catch (JsonProcessingException e) {
      // Never lose the dead letter over its own encoding: fall back to the map's text form.
      return String.valueOf(row).getBytes(StandardCharsets.UTF_8);
    }
  }

  static String describe(TableDataInsertAllResponse.@Nullable InsertErrors errors) {
    if (errors == null || errors.getErrors() == null || errors.getErrors().isEmpty()) {
      return "BigQueryInsertError: no details";
    }
    StringBuilder text = new StringBuilder("BigQueryInsertError:");
    for (ErrorProto error : errors.getErrors()) {
      text.append(' ').append(error.getReason()).append(": ").append(error.getMessage());
      if (error.getLocation() != null && !error.getLocation().isEmpty()) {
        text.append(" (at ").append(error.getLocation()).append(')');
      }
      text.append(';');
    }
    return text.substring(0, text.length() - 1);
  }

  static @Nullable String messageId(TableRow row) {
    Object value = row.get(MetadataColumns.MESSAGE_ID);
    return value == null ? null : value.toString();
  }

  /** Reads back a TIMESTAMP in any representation a TableRow may carry it in. */
  static @Nullable Instant publishTime(TableRow row) {
    Object value = row.get(MetadataColumns.PUBLISH_TIME);
    if (value == null) {
      return null;
    }
    Instant packed = packedDatetime(value);
    if (packed != null) {
      return packed;
    }
    if (value instanceof org.joda.time.ReadableInstant instant) {
      return new Instant(instant.getMillis());
    }
    if (value instanceof java.time.Instant instant) {
      return new Instant(instant.toEpochMilli());
    }
    if (value instanceof Long || value instanceof Integer) {
      // Beam's TableRow-to-proto conversion reads integers as epoch microseconds.
      return new Instant(((Number) value).longValue() / 1000);
    }
    if (value instanceof Number number) {
      // BigQuery's JSON reads a floating-point TIMESTAMP as epoch seconds.
      return new Instant(Math.round(number.doubleValue() * 1000));
    }
    try {
      return new Instant(Timestamps.parse(value.toString()).toEpochMilli());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * Beam writes a Beam-schema DATETIME (our TIMESTAMP columns in the Row format) as epoch micros,
   * but renders a failed row's value as if it were a packed civil DATETIME, which reads as a date
   * in the first century. Re-packing that text gives back the micros. A real publish time is never
   * before the year 1000, so the check cannot misread a correctly rendered value.
   */
  private static @Nullable Instant packedDatetime(Object value) {
    if (!(value instanceof String text) || text.isEmpty() || !Character.isDigit(text.charAt(0))) {
      return null;
    }
    LocalDateTime civil;
    try {
      civil = LocalDateTime.parse(text.trim().replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      return null;
    }
    if (civil.getYear() >= 1000) {
      return null;
    }
    long micros = CivilTimeEncoder.encodePacked64DatetimeMicros(civil);
    return new Instant(micros / 1000);
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> attributes(TableRow row) {
    Object value = row.get(MetadataColumns.ATTRIBUTES);
    if (!(value instanceof List<?> entries)) {
      return Map.of();
    }
    Map<String, String> attributes = new HashMap<>();
    for (Object entry : entries) {
      if (entry instanceof Map<?, ?> map) {
        Object key = map.get(MetadataColumns.ATTRIBUTE_KEY);
        Object attributeValue = map.get(MetadataColumns.ATTRIBUTE_VALUE);
        if (key != null) {
          attributes.put(key.toString(), attributeValue == null ? "" : attributeValue.toString());
        }
      }
    }
    return attributes;
  }
}
