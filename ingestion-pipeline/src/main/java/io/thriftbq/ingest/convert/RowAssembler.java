package io.thriftbq.ingest.convert;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftStruct;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What differs between the three output formats: how a record is assembled from its column values
 * and how the few non-trivial scalars are represented. Everything else (walking the Thrift data,
 * shaping containers, defaults, metadata) is shared, so the formats cannot disagree about a row.
 *
 * @param <R> the row type (TableRow, Row, GenericRecord or EncodedRow)
 * @param <S> the format's description of one record (its schema at that path)
 */
abstract class RowAssembler<R, S> {

  /** The format's description of the top-level record. */
  abstract S rootShape();

  /**
   * The description of the record held by column {@code index} of {@code parent}: the nested
   * struct, the map entry, the wrapper of a nested container, or the attribute entry.
   */
  abstract S childShape(S parent, int index);

  /**
   * Assembles a nested record (a struct, map entry, wrapper of a nested container or attribute
   * entry); {@code values} is owned by the callee afterwards.
   */
  abstract Object record(S shape, Object[] values);

  /** Assembles the row from its top-level columns; {@code values} is owned by the callee. */
  abstract R row(Object[] values);

  /**
   * A writer that makes rows straight from the payload in one pass, tried before the codec tree, or
   * null when the format has none.
   */
  @Nullable OnePassWriter<R> onePassWriter(
      ThriftStruct struct,
      DecodingRules rules,
      ThriftProtocol protocol,
      MetadataColumns metadataColumns) {
    return null;
  }

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
