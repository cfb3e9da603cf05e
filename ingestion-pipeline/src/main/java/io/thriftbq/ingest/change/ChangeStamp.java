package io.thriftbq.ingest.change;

import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.RowSuffix;

/**
 * PROTO_MESSAGE's change pseudo-columns written where the one-pass writer writes the row: it reads
 * the key, change type and sequence from the row's bytes in the writer's buffer, decides the change
 * by the struct's {@link ChangeRule}, and appends {@code _CHANGE_TYPE} and {@code
 * _CHANGE_SEQUENCE_NUMBER} before the row is cut to size, so no second array is made. The same
 * bytes as {@link ChangeColumns#stamp}, which stamps rows of the general path.
 */
final class ChangeStamp implements RowSuffix {
  private final ChangeRule rule;
  private final int changeTypeNumber;
  private final ColumnReader<ColumnReaders.ProtoBytes> reader = ColumnReaders.protoBytes();
  private final ColumnReaders.ProtoBytes view = new ColumnReaders.ProtoBytes();
  private Change change;

  private ChangeStamp(ChangeRule rule, int changeTypeNumber) {
    this.rule = rule;
    this.changeTypeNumber = changeTypeNumber;
  }

  /** The factory for rows of {@code columns} top-level columns changed by {@code rule}. */
  static RowSuffix.Factory factory(ChangeRule rule, int columns) {
    int number = ChangeColumns.changeTypeNumber(columns);
    return () -> new ChangeStamp(rule, number);
  }

  @Override
  public int prepare(byte[] row, int length, EventMetadata metadata) {
    view.bytes = row;
    view.length = length;
    try {
      change = rule.decide(view, reader, metadata);
    } finally {
      view.bytes = null;
    }
    return ChangeColumns.size(change, changeTypeNumber);
  }

  @Override
  public int write(byte[] out, int at) {
    return ChangeColumns.write(change, changeTypeNumber, out, at);
  }
}
