package io.thriftbq.ingest.deadletter;

import org.checkerframework.checker.nullness.qual.Nullable;

/** Where dead letters go when {@code --deadLetterTable} is not set. */
public final class DeadLetterTables {
  public static final String DEFAULT_SUFFIX = "_dead_letter";

  private DeadLetterTables() {}

  /**
   * {@code configured} ({@code --deadLetterTable}) if set, else the output table's name with the
   * suffix {@code _dead_letter}; null when neither is known.
   */
  public static @Nullable String resolve(
      @Nullable String configured, @Nullable String outputTable) {
    if (configured != null && !configured.isBlank()) {
      return configured.trim();
    }
    return outputTable == null || outputTable.isBlank()
        ? null
        : outputTable.trim() + DEFAULT_SUFFIX;
  }
}
