package io.thriftbq.local.run;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.schema.EventTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Creates a run's tables in the BigQuery emulator up front, through Beam's own BigQuery client.
 * Needed with {@code --useStorageApiConnectionPool}: the pooled writer looks the table up before
 * BigQueryIO's create-if-needed path runs, and that lookup fails on a missing table.
 */
public final class EmulatorTables {
  private EmulatorTables() {}

  /** Creates the tables of the sample event's run. */
  public static void create(EmulatorStack stack, RunTables tables) throws Exception {
    create(stack, tables, LocalRunConfig.defaults().ingestionStructArgs());
  }

  /**
   * Creates each missing table: event tables with the schema derived from the struct that {@code
   * structArgs} (ingestion flags) name, with the metadata columns they switch on (the Pub/Sub ones
   * when they switch on none, as the Pub/Sub runs do), dead-letter tables with the dead-letter
   * schema.
   */
  public static void create(EmulatorStack stack, RunTables tables, List<String> structArgs)
      throws Exception {
    IngestionOptions options = adminOptions(stack, structArgs);
    MetadataColumns metadata = metadataColumns(options);
    EventTypes types =
        EventTypes.choose(options, "--thriftClassName", options.getThriftClassName(), false);
    try (BigQueryServices.DatasetService datasets =
        new BigQueryServicesImpl().getDatasetService(options)) {
      for (RunTables.Table table : tables.all()) {
        TableSchema schema;
        if (table.kind() == RunTables.Kind.DEAD_LETTERS) {
          schema = DeadLetterSchema.tableSchema();
        } else {
          EventTypes.EventType type =
              table.struct() == null ? types.types().get(0) : types.byName(table.struct());
          if (type == null) {
            throw new IllegalArgumentException(
                "table " + table.name() + ": no struct " + table.struct() + " in " + structArgs);
          }
          schema = EventSchemas.of(type.source(), metadata).tableSchema();
        }
        createIfMissing(datasets, stack, table.name(), schema);
      }
    }
  }

  /**
   * The metadata columns that a run's ingestion flags switch on, as the event tables {@link
   * #create} makes have them: the Pub/Sub ones when the flags switch on none, as the Pub/Sub runs
   * do.
   */
  public static MetadataColumns metadataColumns(List<String> ingestionArgs) {
    return metadataColumns(
        PipelineOptionsFactory.fromArgs(ingestionArgs.toArray(new String[0]))
            .as(IngestionOptions.class));
  }

  private static MetadataColumns metadataColumns(IngestionOptions options) {
    return MetadataColumns.of(options).any() ? MetadataColumns.of(options) : MetadataColumns.ALL;
  }

  /** Creates {@code table} in the local dataset with {@code schema}, unless it exists. */
  public static void create(EmulatorStack stack, String table, TableSchema schema)
      throws Exception {
    try (BigQueryServices.DatasetService datasets =
        new BigQueryServicesImpl().getDatasetService(adminOptions(stack, List.of()))) {
      createIfMissing(datasets, stack, table, schema);
    }
  }

  /** Options for table administration on the BigQuery emulator, plus {@code extraArgs}. */
  private static IngestionOptions adminOptions(EmulatorStack stack, List<String> extraArgs) {
    List<String> args = new ArrayList<>(extraArgs);
    args.add("--project=" + stack.bigquery().project());
    args.add("--credentialFactoryClass=" + IngestionArgs.NOOP_CREDENTIALS);
    args.add("--bigQueryEndpoint=" + stack.bigquery().restEndpoint());
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(IngestionOptions.class);
  }

  private static void createIfMissing(
      BigQueryServices.DatasetService datasets,
      EmulatorStack stack,
      String table,
      TableSchema schema)
      throws Exception {
    if (stack.bigquery().tableExists(LocalRunConfig.DATASET, table)) {
      return;
    }
    datasets.createTable(
        new Table()
            .setTableReference(
                new TableReference()
                    .setProjectId(stack.bigquery().project())
                    .setDatasetId(LocalRunConfig.DATASET)
                    .setTableId(table))
            .setSchema(schema));
  }
}
