package io.thriftbq.ingest.change;

import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads a top-level column of one format's row, for change mode; each format has one ({@code
 * format.Format#columnReader}). Values are normalised: INTEGER as a {@link Long}, STRING as a
 * {@link String}, BOOLEAN as a {@link Boolean}, whatever the format holds.
 *
 * @param <R> the format's row type
 */
public interface ColumnReader<R> extends Serializable {
  /** The column's value, or null when the row has none (NULL). */
  @Nullable Object read(R row, ChangeColumn column);

  /** Whether the column is set; no value is decoded. */
  default boolean has(R row, ChangeColumn column) {
    return read(row, column) != null;
  }
}
