package io.thriftbq.ingest.write;

import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.services.bigquery.Bigquery;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.auth.Credentials;
import com.google.auth.http.HttpCredentialsAdapter;
import io.thriftbq.ingest.options.SchemaUpdate;
import java.io.IOException;
import java.io.Serializable;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.extensions.gcp.util.Transport;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schema evolution at launch ({@code --schemaUpdate}): when the output table exists and the IDL
 * gained optional fields, the new columns are added (and REQUIRED columns the IDL made optional are
 * relaxed), each change logged; an incompatible change fails the launch with the column-by-column
 * difference. Runs once, before the pipeline is built.
 */
public final class EvolveTableSchema {
  private static final Logger LOG = LoggerFactory.getLogger(EvolveTableSchema.class);

  /** Applies a new schema to an existing table (BigQuery's REST API, or a fake's). */
  @FunctionalInterface
  public interface SchemaPatcher extends Serializable {
    void patch(TableReference table, TableSchema schema) throws IOException, InterruptedException;
  }

  private EvolveTableSchema() {}

  /**
   * Checks (and with {@code ADD_COLUMNS} updates) {@code tableSpec} against {@code wanted}.
   *
   * @param services the services the pipeline writes through (Beam's fakes, local mode's), or null
   *     for the real ones
   * @param patcher applies a schema, or null for BigQuery's REST API at {@code --bigQueryEndpoint}
   * @return the differences applied, one line each (empty when none, or the table is new)
   * @throws IllegalArgumentException with the column-by-column difference, when the change is
   *     incompatible, or any change under {@code FAIL}
   */
  public static java.util.List<String> apply(
      BigQueryOptions options,
      String tableSpec,
      TableSchema wanted,
      SchemaUpdate mode,
      @Nullable BigQueryServices services,
      @Nullable SchemaPatcher patcher) {
    if (mode == SchemaUpdate.NONE) {
      return java.util.List.of();
    }
    TableReference ref = BigQueryHelpers.parseTableSpec(tableSpec);
    if (ref.getProjectId() == null) {
      ref.setProjectId(options.as(GcpOptions.class).getProject());
    }
    Table existing;
    BigQueryServices chosen = services == null ? new BigQueryServicesImpl() : services;
    try (BigQueryServices.DatasetService datasets = chosen.getDatasetService(options)) {
      existing = datasets.getTable(ref);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading table " + tableSpec, e);
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "Cannot read table "
              + tableSpec
              + " to compare its schema with the IDL's: "
              + e.getMessage()
              + " (--schemaUpdate=NONE skips the comparison)",
          e);
    }
    if (existing == null || existing.getSchema() == null) {
      return java.util.List.of(); // BigQueryIO creates it with the IDL's schema
    }
    TableSchemaDiff diff = TableSchemaDiff.between(existing.getSchema(), wanted);
    if (!diff.incompatible().isEmpty()) {
      throw new IllegalArgumentException(
          "Table "
              + tableSpec
              + " cannot take the IDL's rows; column by column:\n    "
              + String.join("\n    ", diff.incompatible())
              + (diff.changes().isEmpty()
                  ? ""
                  : "\n  and (compatible): " + String.join("; ", diff.changes()))
              + "\n  Change the IDL back, migrate the table, or write to a new --outputTable.");
    }
    if (diff.changes().isEmpty()) {
      return java.util.List.of();
    }
    if (mode == SchemaUpdate.FAIL) {
      throw new IllegalArgumentException(
          "Table "
              + tableSpec
              + " differs from the IDL (--schemaUpdate=FAIL):\n    "
              + String.join("\n    ", diff.changes())
              + "\n  Use --schemaUpdate=ADD_COLUMNS to apply these changes at launch.");
    }
    try {
      (patcher == null ? restPatcher(options) : patcher).patch(ref, diff.merged());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while updating table " + tableSpec, e);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot update the schema of " + tableSpec + ": " + e.getMessage(), e);
    }
    for (String change : diff.changes()) {
      LOG.info("Table {}: {}", tableSpec, change);
    }
    return diff.changes();
  }

  /** BigQuery's REST API (get, then update), at {@code --bigQueryEndpoint} when set. */
  static SchemaPatcher restPatcher(BigQueryOptions options) {
    return (ref, schema) -> {
      Credentials credentials = options.as(GcpOptions.class).getGcpCredential();
      HttpRequestInitializer initializer =
          credentials == null ? request -> {} : new HttpCredentialsAdapter(credentials);
      Bigquery.Builder builder =
          new Bigquery.Builder(Transport.getTransport(), Transport.getJsonFactory(), initializer)
              .setApplicationName("thrift-pubsub-bigquery");
      String endpoint = options.getBigQueryEndpoint();
      if (endpoint != null && !endpoint.isBlank()) {
        builder.setRootUrl(endpoint.endsWith("/") ? endpoint : endpoint + "/");
      }
      // The whole resource as read, with the new schema, through tables.update (PUT): the same
      // effect as a patch, without PATCH, which this HTTP transport sends as a POST with a
      // method-override header that not every BigQuery-compatible server honours.
      Bigquery.Tables tables = builder.build().tables();
      Table table = tables.get(ref.getProjectId(), ref.getDatasetId(), ref.getTableId()).execute();
      table.setSchema(schema);
      tables.update(ref.getProjectId(), ref.getDatasetId(), ref.getTableId(), table).execute();
    };
  }
}
