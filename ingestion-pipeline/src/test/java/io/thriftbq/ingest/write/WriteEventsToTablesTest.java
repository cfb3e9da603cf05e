package io.thriftbq.ingest.write;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.Clustering;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TimePartitioning;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.ingest.plan.TypePlan;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.ShopEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.display.HasDisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TimestampedValue.TimestampedValueCoder;
import org.joda.time.Instant;
import org.junit.Test;

/** One BigQueryIO write for several structs' tables (Beam's fake BigQuery). */
public class WriteEventsToTablesTest {
  @SuppressWarnings("unchecked")
  private static final Format<TableRow> TABLE_ROWS =
      (Format<TableRow>) Format.of(StorageFormat.TABLE_ROW);

  private final ShopEvents shop = new ShopEvents(ThriftProtocol.BINARY);

  @Test
  public void oneWriteWhereEachTableHasItsSchemaAndEveryRejectionIsTraced() {
    for (StorageFormat id : StorageFormat.values()) {
      for (WriteMethod method : WriteMethod.values()) {
        Format<?> format = Format.of(id).forMethod(method);
        boolean schemaPerTable =
            format.id() == StorageFormat.TABLE_ROW
                || format.id() == StorageFormat.AVRO_GENERIC_RECORD;
        assertEquals(
            id + "/" + method + ", kept payloads",
            schemaPerTable,
            WriteEventsToTables.canWrite(EventSink.of(format, true), method));
        assertEquals(
            id + "/" + method + ": a Storage API rejection names no table",
            schemaPerTable && method == WriteMethod.STREAMING_INSERTS,
            WriteEventsToTables.canWrite(EventSink.of(format, false), method));
      }
    }
  }

  @Test
  public void createsEachTableWithItsOwnSchemaAndLayoutAndWritesItsRowsThere() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    List<TypePlan> types = plan(fake).types();
    TimePartitioning daily = new TimePartitioning().setType("DAY");
    Clustering byRefund = new Clustering().setFields(List.of("refund_id"));
    List<TableLayout> layouts =
        List.of(new TableLayout(daily, null), new TableLayout(null, byRefund));
    List<WriteEventsToTables.StructTable> tables = new ArrayList<>();
    Pipeline pipeline = Pipeline.create(options(fake));
    PCollectionList<TimestampedValue<TableRow>> rows = PCollectionList.empty(pipeline);
    for (int type = 0; type < 2; type++) {
      TypePlan plan = types.get(type);
      WriteSettings settings =
          new WriteSettings(
              plan.table(),
              WriteMethod.STREAMING_INSERTS,
              false,
              null,
              0,
              null,
              false,
              true,
              layouts.get(type));
      tables.add(new WriteEventsToTables.StructTable(plan.name(), plan.schemas(), settings));
      rows = rows.and(pipeline.apply("Rows" + type, create(plan, type)));
    }
    PCollection<DeadLetter> rejected =
        rows.apply(
            WriteEventsToTables.of(EventSink.of(TABLE_ROWS), tables)
                .withTestServices(fake.services));
    PAssert.that(rejected).empty();
    pipeline.run().waitUntilFinish();

    for (int type = 0; type < 2; type++) {
      TypePlan plan = types.get(type);
      String table = fake.events + "_" + ShopEvents.TABLES.get(type);
      Table created =
          fake.datasets.getTable(
              new TableReference()
                  .setProjectId(FakeBigQuery.PROJECT)
                  .setDatasetId(FakeBigQuery.DATASET)
                  .setTableId(table));
      assertEquals(table + " schema", plan.schemas().tableSchema(), created.getSchema());
      assertEquals(
          table + " partitioning",
          layouts.get(type).timePartitioning(),
          created.getTimePartitioning());
      assertEquals(table + " clustering", layouts.get(type).clustering(), created.getClustering());
      List<TableRow> written = fake.rows(table);
      assertEquals(table + " rows", 2, written.size());
      for (TableRow row : written) {
        assertTrue(
            table + " holds its struct's rows: " + row,
            row.containsKey(ShopEvents.ID_COLUMNS.get(type)));
        for (String column : row.keySet()) {
          assertTrue(
              table + " holds only its own columns: " + column,
              plan.schemas().tableSchema().getFields().stream()
                  .anyMatch(field -> field.getName().equals(column)));
        }
      }
    }
  }

  @Test
  public void refusesTablesWhoseSettingsDifferBeyondNameAndLayout() {
    String message =
        refusal(
            (table, type) ->
                WriteSettings.of(
                    table,
                    type == 0
                        ? WriteMethod.STREAMING_INSERTS
                        : WriteMethod.STORAGE_API_AT_LEAST_ONCE));
    assertTrue(message, message.contains("share every setting but their name and layout"));
  }

  @Test
  public void refusesAStorageApiWriteWhoseRejectionsCannotBeTraced() {
    String message =
        refusal((table, type) -> WriteSettings.of(table, WriteMethod.STORAGE_API_AT_LEAST_ONCE));
    assertTrue(message, message.contains("without kept payloads"));
    assertTrue(message, message.contains("WriteEvents.forStruct"));
  }

  @Test
  public void displayDataSaysWhetherTheRowsAreHandedOffToTheWrite() {
    FakeBigQuery fake = FakeBigQuery.create();
    TypePlan order = plan(fake).types().get(0);
    for (boolean handOff : new boolean[] {false, true}) {
      int writers = handOff ? 3 : 1;
      WriteSettings settings =
          WriteSettings.of(order.table(), WriteMethod.STORAGE_API_AT_LEAST_ONCE)
              .withHandOff(handOff)
              .withHandOffWriters(writers);
      EventSink<TableRow, ?> sink = EventSink.keepingPayload(TABLE_ROWS);
      WriteEvents<TableRow, ?> one = WriteEvents.of(sink, order.schemas(), settings);
      WriteEventsToTables<TableRow, ?> several =
          WriteEventsToTables.of(
              sink,
              List.of(
                  new WriteEventsToTables.StructTable(order.name(), order.schemas(), settings)));
      assertEquals("one struct's write", handOff, displayed(one, "handOffBeforeWrite"));
      assertEquals(
          "the write of several tables", handOff, displayed(several, "handOffBeforeWrite"));
      assertEquals("one struct's writers", (long) writers, displayed(one, "handOffWriters"));
      assertEquals(
          "the writers of several tables", (long) writers, displayed(several, "handOffWriters"));
    }
  }

  /** The value {@code transform} displays under {@code key}; fails when it displays none. */
  private static Object displayed(HasDisplayData transform, String key) {
    return DisplayData.from(transform).items().stream()
        .filter(item -> item.getKey().equals(key))
        .map(DisplayData.Item::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no display item " + key));
  }

  /**
   * The message of the error that applying one write of plain TableRows to Order's and Refund's
   * tables, with {@code settings} per (table, type index), raises.
   */
  private String refusal(BiFunction<String, Integer, WriteSettings> settings) {
    FakeBigQuery fake = FakeBigQuery.create();
    List<TypePlan> types = plan(fake).types();
    Pipeline pipeline = Pipeline.create(options(fake));
    List<WriteEventsToTables.StructTable> tables = new ArrayList<>();
    PCollectionList<TimestampedValue<TableRow>> rows = PCollectionList.empty(pipeline);
    for (int type = 0; type < 2; type++) {
      TypePlan plan = types.get(type);
      tables.add(
          new WriteEventsToTables.StructTable(
              plan.name(), plan.schemas(), settings.apply(plan.table(), type)));
      rows = rows.and(pipeline.apply("Rows" + type, create(plan, type)));
    }
    PCollectionList<TimestampedValue<TableRow>> input = rows;
    return assertThrows(
            IllegalArgumentException.class,
            () ->
                input.apply(
                    WriteEventsToTables.of(EventSink.of(TABLE_ROWS), tables)
                        .withTestServices(fake.services)))
        .getMessage();
  }

  /** Two rows of {@code type}, converted from generated events. */
  private Create.Values<TimestampedValue<TableRow>> create(TypePlan plan, int type) {
    var converter = TABLE_ROWS.newConverter(plan.decoding());
    List<TimestampedValue<TableRow>> rows = new ArrayList<>();
    for (int sequence = type; rows.size() < 2; sequence += ShopEvents.STRUCTS.size()) {
      try {
        rows.add(
            TimestampedValue.of(
                converter.fromBytes(shop.struct(sequence), EventMetadata.EMPTY),
                new Instant(1_700_000_000_000L + sequence)));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    return Create.of(rows).withCoder(TimestampedValueCoder.of(TableRowJsonCoder.of()));
  }

  private static IngestionPlan plan(FakeBigQuery fake) {
    return IngestionPlan.of(options(fake), IngestionPlan.Input.BOUNDED_MESSAGES);
  }

  private static IngestionOptions options(FakeBigQuery fake) {
    return PipelineOptionsFactory.fromArgs(
            "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory",
            "--project=" + FakeBigQuery.PROJECT,
            "--runner=DirectRunner",
            "--outputTable=" + fake.eventsSpec() + "_{struct}",
            "--thriftIdl=" + ShopEvents.IDL,
            "--thriftStructs=Order,Refund")
        .withValidation()
        .as(IngestionOptions.class);
  }
}
