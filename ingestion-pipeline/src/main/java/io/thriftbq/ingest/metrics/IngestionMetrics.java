package io.thriftbq.ingest.metrics;

import io.thriftbq.ingest.deadletter.Stage;
import java.util.EnumMap;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * Every metric the ingestion pipeline reports, in one namespace, so that dashboards, the local-mode
 * report and the tests agree on names.
 *
 * <p>How the counts reconcile (each Pub/Sub message is one event, or one event per member of an
 * envelope, or one dead letter for a corrupt envelope):
 *
 * <pre>
 * events_read = rows_to_bigquery + failed_unpack + failed_decode + failed_transform
 *               + failed_convert + failed_change + filtered
 * rows_written = rows_to_bigquery - failed_write
 * </pre>
 *
 * and, once the dead-letter sink has caught up, {@code dead_lettered_<stage> == failed_<stage>}. In
 * a many-types job {@code failed_route} joins the first sum (messages no struct was found for), and
 * each struct S has its own {@code decoded[S]}, {@code filtered[S]}, {@code failed_<stage>[S]},
 * {@code rows_to_bigquery[S]} and {@code end_to_end_latency_ms[S]} ({@link #ofStruct}).
 */
public final class IngestionMetrics {
  public static final String NAMESPACE = "thriftbq_ingest";

  /** Pub/Sub messages read (an envelope counts once). */
  public static final String MESSAGES_READ = "messages_read";

  /** Payload bytes of the Pub/Sub messages read. */
  public static final String BYTES_READ = "bytes_read";

  /** Events entering decoding: one per plain message, one per envelope member. */
  public static final String EVENTS_READ = "events_read";

  /** Envelopes unpacked successfully. */
  public static final String ENVELOPES_UNPACKED = "envelopes_unpacked";

  /** Events decoded (and, with a user function, transformed and converted) into rows. */
  public static final String DECODED = "decoded";

  /** Events the user function dropped by returning null. */
  public static final String FILTERED = "filtered";

  /**
   * Enum values the IDL does not name, kept as {@code UNKNOWN_<n>} or dead-lettered as {@code
   * --unknownEnumValues} says.
   */
  public static final String UNKNOWN_ENUM_VALUES = "unknown_enum_values";

  /** String fields that were not valid UTF-8 and were stored with U+FFFD ({@code REPLACE}). */
  public static final String INVALID_UTF8_REPLACED = "invalid_utf8_replaced";

  /**
   * Fields skipped because the IDL does not know their id (or knows it with another wire type):
   * never silently lost, as the decode logs them by id and {@code --keepUnknownFields} keeps the
   * event's bytes.
   */
  public static final String UNKNOWN_FIELDS = "unknown_fields";

  /** Rows handed to BigQueryIO, counted just before the sink. */
  public static final String ROWS_TO_BIGQUERY = "rows_to_bigquery";

  /** Milliseconds from the event's creation (attribute, else publish time) to the sink. */
  public static final String END_TO_END_LATENCY_MS = "end_to_end_latency_ms";

  /** Dead letters the dead-letter table refused; they are logged, never silently dropped. */
  public static final String DEAD_LETTER_WRITE_FAILED = "dead_letter_write_failed";

  private static final String FAILED_PREFIX = "failed_";
  private static final String DEAD_LETTERED_PREFIX = "dead_lettered_";

  private IngestionMetrics() {}

  /** Name of the counter of failures at {@code stage}, for example {@code failed_decode}. */
  public static String failedName(Stage stage) {
    return FAILED_PREFIX + stage.columnValue().toLowerCase(java.util.Locale.ROOT);
  }

  /** Name of the counter of dead letters handed to the dead-letter table from {@code stage}. */
  public static String deadLetteredName(Stage stage) {
    return DEAD_LETTERED_PREFIX + stage.columnValue().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The name of {@code name}'s per-struct counter in a many-types job, for example {@code
   * decoded[Order]}: the totals stay under the plain names.
   */
  public static String ofStruct(String name, String struct) {
    return name + "[" + struct + "]";
  }

  public static Counter counter(String name) {
    return Metrics.counter(NAMESPACE, name);
  }

  public static Distribution distribution(String name) {
    return Metrics.distribution(NAMESPACE, name);
  }

  public static Counter failed(Stage stage) {
    return counter(failedName(stage));
  }

  /** One counter per stage, built once so DoFns do not look names up per element. */
  public static Map<Stage, Counter> deadLetteredByStage() {
    Map<Stage, Counter> counters = new EnumMap<>(Stage.class);
    for (Stage stage : Stage.values()) {
      counters.put(stage, counter(deadLetteredName(stage)));
    }
    return counters;
  }
}
