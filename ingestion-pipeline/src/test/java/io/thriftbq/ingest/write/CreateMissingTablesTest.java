package io.thriftbq.ingest.write;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import com.google.api.services.bigquery.model.Clustering;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.api.services.bigquery.model.TimePartitioning;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.testing.FakeBigQuery;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** Tables created at launch (Beam's fake BigQuery). */
public class CreateMissingTablesTest {
  private static final TableSchema SCHEMA =
      new TableSchema()
          .setFields(
              List.of(
                  new TableFieldSchema().setName("id").setType("STRING").setMode("REQUIRED"),
                  new TableFieldSchema().setName("at").setType("TIMESTAMP")));

  private static TableReference ref(String table) {
    return new TableReference()
        .setProjectId(FakeBigQuery.PROJECT)
        .setDatasetId(FakeBigQuery.DATASET)
        .setTableId(table);
  }

  private static List<String> apply(FakeBigQuery fake, List<CreateMissingTables.Wanted> wanted) {
    return CreateMissingTables.apply(
        PipelineOptionsFactory.fromArgs("--project=" + FakeBigQuery.PROJECT)
            .as(IngestionOptions.class),
        wanted,
        fake.services);
  }

  @Test
  public void createsOnlyTheMissingTablesWithTheirSchemaAndLayout() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    TableSchema existingSchema =
        new TableSchema()
            .setFields(List.of(new TableFieldSchema().setName("other").setType("INT64")));
    fake.datasets.createTable(
        new Table().setTableReference(ref(fake.events)).setSchema(existingSchema));
    TimePartitioning daily = new TimePartitioning().setType("DAY").setField("at");
    Clustering byId = new Clustering().setFields(List.of("id"));

    List<String> created =
        apply(
            fake,
            List.of(
                new CreateMissingTables.Wanted(
                    FakeBigQuery.tableSpec(fake.events), SCHEMA, daily, byId),
                new CreateMissingTables.Wanted(
                    // without a project: the one of the options
                    FakeBigQuery.DATASET + "." + fake.deadLetters, SCHEMA, daily, byId)));

    assertEquals(List.of(FakeBigQuery.DATASET + "." + fake.deadLetters), created);
    Table events = fake.datasets.getTable(ref(fake.events));
    assertEquals("an existing table is left as it is", existingSchema, events.getSchema());
    assertNull(events.getTimePartitioning());
    Table deadLetters = fake.datasets.getTable(ref(fake.deadLetters));
    assertEquals(SCHEMA, deadLetters.getSchema());
    assertEquals(daily, deadLetters.getTimePartitioning());
    assertEquals(byId, deadLetters.getClustering());
    assertEquals(
        "a second launch creates nothing",
        List.of(),
        apply(
            fake,
            List.of(
                new CreateMissingTables.Wanted(
                    FakeBigQuery.tableSpec(fake.deadLetters), SCHEMA, null, null))));
  }
}
