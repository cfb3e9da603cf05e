package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableConstraints;
import com.google.api.services.bigquery.model.TableReference;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Change mode's tables at launch: a created table declares its primary key ({@link #constraints});
 * an existing one must already declare the same key, or BigQuery would refuse every change (no key)
 * or apply them by other columns (another key), so launch fails saying what to change.
 */
final class TableKeys {
  private TableKeys() {}

  static TableConstraints constraints(TableSetup.Key key) {
    return new TableConstraints()
        .setPrimaryKey(new TableConstraints.PrimaryKey().setColumns(key.columns()));
  }

  /**
   * Checks the key of every existing table of {@code tables} that has one.
   *
   * @throws IllegalArgumentException naming each table whose key differs, and what to change
   */
  static void check(
      BigQueryOptions options, List<TableSetup.Table> tables, @Nullable BigQueryServices services) {
    if (tables.stream().allMatch(table -> table.key() == null)) {
      return;
    }
    List<String> problems = new ArrayList<>();
    BigQueryServices chosen = services == null ? new BigQueryServicesImpl() : services;
    try (BigQueryServices.DatasetService datasets = chosen.getDatasetService(options)) {
      for (TableSetup.Table wanted : tables) {
        if (wanted.key() == null) {
          continue;
        }
        TableReference ref = BigQueryHelpers.parseTableSpec(wanted.spec());
        if (ref.getProjectId() == null) {
          ref.setProjectId(options.as(GcpOptions.class).getProject());
        }
        Table existing = datasets.getTable(ref);
        if (existing == null) {
          continue;
        }
        List<String> actual = keyOf(existing);
        if (!actual.equals(wanted.key().columns())) {
          problems.add(
              wanted.spec()
                  + (actual.isEmpty()
                      ? " exists without a primary key"
                      : " exists with primary key " + actual)
                  + ", but --primaryKey gives "
                  + wanted.key().columns()
                  + ": change --primaryKey to the table's key, or give the table this key (ALTER"
                  + " TABLE ... "
                  + (actual.isEmpty() ? "" : "DROP PRIMARY KEY, ")
                  + "ADD PRIMARY KEY ("
                  + String.join(", ", wanted.key().columns())
                  + ") NOT ENFORCED)");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading the tables' keys", e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "Cannot read the tables' primary keys: " + e.getMessage(), e);
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Change mode's tables do not match:\n  - " + String.join("\n  - ", problems));
    }
  }

  private static List<String> keyOf(Table table) {
    TableConstraints constraints = table.getTableConstraints();
    if (constraints == null
        || constraints.getPrimaryKey() == null
        || constraints.getPrimaryKey().getColumns() == null) {
      return List.of();
    }
    return constraints.getPrimaryKey().getColumns();
  }
}
