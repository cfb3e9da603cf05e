package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.format.ToTable;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollection.IsBounded;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TimestampedValue;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes the events of several structs, each to its own table, with one BigQueryIO write (dynamic
 * destinations), and returns the rows BigQuery rejected as WRITE dead letters naming their struct
 * and table. The input holds one collection per struct, in the order of the tables given.
 *
 * <p>Why one write rather than one per struct ({@link WriteEvents#forStruct}): a write of the
 * Storage API at-least-once waits for its appends at the end of every bundle, and writes fused in
 * one stage wait one after another, so a bundle of N structs waits N round trips; one write waits
 * once for all its tables. It also keeps the job graph from growing with every struct's write
 * steps. It applies where both hold ({@link #canWrite}):
 *
 * <ul>
 *   <li>the format gives each table its own schema in one write ({@code Format#hasSchemaPerTable}:
 *       TableRows and Avro records; not Beam Rows, not direct protos);
 *   <li>every rejected row can be traced to its table: a streaming insert's rejection names it; a
 *       Storage API rejection does not, so it needs {@code --keepPayloadForWriteFailures}, whose
 *       fail-safe row names the struct.
 * </ul>
 *
 * Every table shares the write's settings but its name and layout ({@link WriteSettings#table},
 * {@link WriteSettings#layout}), as a many-types plan gives them.
 *
 * @param <R> the row type
 * @param <E> the element type, see {@link EventSink}
 */
public final class WriteEventsToTables<R, E>
    extends PTransform<PCollectionList<TimestampedValue<E>>, PCollection<DeadLetter>> {

  /**
   * One struct's table in the write.
   *
   * @param struct the struct's IDL name
   * @param schemas the schemas of its rows
   * @param settings its table, layout and the write's shared knobs
   */
  public record StructTable(String struct, EventSchemas schemas, WriteSettings settings) {
    public StructTable {
      Objects.requireNonNull(struct, "struct");
      Objects.requireNonNull(schemas, "schemas");
      Objects.requireNonNull(settings, "settings");
    }
  }

  private final EventSink<R, E> sink;
  private final List<StructTable> tables;
  private final @Nullable BigQueryServices testServices;

  private WriteEventsToTables(
      EventSink<R, E> sink, List<StructTable> tables, @Nullable BigQueryServices testServices) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.tables = List.copyOf(tables);
    this.testServices = testServices;
  }

  /** Whether one write can take every struct's rows with this sink and method (see above). */
  public static boolean canWrite(EventSink<?, ?> sink, WriteMethod method) {
    return whyNot(sink, method) == null;
  }

  /**
   * Why one write cannot take every struct's rows with this sink and method, naming what to change
   * where something can be; null when it can.
   */
  public static @Nullable String whyNot(EventSink<?, ?> sink, WriteMethod method) {
    boolean rejectionsNameTheirTable =
        method == WriteMethod.STREAMING_INSERTS || sink.keepsPayload();
    if (!sink.format().hasSchemaPerTable()) {
      return sink.format()
          + " has one schema per BigQuery write: --formatToStore=AVRO_GENERIC_RECORD or TABLE_ROW"
          + (rejectionsNameTheirTable ? "" : " with --keepPayloadForWriteFailures=true")
          + " writes every table with one write (a bundle then waits for its appends once, not"
          + " once per struct)";
    }
    if (!rejectionsNameTheirTable) {
      return "a "
          + method
          + " rejection does not name its table: set --keepPayloadForWriteFailures=true, whose"
          + " fail-safe row names the struct, to write every table with one write";
    }
    return null;
  }

  /** Writes {@code sink}'s elements to {@code tables}, one input collection per table. */
  public static <R, E> WriteEventsToTables<R, E> of(
      EventSink<R, E> sink, List<StructTable> tables) {
    return new WriteEventsToTables<>(sink, tables, null);
  }

  /** BigQuery services to use instead of the real ones: Beam's fakes, or local mode's. */
  public WriteEventsToTables<R, E> withTestServices(@Nullable BigQueryServices services) {
    return new WriteEventsToTables<>(sink, tables, services);
  }

  @Override
  public PCollection<DeadLetter> expand(PCollectionList<TimestampedValue<E>> input) {
    checkArgument(!tables.isEmpty(), "Cannot write events: no tables");
    checkArgument(
        input.size() == tables.size(),
        "Cannot write events: %s collections for %s tables",
        input.size(),
        tables.size());
    WriteSettings shared = tables.get(0).settings();
    checkArgument(
        canWrite(sink, shared.method()),
        "One write cannot take %s rows with %s%s: write each struct with WriteEvents.forStruct",
        sink.format(),
        shared.method(),
        sink.keepsPayload() ? "" : " without kept payloads");
    boolean unbounded = input.get(0).isBounded() == IsBounded.UNBOUNDED;
    List<String> problems = shared.problems(!unbounded);
    checkArgument(problems.isEmpty(), "Cannot write events: %s", problems);
    List<String> structs = new ArrayList<>();
    List<String> tableNames = new ArrayList<>();
    List<EventSchemas> schemas = new ArrayList<>();
    List<WriteSettings> settings = new ArrayList<>();
    List<TableSchema> tableSchemas = new ArrayList<>();
    List<ChangeRule> changes = new ArrayList<>();
    for (StructTable table : tables) {
      checkArgument(
          sameKnobs(shared, table.settings()),
          "Cannot write events: the tables of one write share every setting but their name and"
              + " layout; %s has %s, %s has %s",
          tables.get(0).struct(),
          shared,
          table.struct(),
          table.settings());
      checkArgument(
          !tableNames.contains(table.settings().table()),
          "Cannot write events: two structs write to %s",
          table.settings().table());
      structs.add(table.struct());
      tableNames.add(table.settings().table());
      schemas.add(table.schemas());
      settings.add(table.settings());
      tableSchemas.add(table.schemas().tableSchema());
      if (table.settings().change() != null) {
        changes.add(table.settings().change());
      }
    }
    checkArgument(
        changes.isEmpty() || changes.size() == tables.size(),
        "Cannot write events: change mode applies to every table of a write or to none");
    MetadataColumns metadataColumns = tables.get(0).schemas().metadataColumns();

    Coder<ToTable<E>> coder = sink.toTableCoder(schemas);
    PCollectionList<ToTable<E>> handed = PCollectionList.empty(input.getPipeline());
    for (int i = 0; i < tables.size(); i++) {
      String struct = structs.get(i);
      handed =
          handed.and(
              input
                  .get(i)
                  .apply("HandToSink_" + struct, ParDo.of(HandToSinkFn.<E>toTable(struct, i)))
                  .setCoder(coder));
    }
    PCollection<ToTable<E>> elements =
        handed.apply("AllTables", Flatten.pCollections()).setCoder(coder);
    BigQueryIO.Write<ToTable<E>> write =
        WriteEvents.withSharedSettings(
            sink.writeToTables(schemas, structs, changes.isEmpty() ? null : changes)
                .to(StructTableDestinations.<E>of(settings, tableSchemas)),
            shared,
            unbounded,
            testServices);
    if (!changes.isEmpty()) {
      // BigQueryIO gives tables it creates for dynamic destinations no primary key: in change mode
      // launch creates every table with its own (TableSetup).
      write = write.withCreateDisposition(BigQueryIO.Write.CreateDisposition.CREATE_NEVER);
    }
    BigQueryIO.Write<ToTable<E>> configured = write;
    FailedRows.ToDeadLetter toDeadLetter =
        new FailedRows.ToDeadLetter(metadataColumns, sink.keepsPayload());
    FailedRows.WrittenTables written = FailedRows.WrittenTables.of(structs, tableNames);
    Function<PCollection<ToTable<E>>, PCollection<DeadLetter>> writer =
        rows ->
            WriteEvents.rejectedRows(
                rows.apply("WriteToBigQuery", configured), shared.method(), toDeadLetter, written);
    return shared.handOff()
        ? HandOff.toWriters(elements, shared.handOffWriters(), writer)
        : writer.apply(elements);
  }

  /** Whether {@code a} and {@code b} differ at most in their table and layout. */
  private static boolean sameKnobs(WriteSettings a, WriteSettings b) {
    return a.equals(
        new WriteSettings(
            a.table(),
            b.method(),
            b.autoSharding(),
            b.triggeringFrequencySec(),
            b.numStorageWriteApiStreams(),
            b.numStreamingKeys(),
            b.connectionPool(),
            b.createTable(),
            a.layout(),
            a.change(),
            b.handOff(),
            b.handOffWriters()));
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    WriteSettings shared = tables.get(0).settings();
    builder
        .add(
            DisplayData.item(
                "outputTables",
                String.join(",", tables.stream().map(t -> t.settings().table()).toList())))
        .add(DisplayData.item("formatToStore", sink.format().id().name()))
        .add(DisplayData.item("bigQueryWriteMethod", shared.method().name()))
        .add(DisplayData.item("autoSharding", shared.autoSharding()))
        .add(DisplayData.item("createTable", shared.createTable()))
        .add(DisplayData.item("keepPayloadForWriteFailures", sink.keepsPayload()))
        .add(DisplayData.item("handOffBeforeWrite", shared.handOff()))
        .add(DisplayData.item("handOffWriters", shared.handOffWriters()));
  }
}
