package io.thriftbq.local;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.SchemaUpdate;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.write.EvolveTableSchema;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.schema.ThriftSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Schema evolution at launch against the BigQuery emulator: a table created from version 1 of an
 * IDL gains the optional fields of version 2 through BigQuery's REST API.
 */
public class SchemaEvolutionEndToEndTest {
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private Path idl(String name, String text) throws Exception {
    Path file = temp.getRoot().toPath().resolve(name);
    Files.writeString(file, text);
    return file;
  }

  @Test
  public void newOptionalFieldsAreAddedToTheEmulatorsTable() throws Exception {
    EmulatorStack stack = SharedEmulators.get();
    String table = "evolving_" + System.nanoTime();
    Path v1 =
        idl("v1.thrift", "struct Ev {\n  1: required string id,\n  2: required i32 level,\n}\n");
    Path v2 =
        idl(
            "v2.thrift",
            "struct Ev {\n  1: required string id,\n  2: optional i32 level,\n"
                + "  3: optional string note,\n  4: optional list<i64> xs,\n}\n");
    EmulatorTables.create(
        stack, RunTables.forOutputTable(table), List.of("--thriftIdl=" + v1, "--thriftStruct=Ev"));

    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(
                "--project=" + stack.bigquery().project(),
                "--credentialFactoryClass=" + IngestionArgs.NOOP_CREDENTIALS,
                "--bigQueryEndpoint=" + stack.bigquery().restEndpoint())
            .as(IngestionOptions.class);
    TableSchema wanted =
        EventSchemas.of(ThriftSource.idl(v2.toString(), List.of(), "Ev"), MetadataColumns.ALL)
            .tableSchema();
    String spec = stack.bigquery().project() + ":" + LocalRunConfig.DATASET + "." + table;
    assertThrows(
        IllegalArgumentException.class,
        () -> EvolveTableSchema.apply(options, spec, wanted, SchemaUpdate.FAIL, null, null));

    List<String> changes =
        EvolveTableSchema.apply(options, spec, wanted, SchemaUpdate.ADD_COLUMNS, null, null);
    assertEquals(
        List.of(
            "level: relax REQUIRED to NULLABLE",
            "note: add NULLABLE STRING",
            "xs: add REPEATED INTEGER"),
        changes);
    TableSchema now;
    try (BigQueryServices.DatasetService datasets =
        new BigQueryServicesImpl().getDatasetService(options)) {
      now =
          datasets
              .getTable(
                  new TableReference()
                      .setProjectId(stack.bigquery().project())
                      .setDatasetId(LocalRunConfig.DATASET)
                      .setTableId(table))
              .getSchema();
    }
    List<String> columns =
        now.getFields().stream()
            .map(f -> f.getName() + " " + f.getMode())
            .collect(Collectors.toList());
    assertEquals(
        List.of(
            "id REQUIRED",
            "level NULLABLE",
            "_message_id NULLABLE",
            "_publish_time NULLABLE",
            "_attributes REPEATED",
            "note NULLABLE",
            "xs REPEATED"),
        columns);
    assertEquals(
        "a second launch finds nothing to change",
        List.of(),
        EvolveTableSchema.apply(options, spec, wanted, SchemaUpdate.FAIL, null, null));
  }
}
