package io.thriftbq.ingest.torows;

import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.convert.ConverterConfig;
import java.io.Serializable;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One event type the step turns messages into: its struct's name (for dead letters and per-struct
 * metrics), its table (for dead letters), its converter's configuration and, in change mode, the
 * rule that makes each event a change (an event that makes none is a CHANGE dead letter).
 */
public record RowTarget(
    String struct, String table, ConverterConfig config, @Nullable ChangeRule change)
    implements Serializable {
  public RowTarget {
    Objects.requireNonNull(struct, "struct");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(config, "config");
  }

  /** A target of an append-only job (no change mode). */
  public RowTarget(String struct, String table, ConverterConfig config) {
    this(struct, table, config, null);
  }
}
