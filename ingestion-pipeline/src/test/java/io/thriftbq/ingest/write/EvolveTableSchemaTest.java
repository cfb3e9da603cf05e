package io.thriftbq.ingest.write;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.SchemaUpdate;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.schema.ThriftSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Schema evolution at launch, on Beam's fake BigQuery, with the IDL as the source of the change.
 */
public class EvolveTableSchemaTest {
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static final String V1 =
      "struct Ev {\n  1: required string id,\n  2: optional i64 n,\n  3: required i32 level,\n}\n";

  private TableSchema schemaOf(String idl) throws Exception {
    Path file = temp.newFile("v" + System.nanoTime() + ".thrift").toPath();
    Files.writeString(file, idl);
    return EventSchemas.of(ThriftSource.idl(file.toString(), List.of(), "Ev"), MetadataColumns.NONE)
        .tableSchema();
  }

  private FakeBigQuery tableWith(TableSchema schema) throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    fake.datasets.createTable(
        new Table()
            .setTableReference(
                new TableReference()
                    .setProjectId(FakeBigQuery.PROJECT)
                    .setDatasetId(FakeBigQuery.DATASET)
                    .setTableId(fake.events))
            .setSchema(schema));
    return fake;
  }

  private static TableSchema current(FakeBigQuery fake) throws Exception {
    return fake.datasets
        .getTable(
            new TableReference()
                .setProjectId(FakeBigQuery.PROJECT)
                .setDatasetId(FakeBigQuery.DATASET)
                .setTableId(fake.events))
        .getSchema();
  }

  private static List<String> apply(FakeBigQuery fake, TableSchema wanted, SchemaUpdate mode) {
    return EvolveTableSchema.apply(
        PipelineOptionsFactory.fromArgs("--project=" + FakeBigQuery.PROJECT)
            .as(IngestionOptions.class),
        FakeBigQuery.tableSpec(fake.events),
        wanted,
        mode,
        fake.services,
        fake.datasets::updateTableSchema);
  }

  @Test
  public void newOptionalFieldsBecomeNullableColumnsAndRelaxedFieldsNullable() throws Exception {
    FakeBigQuery fake = tableWith(schemaOf(V1));
    TableSchema v2 =
        schemaOf(
            "struct Inner { 1: optional string a }\n"
                + "struct Ev {\n  1: required string id,\n  2: optional i64 n,\n"
                + "  3: optional i32 level,\n  4: optional Inner inner,\n  5: optional list<i64> xs,\n}\n");
    List<String> changes = apply(fake, v2, SchemaUpdate.ADD_COLUMNS);
    assertEquals(
        List.of(
            "level: relax REQUIRED to NULLABLE",
            "inner: add NULLABLE RECORD",
            "xs: add REPEATED INTEGER"),
        changes);
    TableSchema now = current(fake);
    assertEquals(5, now.getFields().size());
    assertEquals("NULLABLE", now.getFields().get(2).getMode());
    assertEquals("inner", now.getFields().get(3).getName());
    assertTrue(
        "a second launch changes nothing", apply(fake, v2, SchemaUpdate.ADD_COLUMNS).isEmpty());
  }

  @Test
  public void incompatibleChangesFailWithTheColumnByColumnDifference() throws Exception {
    FakeBigQuery fake = tableWith(schemaOf(V1));
    TableSchema before = current(fake);
    TableSchema v2 =
        schemaOf(
            "struct Ev {\n  1: required string id,\n  2: optional string n,\n"
                + "  4: required bool urgent,\n  5: optional string note,\n}\n");
    String message =
        assertThrows(
                IllegalArgumentException.class, () -> apply(fake, v2, SchemaUpdate.ADD_COLUMNS))
            .getMessage();
    assertThat(message, containsString("n: type INTEGER in the table, STRING in the IDL"));
    assertThat(message, containsString("level: REQUIRED in the table but not in the IDL"));
    assertThat(message, containsString("urgent: new REQUIRED column"));
    assertThat(message, containsString("note: add NULLABLE STRING"));
    assertEquals("nothing applied", before, current(fake));
  }

  @Test
  public void failRefusesAnyDifferenceAndNoneDoesNotLook() throws Exception {
    FakeBigQuery fake = tableWith(schemaOf(V1));
    TableSchema v2 =
        schemaOf(
            "struct Ev {\n  1: required string id,\n  2: optional i64 n,\n  3: required i32 level,\n"
                + "  4: optional string note,\n}\n");
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> apply(fake, v2, SchemaUpdate.FAIL))
            .getMessage(),
        containsString("note: add NULLABLE STRING"));
    assertTrue(apply(fake, v2, SchemaUpdate.NONE).isEmpty());
    assertEquals(3, current(fake).getFields().size());
  }

  @Test
  public void aMissingTableIsLeftToBigQueryIo() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    assertTrue(apply(fake, schemaOf(V1), SchemaUpdate.FAIL).isEmpty());
  }

  @Test
  public void nestedRecordsGainFieldsToo() {
    TableSchema old =
        new TableSchema()
            .setFields(
                List.of(
                    new TableFieldSchema()
                        .setName("s")
                        .setType("RECORD")
                        .setMode("NULLABLE")
                        .setFields(
                            List.of(
                                new TableFieldSchema()
                                    .setName("a")
                                    .setType("STRING")
                                    .setMode("REQUIRED")))));
    TableSchema wanted =
        new TableSchema()
            .setFields(
                List.of(
                    new TableFieldSchema()
                        .setName("s")
                        .setType("RECORD")
                        .setMode("NULLABLE")
                        .setFields(
                            List.of(
                                new TableFieldSchema()
                                    .setName("a")
                                    .setType("STRING")
                                    .setMode("REQUIRED"),
                                new TableFieldSchema()
                                    .setName("b")
                                    .setType("INT64")
                                    .setMode("NULLABLE")))));
    TableSchemaDiff diff = TableSchemaDiff.between(old, wanted);
    assertEquals(List.of("s.b: add NULLABLE INT64"), diff.changes());
    assertEquals(2, diff.merged().getFields().get(0).getFields().size());
  }
}
