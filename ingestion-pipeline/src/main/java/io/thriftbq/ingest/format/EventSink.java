package io.thriftbq.ingest.format;

import io.thriftbq.ingest.change.ChangeException;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.change.ColumnReader;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

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
   * {@link #write}, in change mode when {@code change} is not null: a format whose rows carry their
   * change ({@link Format#carriesChangeInRow}, PROTO_MESSAGE) needs nothing more; the others give
   * BigQueryIO a row mutation function, which reads the change from the row and its message's
   * metadata, so their elements must keep the payload and metadata.
   */
  public BigQueryIO.Write<E> write(EventSchemas schemas, @Nullable ChangeRule change) {
    BigQueryIO.Write<E> write = write(schemas);
    if (change == null || format.carriesChangeInRow()) {
      return write;
    }
    return write.withRowMutationInformationFn(mutations(List.of(change)));
  }

  /** {@link #writeToTables} in change mode: {@code changes} by table index. */
  public BigQueryIO.Write<ToTable<E>> writeToTables(
      List<EventSchemas> schemas, List<String> structs, @Nullable List<ChangeRule> changes) {
    BigQueryIO.Write<ToTable<E>> write = writeToTables(schemas, structs);
    if (changes == null || format.carriesChangeInRow()) {
      return write;
    }
    return write.withRowMutationInformationFn(new ToTableMutations<>(mutations(changes)));
  }

  /** The row mutation function of these elements; only where they keep their metadata. */
  SerializableFunction<E, RowMutationInformation> mutations(List<ChangeRule> changes) {
    throw new IllegalStateException(
        "Change mode with "
            + format
            + " reads each change from the row and its message's metadata, which only elements"
            + " keeping their payload carry; the plan makes such a sink");
  }

  /** {@link #applying} in change mode. */
  public <T> T applying(EventSchemas schemas, @Nullable ChangeRule change, Supplier<T> apply) {
    return format.applying(schemas, change != null, apply);
  }

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

    @Override
    SerializableFunction<RowWithPayload<R>, RowMutationInformation> mutations(
        List<ChangeRule> changes) {
      return new Mutations<>(changes, format().columnReader());
    }
  }

  /**
   * Each element's change, as BigQueryIO asks for it: decided from the row and its message's
   * metadata by the struct's rule, as the decoder decided it (which dead-lettered every element
   * that makes no change, so this does not fail).
   */
  private static final class Mutations<R>
      implements SerializableFunction<RowWithPayload<R>, RowMutationInformation> {
    private static final long serialVersionUID = 1L;
    private final List<ChangeRule> changes;
    private final ColumnReader<R> reader;

    Mutations(List<ChangeRule> changes, ColumnReader<R> reader) {
      this.changes = List.copyOf(changes);
      this.reader = reader;
    }

    RowMutationInformation of(RowWithPayload<R> element, int tableIndex) {
      try {
        return changes.get(tableIndex).decide(element.row(), reader, element.metadata()).mutation();
      } catch (ChangeException e) {
        throw new IllegalStateException(
            "an element that makes no change reached the write: " + e.getMessage(), e);
      }
    }

    @Override
    public RowMutationInformation apply(RowWithPayload<R> element) {
      return of(element, 0);
    }
  }

  /** {@link Mutations} of elements naming their table. */
  private static final class ToTableMutations<E>
      implements SerializableFunction<ToTable<E>, RowMutationInformation> {
    private static final long serialVersionUID = 1L;
    private final SerializableFunction<E, RowMutationInformation> mutations;

    ToTableMutations(SerializableFunction<E, RowMutationInformation> mutations) {
      this.mutations = mutations;
    }

    @Override
    @SuppressWarnings("unchecked")
    public RowMutationInformation apply(ToTable<E> element) {
      if (mutations instanceof Mutations<?> byTable) {
        return ((Mutations<Object>) byTable)
            .of((RowWithPayload<Object>) element.element(), element.table());
      }
      return mutations.apply(element.element());
    }
  }
}
