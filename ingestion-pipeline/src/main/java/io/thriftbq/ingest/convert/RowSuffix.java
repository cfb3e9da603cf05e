package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.origin.EventMetadata;
import java.io.Serializable;

/**
 * Bytes appended to each PROTO_MESSAGE row where it is written, before the row's array is cut to
 * size: change mode's pseudo-columns ({@code change.ChangeStamp}), so that the hot path allocates
 * no second array for them. One instance per converter, used by one thread.
 */
public interface RowSuffix {
  /**
   * Decides the suffix of the row in {@code row[0..length)}; throws (an unchecked exception, which
   * the converter lets through) when the row can have none.
   *
   * @return the suffix's length in bytes
   */
  int prepare(byte[] row, int length, EventMetadata metadata);

  /** Writes the suffix {@link #prepare} decided at {@code out[at..]}; returns the end. */
  int write(byte[] out, int at);

  /** Makes a {@link RowSuffix} for each converter; serializable, as converter settings are. */
  interface Factory extends Serializable {
    RowSuffix newSuffix();
  }
}
