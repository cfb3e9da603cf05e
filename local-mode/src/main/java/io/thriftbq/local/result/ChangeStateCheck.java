package io.thriftbq.local.result;

import java.util.List;

/**
 * A change-mode run's table against the expected final state (the generator's {@code
 * ExpectedState}): one row per live key, holding its winning change; none for a deleted key.
 *
 * @param keysExpected keys the stream touched
 * @param liveExpected of them, keys whose winning change is an upsert (a row expected)
 * @param deletedExpected keys whose winning change is a delete (no row expected)
 * @param present live keys whose row holds the winning change
 * @param missing live keys without a row
 * @param wrong live keys whose row holds a change of another key, or of no message sent
 * @param stale live keys whose row holds an older (losing) change of the same key
 * @param deletedBack deleted keys that have a row
 * @param extraRows rows beyond one per key, and rows of keys the stream never touched
 * @param examples a few of the keys behind each non-zero count, for the report
 */
public record ChangeStateCheck(
    long keysExpected,
    long liveExpected,
    long deletedExpected,
    long present,
    long missing,
    long wrong,
    long stale,
    long deletedBack,
    long extraRows,
    List<String> examples) {
  public ChangeStateCheck {
    examples = List.copyOf(examples);
  }

  /** Whether the table is the expected final state. */
  public boolean matches() {
    return present == liveExpected
        && missing == 0
        && wrong == 0
        && stale == 0
        && deletedBack == 0
        && extraRows == 0;
  }
}
