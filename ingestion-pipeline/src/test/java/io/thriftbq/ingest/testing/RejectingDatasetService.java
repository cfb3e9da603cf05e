package io.thriftbq.ingest.testing;

import com.google.api.services.bigquery.model.ErrorProto;
import com.google.api.services.bigquery.model.TableDataInsertAllResponse;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.beam.sdk.io.gcp.bigquery.ErrorContainer;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.testing.FakeDatasetService;
import org.apache.beam.sdk.values.FailsafeValueInSingleWindow;
import org.apache.beam.sdk.values.ValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The fake dataset service, rejecting rows that match a predicate with every write method. The
 * fake's own {@code failOnInsert} matches streaming-insert rows by exact JSON equality, which
 * TableRows holding Longs never satisfy; this applies the predicate to streaming inserts directly
 * (as a non-retryable "invalid" error, like BigQuery's answer to a bad row) and hands it to the
 * fake's {@code setShouldFailRow} for the Storage Write API.
 */
public final class RejectingDatasetService extends FakeDatasetService {
  private static final long serialVersionUID = 1L;

  /** A serializable row predicate. */
  public interface RowPredicate extends Function<TableRow, Boolean>, Serializable {}

  private final RowPredicate reject;

  public RejectingDatasetService(RowPredicate reject) {
    this.reject = reject;
    setShouldFailRow(reject);
  }

  @Override
  public <T> long insertAll(
      TableReference ref,
      List<FailsafeValueInSingleWindow<TableRow, TableRow>> rowList,
      @Nullable List<String> insertIdList,
      InsertRetryPolicy retryPolicy,
      List<ValueInSingleWindow<T>> failedInserts,
      ErrorContainer<T> errorContainer,
      boolean skipInvalidRows,
      boolean ignoreUnknownValues,
      boolean ignoreInsertIds,
      List<ValueInSingleWindow<TableRow>> successfulRows)
      throws IOException, InterruptedException {
    List<FailsafeValueInSingleWindow<TableRow, TableRow>> accepted = new ArrayList<>();
    List<String> acceptedIds = insertIdList == null ? null : new ArrayList<>();
    for (int i = 0; i < rowList.size(); i++) {
      FailsafeValueInSingleWindow<TableRow, TableRow> row = rowList.get(i);
      if (Boolean.TRUE.equals(reject.apply(row.getValue()))) {
        TableDataInsertAllResponse.InsertErrors error =
            new TableDataInsertAllResponse.InsertErrors()
                .setIndex((long) i)
                .setErrors(
                    List.of(
                        new ErrorProto()
                            .setReason("invalid")
                            .setLocation("event_id")
                            .setMessage("rejected by the test")));
        errorContainer.add(failedInserts, error, ref, row);
      } else {
        accepted.add(row);
        if (acceptedIds != null) {
          acceptedIds.add(insertIdList.get(i));
        }
      }
    }
    return super.insertAll(
        ref,
        accepted,
        acceptedIds,
        retryPolicy,
        failedInserts,
        errorContainer,
        skipInvalidRows,
        ignoreUnknownValues,
        ignoreInsertIds,
        successfulRows);
  }
}
