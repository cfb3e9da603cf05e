package io.thriftbq.local.progress;

import java.io.IOException;

/** Counts of what has landed in a run's tables so far, summed over its tables of each kind. */
public interface LandedRows {
  long rows() throws IOException;

  long deadLetters() throws IOException;

  /** Distinct {@code event_id} attribute values among the rows. */
  long distinctEventIds() throws IOException;

  /**
   * The sum of the rows' {@code event_id} values (numbers): with the row count, it tells a change
   * stream's final state (each key's winning message) from an earlier one.
   */
  long eventIdSum() throws IOException;
}
