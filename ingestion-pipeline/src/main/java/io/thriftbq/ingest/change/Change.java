package io.thriftbq.ingest.change;

import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation;
import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation.MutationType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One event's change: BigQuery's {@code _CHANGE_TYPE} and {@code _CHANGE_SEQUENCE_NUMBER}.
 *
 * @param type UPSERT or DELETE
 * @param sequence the sequence number in BigQuery's format, or null for none
 */
public record Change(MutationType type, @Nullable String sequence) {

  /** As BigQueryIO's row mutation function gives it (which requires a sequence). */
  public RowMutationInformation mutation() {
    if (sequence == null) {
      throw new IllegalStateException(
          "BigQueryIO's row mutations need a sequence; the plan refuses --changeSequence=NONE"
              + " with this format");
    }
    return RowMutationInformation.of(type, sequence);
  }
}
