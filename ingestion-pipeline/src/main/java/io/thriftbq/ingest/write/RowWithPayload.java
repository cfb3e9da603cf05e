package io.thriftbq.ingest.write;

import io.thriftbq.ingest.convert.EventMetadata;
import java.util.Arrays;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A row on its way to BigQueryIO together with the message it came from, so that a row BigQuery
 * rejects can still be dead-lettered with its original Thrift bytes and Pub/Sub metadata. Only
 * built with {@code --keepPayloadForWriteFailures}: BigQueryIO applies its fail-safe function (see
 * {@link FailsafeRow}) to the element it was handed, so that element has to carry the payload.
 *
 * @param row the row in the chosen format: TableRow, Row or GenericRecord
 * @param payload the serialized Thrift event exactly as received (an envelope member's own bytes)
 * @param metadata the message's id, publish time and attributes
 * @param <T> the row type
 */
public record RowWithPayload<T>(T row, byte[] payload, EventMetadata metadata) {

  public RowWithPayload {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(metadata, "metadata");
  }

  // A record compares arrays by identity; these are values (coder tests and PAssert compare them).
  @Override
  public boolean equals(@Nullable Object other) {
    if (this == other) {
      return true;
    }
    return other instanceof RowWithPayload<?> that
        && row.equals(that.row)
        && Arrays.equals(payload, that.payload)
        && metadata.equals(that.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(row, Arrays.hashCode(payload), metadata);
  }

  @Override
  public String toString() {
    return "RowWithPayload{payloadBytes="
        + payload.length
        + ", messageId="
        + metadata.messageId()
        + ", row="
        + row
        + "}";
  }
}
