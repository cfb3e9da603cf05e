package io.thriftbq.local.progress;

import java.io.IOException;

/** Counts of what has landed in a run's tables so far, summed over its tables of each kind. */
public interface LandedRows {
  long rows() throws IOException;

  long deadLetters() throws IOException;

  /** Distinct {@code event_id} attribute values among the rows. */
  long distinctEventIds() throws IOException;
}
