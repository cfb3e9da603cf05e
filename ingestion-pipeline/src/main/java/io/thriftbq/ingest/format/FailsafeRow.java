package io.thriftbq.ingest.format;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.EventMetadataCoder;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.util.CoderUtils;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The fail-safe row of {@code --keepPayloadForWriteFailures}: what BigQueryIO's {@code
 * withFormatRecordOnFailureFunction} makes of each element, and the way back from it to the payload
 * and metadata once BigQuery rejected the element's row.
 *
 * <p>BigQueryIO builds it for <em>every</em> element, not only the failing ones, and the Storage
 * API paths JSON-encode it with {@code TableRowJsonCoder} (and decode it again on the write side),
 * so its shape is fixed and small, and every value is a string that survives the JSON round trip
 * unchanged:
 *
 * <pre>
 * thriftbq.payload   the Thrift bytes, base64
 * thriftbq.metadata  the message's {@link EventMetadata}, in {@link EventMetadataCoder}'s encoding,
 *                    base64: the one encoding of the metadata, so a new field needs no key here
 * thriftbq.struct    the element's struct, in a write to several tables (else absent)
 * </pre>
 *
 * The keys contain a dot, which no BigQuery column name can, so a rejected event row (which Beam
 * hands back instead when it has no fail-safe row for an element) is never mistaken for one.
 */
public final class FailsafeRow {
  public static final String PAYLOAD = "thriftbq.payload";
  public static final String METADATA = "thriftbq.metadata";
  static final String STRUCT = "thriftbq.struct";

  /**
   * What a fail-safe row gives back: the event's Thrift bytes and its message's metadata.
   *
   * @param payload the Thrift bytes exactly as received
   * @param metadata the metadata of the message the event came in
   */
  public record Kept(byte[] payload, EventMetadata metadata) {}

  private FailsafeRow() {}

  /** BigQueryIO's {@code withFormatRecordOnFailureFunction} for elements of any row type. */
  public static <T> SerializableFunction<RowWithPayload<T>, TableRow> function() {
    return new ToFailsafeRow<>();
  }

  /**
   * {@link #function()} for a write to several tables: the fail-safe row also names the element's
   * struct, because a Storage API rejection does not say which table refused the row.
   *
   * @param structs the struct of each table, by the index the elements carry
   */
  public static <T> SerializableFunction<ToTable<RowWithPayload<T>>, TableRow> function(
      List<String> structs) {
    return new ToFailsafeRowNamingStruct<>(List.copyOf(structs));
  }

  /** The struct a fail-safe row names (see {@link #function(List)}); null if it names none. */
  public static @Nullable String struct(@Nullable TableRow row) {
    return row != null && row.get(STRUCT) instanceof String struct ? struct : null;
  }

  static TableRow of(RowWithPayload<?> element) {
    Base64.Encoder base64 = Base64.getEncoder();
    TableRow row = new TableRow();
    row.set(PAYLOAD, base64.encodeToString(element.payload()));
    row.set(METADATA, base64.encodeToString(encode(element.metadata())));
    return row;
  }

  private static byte[] encode(EventMetadata metadata) {
    try {
      return CoderUtils.encodeToByteArray(EventMetadataCoder.of(), metadata);
    } catch (CoderException e) {
      // The element's own coder encoded the same metadata with the same coder before the write.
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The payload and metadata {@code row} keeps, if it is a fail-safe row; null if it is not (an
   * event row, or a fail-safe row damaged beyond reading), which the caller then dead-letters as
   * the row itself.
   */
  public static @Nullable Kept read(@Nullable TableRow row) {
    if (row == null
        || !(row.get(PAYLOAD) instanceof String payload)
        || !(row.get(METADATA) instanceof String metadata)) {
      return null;
    }
    Base64.Decoder base64 = Base64.getDecoder();
    try {
      return new Kept(
          base64.decode(payload),
          CoderUtils.decodeFromByteArray(EventMetadataCoder.of(), base64.decode(metadata)));
    } catch (IllegalArgumentException | CoderException e) { // Not base64, or not the coder's.
      return null;
    }
  }

  private static final class ToFailsafeRowNamingStruct<T>
      implements SerializableFunction<ToTable<RowWithPayload<T>>, TableRow> {
    private static final long serialVersionUID = 1L;

    private final List<String> structs;

    ToFailsafeRowNamingStruct(List<String> structs) {
      this.structs = structs;
    }

    @Override
    public TableRow apply(ToTable<RowWithPayload<T>> element) {
      TableRow row = of(element.element());
      row.set(STRUCT, structs.get(element.table()));
      return row;
    }
  }

  private static final class ToFailsafeRow<T>
      implements SerializableFunction<RowWithPayload<T>, TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public TableRow apply(RowWithPayload<T> element) {
      return of(element);
    }
  }
}
