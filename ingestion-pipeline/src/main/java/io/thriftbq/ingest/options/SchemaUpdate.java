package io.thriftbq.ingest.options;

/** What launch does when the output table exists with another schema than the IDL's. */
public enum SchemaUpdate {
  /** Add new NULLABLE/REPEATED columns and relax REQUIRED to NULLABLE; fail on anything else. */
  ADD_COLUMNS,
  /** Fail on any difference, listing it column by column. */
  FAIL,
  /** Do not look at the table. */
  NONE
}
