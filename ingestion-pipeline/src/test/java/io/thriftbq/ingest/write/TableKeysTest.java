package io.thriftbq.ingest.write;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.SchemaUpdate;
import io.thriftbq.ingest.testing.FakeBigQuery;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** Change mode's tables at launch: created with the key and staleness, an existing key checked. */
public class TableKeysTest {
  private static final TableSchema SCHEMA =
      new TableSchema()
          .setFields(
              List.of(
                  new TableFieldSchema().setName("id").setType("STRING").setMode("REQUIRED"),
                  new TableFieldSchema().setName("tenant").setType("INTEGER")));

  private static final TableSetup.Key KEY =
      new TableSetup.Key(List.of("tenant", "id"), "0-0 0 0:15:0");

  private static TableReference ref(String table) {
    return new TableReference()
        .setProjectId(FakeBigQuery.PROJECT)
        .setDatasetId(FakeBigQuery.DATASET)
        .setTableId(table);
  }

  private static List<String> setUp(FakeBigQuery fake, boolean createMissing) {
    return new TableSetup(
            SchemaUpdate.NONE,
            createMissing,
            List.of(
                new TableSetup.Table(
                    FakeBigQuery.tableSpec(fake.events), SCHEMA, TableLayout.NONE, true, KEY)))
        .run(
            PipelineOptionsFactory.fromArgs("--project=" + FakeBigQuery.PROJECT)
                .as(IngestionOptions.class),
            fake.services);
  }

  @Test
  public void aCreatedTableDeclaresTheKeyAndTheStaleness() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    setUp(fake, true);
    Table created = fake.datasets.getTable(ref(fake.events));
    assertEquals(
        List.of("tenant", "id"), created.getTableConstraints().getPrimaryKey().getColumns());
    assertEquals("0-0 0 0:15:0", created.getMaxStaleness());
  }

  @Test
  public void anExistingTableWithTheSameKeyIsAccepted() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    fake.datasets.createTable(
        new Table()
            .setTableReference(ref(fake.events))
            .setSchema(SCHEMA)
            .setTableConstraints(TableKeys.constraints(KEY)));
    setUp(fake, false);
  }

  @Test
  public void anExistingTableWithoutTheKeyOrWithAnotherIsRefusedNamingTheFlag() throws Exception {
    FakeBigQuery fake = FakeBigQuery.create();
    fake.datasets.createTable(new Table().setTableReference(ref(fake.events)).setSchema(SCHEMA));
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> setUp(fake, true));
    assertThat(none.getMessage(), containsString("exists without a primary key"));
    assertThat(none.getMessage(), containsString("--primaryKey"));
    assertThat(none.getMessage(), containsString("ADD PRIMARY KEY (tenant, id) NOT ENFORCED"));

    FakeBigQuery other = FakeBigQuery.create();
    other.datasets.createTable(
        new Table()
            .setTableReference(ref(other.events))
            .setSchema(SCHEMA)
            .setTableConstraints(TableKeys.constraints(new TableSetup.Key(List.of("id"), null))));
    IllegalArgumentException differs =
        assertThrows(IllegalArgumentException.class, () -> setUp(other, false));
    assertThat(differs.getMessage(), containsString("exists with primary key [id]"));
    assertThat(differs.getMessage(), containsString("DROP PRIMARY KEY"));
  }
}
