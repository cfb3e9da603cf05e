package io.thriftbq.ingest.deadletter;

import org.checkerframework.checker.nullness.qual.Nullable;

/** Where dead letters go when {@code --deadLetterTable} is not set. */
public final class DeadLetterTables {
  public static final String DEFAULT_SUFFIX = "_dead_letter";

  /** What {@code --outputTable} may hold to give each struct of a many-types job its table. */
  public static final String STRUCT_PLACEHOLDER = "{struct}";

  private DeadLetterTables() {}

  /**
   * {@code configured} ({@code --deadLetterTable}) if set, else the output table's name with the
   * suffix {@code _dead_letter} ({@code {struct}} and the underscores around it left out: {@code
   * ds.events_{struct}} gives {@code ds.events_dead_letter}); null when neither is known.
   */
  public static @Nullable String resolve(
      @Nullable String configured, @Nullable String outputTable) {
    if (configured != null && !configured.isBlank()) {
      return configured.trim();
    }
    if (outputTable == null || outputTable.isBlank()) {
      return null;
    }
    String base = outputTable.trim();
    int placeholder = base.indexOf(STRUCT_PLACEHOLDER);
    if (placeholder >= 0) {
      int tableStart = Math.max(base.lastIndexOf('.'), base.lastIndexOf(':')) + 1;
      String before = base.substring(tableStart, placeholder).replaceAll("_+$", "");
      String after =
          base.substring(placeholder + STRUCT_PLACEHOLDER.length()).replaceAll("^_+", "");
      String table = before.isEmpty() || after.isEmpty() ? before + after : before + "_" + after;
      base = base.substring(0, tableStart) + (table.isEmpty() ? "events" : table);
    }
    return base + DEFAULT_SUFFIX;
  }
}
