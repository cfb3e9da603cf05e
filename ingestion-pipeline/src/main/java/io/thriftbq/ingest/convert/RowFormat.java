package io.thriftbq.ingest.convert;

import java.util.List;

/**
 * What differs between the three output formats: how a record is assembled from its column values
 * and how the few non-trivial scalars are represented. Everything else (walking the Thrift data,
 * shaping containers, defaults, metadata) is shared, so the formats cannot disagree about a row.
 *
 * @param <R> the record type (TableRow, Row or GenericRecord)
 * @param <S> the format's description of one record (its schema at that path)
 */
abstract class RowFormat<R, S> {

  /** The format's description of the top-level record. */
  abstract S rootShape();

  /**
   * The description of the record held by column {@code index} of {@code parent}: the nested
   * struct, the map entry, the wrapper of a nested container, or the attribute entry.
   */
  abstract S childShape(S parent, int index);

  /** Assembles a record; {@code values} is owned by the callee afterwards. */
  abstract R record(S shape, Object[] values);

  /** Representation of a BYTES value. */
  abstract Object bytes(byte[] value);

  /** Representation of a TIMESTAMP value given in epoch milliseconds. */
  abstract Object timestampMillis(long epochMillis);

  /**
   * True if STRING values may be handed over as their (valid) UTF-8 bytes instead of Strings; the
   * format must then accept both forms.
   */
  boolean stringsAsUtf8() {
    return false;
  }

  /** Representation of an absent REPEATED column. */
  Object emptyRepeated() {
    return List.of();
  }
}
