package io.thriftbq.ingest.testing;

import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.io.gcp.testing.FakeBigQueryServices;
import org.apache.beam.sdk.io.gcp.testing.FakeDatasetService;
import org.apache.beam.sdk.io.gcp.testing.FakeJobService;

/**
 * Beam's in-memory BigQuery, reset for each test. Its state is static per JVM, which is why the
 * build never runs test classes in parallel.
 */
public final class FakeBigQuery {
  public static final String PROJECT = "test-project";
  public static final String DATASET = "ingest";
  private static final AtomicInteger RUNS = new AtomicInteger();

  /**
   * Table names unique to this fake: BigQueryIO caches "table already created" and table schemas in
   * static maps keyed by table, which would outlive the fake's reset between pipelines.
   */
  public final String events = "events_" + RUNS.incrementAndGet();

  public final String deadLetters = events + "_dead_letter";

  public final FakeDatasetService datasets;
  public final FakeBigQueryServices services;

  private FakeBigQuery(FakeDatasetService datasets) {
    this.datasets = datasets;
    this.services =
        new FakeBigQueryServices()
            .withDatasetService(datasets)
            .withJobService(new FakeJobService());
  }

  /** A fresh fake with an empty dataset. */
  public static FakeBigQuery create() {
    return create(new FakeDatasetService());
  }

  /** A fresh fake whose dataset service rejects the rows {@code reject} matches. */
  public static FakeBigQuery rejecting(RejectingDatasetService.RowPredicate reject) {
    return create(new RejectingDatasetService(reject));
  }

  private static FakeBigQuery create(FakeDatasetService datasets) {
    FakeDatasetService.setUp();
    FakeJobService.setUp();
    FakeBigQuery fake = new FakeBigQuery(datasets);
    try {
      fake.datasets.createDataset(PROJECT, DATASET, "", "", null);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return fake;
  }

  public static String tableSpec(String table) {
    return PROJECT + ":" + DATASET + "." + table;
  }

  /** Rows of {@code table}; none if the pipeline never created it. */
  public List<TableRow> rows(String table) {
    try {
      if (datasets.getTable(
              new TableReference().setProjectId(PROJECT).setDatasetId(DATASET).setTableId(table))
          == null) {
        return List.of();
      }
      return datasets.getAllRows(PROJECT, DATASET, table);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public List<TableRow> eventRows() {
    return rows(events);
  }

  public List<TableRow> deadLetterRows() {
    return rows(deadLetters);
  }

  public String eventsSpec() {
    return tableSpec(events);
  }
}
