package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.Clustering;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.api.services.bigquery.model.TimePartitioning;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With {@code --createTable}, creates the event and dead-letter tables at launch when they are
 * missing, with the schema and layout the write would give them. BigQueryIO would create them on
 * the first write, but Beam 2.70.0's Storage Write API writer to the {@code _default} stream (the
 * at-least-once method, and every dead-letter write of the Storage Write steps) takes BigQuery's
 * NOT_FOUND for a missing table as permanent and fails the pipeline instead.
 */
public final class CreateMissingTables {
  private static final Logger LOG = LoggerFactory.getLogger(CreateMissingTables.class);

  /** One table to have: where, its schema, and its layout (null parts for none). */
  public record Wanted(
      String tableSpec,
      TableSchema schema,
      @Nullable TimePartitioning timePartitioning,
      @Nullable Clustering clustering,
      TableSetup.@Nullable Key key) {

    /** A table without a primary key. */
    public Wanted(
        String tableSpec,
        TableSchema schema,
        @Nullable TimePartitioning timePartitioning,
        @Nullable Clustering clustering) {
      this(tableSpec, schema, timePartitioning, clustering, null);
    }
  }

  private CreateMissingTables() {}

  /**
   * Creates each of {@code tables} that does not exist.
   *
   * @param services the services the pipeline writes through, or null for the real ones
   * @return the tables created, as given
   * @throws IllegalArgumentException naming the table when it can neither be read nor created
   */
  public static List<String> apply(
      BigQueryOptions options, List<Wanted> tables, @Nullable BigQueryServices services) {
    List<String> created = new ArrayList<>();
    BigQueryServices chosen = services == null ? new BigQueryServicesImpl() : services;
    try (BigQueryServices.DatasetService datasets = chosen.getDatasetService(options)) {
      for (Wanted wanted : tables) {
        TableReference ref = BigQueryHelpers.parseTableSpec(wanted.tableSpec());
        if (ref.getProjectId() == null) {
          ref.setProjectId(options.as(GcpOptions.class).getProject());
        }
        if (datasets.getTable(ref) != null) {
          continue;
        }
        Table table = new Table().setTableReference(ref).setSchema(wanted.schema());
        if (wanted.timePartitioning() != null) {
          table.setTimePartitioning(wanted.timePartitioning());
        }
        if (wanted.clustering() != null) {
          table.setClustering(wanted.clustering());
        }
        if (wanted.key() != null) {
          table.setTableConstraints(TableKeys.constraints(wanted.key()));
          if (wanted.key().maxStaleness() != null) {
            table.setMaxStaleness(wanted.key().maxStaleness());
          }
        }
        try {
          datasets.createTable(table);
        } catch (Exception e) {
          // Another launch may have created it in the meantime; only a table still missing fails.
          if (datasets.getTable(ref) == null) {
            throw e;
          }
        }
        LOG.info("Created table {}", wanted.tableSpec());
        created.add(wanted.tableSpec());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating the tables", e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "Cannot create the missing tables "
              + tables.stream().map(Wanted::tableSpec).toList()
              + ": "
              + e.getMessage()
              + " (create them first, e.g. with the Terraform of this project, or check the"
              + " launcher's permissions)",
          e);
    }
    return created;
  }
}
