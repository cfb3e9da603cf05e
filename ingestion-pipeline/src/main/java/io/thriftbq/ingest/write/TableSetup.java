package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.options.SchemaUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What launch does to the tables before the pipeline is built, decided by the plan: bring each
 * existing table up to its schema as {@code --schemaUpdate} says ({@link EvolveTableSchema}), then,
 * with {@code --createTable}, create the missing ones with their schema and layout ({@link
 * CreateMissingTables}). The only steps that talk to BigQuery before the run.
 *
 * @param schemaUpdate how existing tables meet a changed schema
 * @param createMissing whether missing tables are created ({@code --createTable})
 * @param tables every table the pipeline writes, in the order they are set up
 */
public record TableSetup(SchemaUpdate schemaUpdate, boolean createMissing, List<Table> tables) {

  public TableSetup {
    Objects.requireNonNull(schemaUpdate, "schemaUpdate");
    tables = List.copyOf(tables);
  }

  /**
   * One table the pipeline writes.
   *
   * @param spec PROJECT:DATASET.TABLE or DATASET.TABLE
   * @param schema the schema the pipeline's rows have
   * @param layout partitioning and clustering of a created table
   * @param evolves whether an existing table is brought up to {@code schema} as {@code
   *     --schemaUpdate} says (the event tables to the IDL's, the dead-letter table to ours)
   */
  public record Table(
      String spec, TableSchema schema, TableLayout layout, boolean evolves, @Nullable Key key) {
    public Table {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(layout, "layout");
    }

    /** A table of append-only rows (no primary key). */
    public Table(String spec, TableSchema schema, TableLayout layout, boolean evolves) {
      this(spec, schema, layout, evolves, null);
    }
  }

  /**
   * Change mode's table properties: the primary key a created table declares (and an existing one
   * must already have), and its {@code max_staleness}.
   *
   * @param columns the key columns, in order
   * @param maxStaleness BigQuery's INTERVAL literal (for example {@code 0-0 0 0:15:0}), or null
   */
  public record Key(List<String> columns, @Nullable String maxStaleness) {
    public Key {
      columns = List.copyOf(columns);
    }
  }

  /**
   * Evolves, then creates, as decided.
   *
   * @param options the pipeline's options, for BigQuery's clients (project, endpoint, credentials)
   * @param services the services the pipeline writes through (Beam's fakes, local mode's), or null
   *     for the real ones
   * @return what was done, one line each (schema changes applied, tables created)
   * @throws IllegalArgumentException for an incompatible table or one that cannot be created,
   *     saying what to change
   */
  public List<String> run(BigQueryOptions options, @Nullable BigQueryServices services) {
    List<String> done = new ArrayList<>();
    TableKeys.check(options, tables, services);
    for (Table table : tables) {
      if (table.evolves()) {
        for (String change :
            EvolveTableSchema.apply(
                options, table.spec(), table.schema(), schemaUpdate, services, null)) {
          done.add(table.spec() + ": " + change);
        }
      }
    }
    if (createMissing) {
      List<CreateMissingTables.Wanted> wanted = new ArrayList<>();
      for (Table table : tables) {
        wanted.add(
            new CreateMissingTables.Wanted(
                table.spec(),
                table.schema(),
                table.layout().timePartitioning(),
                table.layout().clustering(),
                table.key()));
      }
      for (String created : CreateMissingTables.apply(options, wanted, services)) {
        done.add(created + ": created");
      }
    }
    return done;
  }
}
