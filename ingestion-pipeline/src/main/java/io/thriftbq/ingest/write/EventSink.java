package io.thriftbq.ingest.write;

import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import java.io.Serializable;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;

/**
 * The element type that travels from decoding to BigQueryIO, bound once per pipeline: the rows of a
 * {@link RowSink} themselves, or, for {@code --keepPayloadForWriteFailures}, each row with the
 * message it came from ({@link RowWithPayload}), so that a row BigQuery rejects is dead-lettered
 * with its Thrift bytes. The decode step makes elements with {@link #element}, the write takes them
 * with {@link #write}; both sides use the same instance, so they cannot disagree on the type.
 *
 * @param <R> the row type of the format
 * @param <E> the element type: {@code R}, or {@code RowWithPayload<R>}
 */
public abstract sealed class EventSink<R, E> implements Serializable
    permits EventSink.Rows, EventSink.RowsKeepingPayload, EventSink.RowsCarryingPayload {
  private static final long serialVersionUID = 1L;

  private final RowSink<R> rows;

  private EventSink(RowSink<R> rows) {
    this.rows = rows;
  }

  /** Elements are the rows themselves. */
  public static <R> EventSink<R, R> of(RowSink<R> rows) {
    return new Rows<>(rows);
  }

  /**
   * Elements carry their message's payload and metadata.
   *
   * @throws IllegalArgumentException if the format's write cannot hand the payload back
   */
  public static <R> EventSink<R, ?> keepingPayload(RowSink<R> rows) {
    if (!rows.canKeepPayload()) {
      throw new IllegalArgumentException(
          "--keepPayloadForWriteFailures is not supported with --formatToStore=" + rows.format());
    }
    return rows.rowsCarryPayload()
        ? new RowsCarryingPayload<>(rows)
        : new RowsKeepingPayload<>(rows);
  }

  public RowSink<R> rows() {
    return rows;
  }

  /** Whether elements carry their payload ({@code --keepPayloadForWriteFailures}). */
  public abstract boolean keepsPayload();

  /** The element for one decoded row. */
  public abstract E element(R row, byte[] payload, EventMetadata metadata);

  public abstract Coder<E> coder(EventSchemas schemas);

  abstract BigQueryIO.Write<E> write(EventSchemas schemas);

  static final class Rows<R> extends EventSink<R, R> {
    private static final long serialVersionUID = 1L;

    private Rows(RowSink<R> rows) {
      super(rows);
    }

    @Override
    public boolean keepsPayload() {
      return false;
    }

    @Override
    public R element(R row, byte[] payload, EventMetadata metadata) {
      return row;
    }

    @Override
    public Coder<R> coder(EventSchemas schemas) {
      return rows().coder(schemas);
    }

    @Override
    BigQueryIO.Write<R> write(EventSchemas schemas) {
      return rows().write(schemas);
    }
  }

  /** Rows that carry their payload themselves (a field of the row object, not of the table). */
  static final class RowsCarryingPayload<R> extends EventSink<R, R> {
    private static final long serialVersionUID = 1L;

    private RowsCarryingPayload(RowSink<R> rows) {
      super(rows);
    }

    @Override
    public boolean keepsPayload() {
      return true;
    }

    @Override
    public R element(R row, byte[] payload, EventMetadata metadata) {
      return rows().keepingPayload(row, payload, metadata);
    }

    @Override
    public Coder<R> coder(EventSchemas schemas) {
      return rows().coder(schemas);
    }

    @Override
    BigQueryIO.Write<R> write(EventSchemas schemas) {
      return rows().writeCarryingPayload(schemas);
    }
  }

  static final class RowsKeepingPayload<R> extends EventSink<R, RowWithPayload<R>> {
    private static final long serialVersionUID = 1L;

    private RowsKeepingPayload(RowSink<R> rows) {
      super(rows);
    }

    @Override
    public boolean keepsPayload() {
      return true;
    }

    @Override
    public RowWithPayload<R> element(R row, byte[] payload, EventMetadata metadata) {
      return new RowWithPayload<>(row, payload, metadata);
    }

    @Override
    public Coder<RowWithPayload<R>> coder(EventSchemas schemas) {
      return rows().coderKeepingPayload(schemas);
    }

    @Override
    BigQueryIO.Write<RowWithPayload<R>> write(EventSchemas schemas) {
      return rows().writeKeepingPayload(schemas);
    }
  }
}
