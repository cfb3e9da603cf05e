package io.thriftbq.ingest.format;

import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;

/**
 * The element type that travels from decoding to BigQueryIO, bound once per pipeline: a {@link
 * Format}'s rows themselves, or, for {@code --keepPayloadForWriteFailures}, each row with the
 * message it came from ({@link RowWithPayload}, the one carrier of every format), so that a row
 * BigQuery rejects is dead-lettered with its Thrift bytes. The decode step makes elements with
 * {@link #element}, the write takes them with {@link #write}; both use the same instance, so they
 * cannot disagree on the type, and the default path builds no wrapper.
 *
 * @param <R> the row type of the format
 * @param <E> the element type: {@code R}, or {@code RowWithPayload<R>}
 */
public abstract sealed class EventSink<R, E> implements Serializable
    permits EventSink.Rows, EventSink.RowsKeepingPayload {
  private static final long serialVersionUID = 1L;

  private final Format<R> format;

  private EventSink(Format<R> format) {
    this.format = Objects.requireNonNull(format, "format");
  }

  /** Elements are the rows themselves. */
  public static <R> EventSink<R, R> of(Format<R> format) {
    return new Rows<>(format);
  }

  /** Elements are the rows with their message's payload and metadata. */
  public static <R> EventSink<R, RowWithPayload<R>> keepingPayload(Format<R> format) {
    return new RowsKeepingPayload<>(format);
  }

  /** {@link #keepingPayload} when {@code keepPayload}, else {@link #of}. */
  public static <R> EventSink<R, ?> of(Format<R> format, boolean keepPayload) {
    return keepPayload ? keepingPayload(format) : of(format);
  }

  public Format<R> format() {
    return format;
  }

  /** Whether elements carry their payload ({@code --keepPayloadForWriteFailures}). */
  public abstract boolean keepsPayload();

  /** The element for one decoded row. */
  public abstract E element(R row, byte[] payload, EventMetadata metadata);

  public abstract Coder<E> coder(EventSchemas schemas);

  /** The format's BigQueryIO write for these elements; the shared settings are not applied. */
  public abstract BigQueryIO.Write<E> write(EventSchemas schemas);

  /**
   * The format's write of these elements to several tables, each element carrying its table's index
   * into {@code schemas} ({@link ToTable}); only where {@link Format#hasSchemaPerTable}.
   *
   * @param structs the struct of each table, by index, which fail-safe rows name
   */
  public abstract BigQueryIO.Write<ToTable<E>> writeToTables(
      List<EventSchemas> schemas, List<String> structs);

  /** The coder of {@link #writeToTables}'s elements: each table's element coder, by index. */
  public Coder<ToTable<E>> toTableCoder(List<EventSchemas> schemas) {
    List<Coder<E>> coders = new ArrayList<>();
    for (EventSchemas table : schemas) {
      coders.add(coder(table));
    }
    return ToTableCoder.of(coders);
  }

  /** Runs {@code apply}, which applies {@link #write}, as the format needs it run. */
  public <T> T applying(EventSchemas schemas, Supplier<T> apply) {
    return format.applying(schemas, apply);
  }

  static final class Rows<R> extends EventSink<R, R> {
    private static final long serialVersionUID = 1L;

    private Rows(Format<R> format) {
      super(format);
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
      return format().coder(schemas);
    }

    @Override
    public BigQueryIO.Write<R> write(EventSchemas schemas) {
      return format().write(schemas);
    }

    @Override
    public BigQueryIO.Write<ToTable<R>> writeToTables(
        List<EventSchemas> schemas, List<String> structs) {
      return format().writeToTables(schemas);
    }
  }

  static final class RowsKeepingPayload<R> extends EventSink<R, RowWithPayload<R>> {
    private static final long serialVersionUID = 1L;

    private RowsKeepingPayload(Format<R> format) {
      super(format);
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
      return format().coderKeepingPayload(schemas);
    }

    @Override
    public BigQueryIO.Write<RowWithPayload<R>> write(EventSchemas schemas) {
      return format().writeKeepingPayload(schemas);
    }

    @Override
    public BigQueryIO.Write<ToTable<RowWithPayload<R>>> writeToTables(
        List<EventSchemas> schemas, List<String> structs) {
      return format().writeToTablesKeepingPayload(schemas, structs);
    }
  }
}
