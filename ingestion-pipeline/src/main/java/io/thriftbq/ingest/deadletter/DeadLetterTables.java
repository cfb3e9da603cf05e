package io.thriftbq.ingest.deadletter;

import io.thriftbq.ingest.options.IngestionOptions;

/** Where dead letters go when {@code --deadLetterTable} is not set. */
public final class DeadLetterTables {
  public static final String DEFAULT_SUFFIX = "_dead_letter";

  private DeadLetterTables() {}

  /** {@code --deadLetterTable}, or the output table's name with the suffix {@code _dead_letter}. */
  public static String forOptions(IngestionOptions options) {
    String configured = options.getDeadLetterTable();
    if (configured != null && !configured.isBlank()) {
      return configured.trim();
    }
    return options.getOutputTable() == null
        ? null
        : options.getOutputTable().trim() + DEFAULT_SUFFIX;
  }
}
