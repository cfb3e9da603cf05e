package io.thriftbq.ingest.decode;

import io.thriftbq.ingest.convert.ConverterConfig;
import java.io.Serializable;
import java.util.Objects;

/**
 * One event type the decoder turns messages into: its struct's name (for dead letters and
 * per-struct metrics), its table (for dead letters) and its converter's configuration.
 */
public record DecodeTarget(String struct, String table, ConverterConfig config)
    implements Serializable {
  public DecodeTarget {
    Objects.requireNonNull(struct, "struct");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(config, "config");
  }
}
