package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import com.google.api.services.bigquery.model.TableDataInsertAllResponse;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.WriteMethod;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.CreateDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.WriteDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes dead letters to the dead-letter table.
 *
 * <p>Dead letters go by the Storage API at-least-once default stream whatever the events go by: it
 * needs no triggering frequency or shuffle, right for a trickle of rows, and it carries the payload
 * as bytes, so a dead letter holding a 9 MB event fits BigQuery's 10 MB append limit. Streaming
 * inserts carry it as base64 in JSON, a third larger, so an event over about 7.5 MB would make a
 * request BigQuery refuses as a whole, retried forever (found end to end by {@code
 * HostileInputsEndToEndTest}). Both need the same permission ({@code bigquery.tables.updateData}).
 *
 * <p>A dead letter the dead-letter table itself refuses cannot go anywhere safer, so it is logged
 * in full (error and row) and counted in {@code dead_letter_write_failed}; the rejected rows are
 * also the output of this transform.
 */
public final class WriteDeadLetters
    extends PTransform<PCollection<DeadLetter>, PCollection<TableRow>> {
  private static final Logger LOG = LoggerFactory.getLogger(WriteDeadLetters.class);

  private final @Nullable String tableSpec;
  private final WriteMethod method;
  private final boolean createTable;
  private final @Nullable BigQueryServices testServices;

  private WriteDeadLetters(
      @Nullable String tableSpec,
      WriteMethod method,
      boolean createTable,
      @Nullable BigQueryServices testServices) {
    this.tableSpec = tableSpec;
    this.method = method;
    this.createTable = createTable;
    this.testServices = testServices;
  }

  /** Writes to {@code tableSpec} ({@code PROJECT:DATASET.TABLE} or {@code DATASET.TABLE}). */
  public static WriteDeadLetters to(String tableSpec) {
    return new WriteDeadLetters(tableSpec, WriteMethod.STORAGE_API_AT_LEAST_ONCE, true, null);
  }

  /**
   * STREAMING_INSERTS or STORAGE_API_AT_LEAST_ONCE. Exactly-once is refused: it would add a shuffle
   * and a triggering delay for rows that are already exceptional.
   */
  public WriteDeadLetters withMethod(WriteMethod method) {
    checkArgument(
        method != WriteMethod.STORAGE_WRITE_API,
        "Dead letters are written with STREAMING_INSERTS or STORAGE_API_AT_LEAST_ONCE");
    return new WriteDeadLetters(tableSpec, method, createTable, testServices);
  }

  /** Whether to create the table (daily partitions on failed_at) if it does not exist. */
  public WriteDeadLetters withCreateTable(boolean createTable) {
    return new WriteDeadLetters(tableSpec, method, createTable, testServices);
  }

  /** BigQuery services to use instead of the real ones: Beam's fakes in tests, local mode's. */
  public WriteDeadLetters withTestServices(@Nullable BigQueryServices services) {
    return new WriteDeadLetters(tableSpec, method, createTable, services);
  }

  @Override
  public PCollection<TableRow> expand(PCollection<DeadLetter> deadLetters) {
    checkArgument(
        tableSpec != null && !tableSpec.isBlank(), "WriteDeadLetters needs a dead-letter table");
    PCollection<TableRow> rows =
        deadLetters
            .apply("CountDeadLetters", ParDo.of(new CountAndFormatFn()))
            .setCoder(TableRowJsonCoder.of());

    BigQueryIO.Write<TableRow> write =
        BigQueryIO.writeTableRows()
            .to(tableSpec)
            .withMethod(method.beamMethod())
            .withSchema(DeadLetterSchema.tableSchema())
            .withWriteDisposition(WriteDisposition.WRITE_APPEND)
            .withCreateDisposition(
                createTable ? CreateDisposition.CREATE_IF_NEEDED : CreateDisposition.CREATE_NEVER);
    if (createTable) {
      write = write.withTimePartitioning(DeadLetterSchema.timePartitioning());
    }
    if (method == WriteMethod.STREAMING_INSERTS) {
      write =
          write
              .withExtendedErrorInfo()
              .withFailedInsertRetryPolicy(InsertRetryPolicy.retryTransientErrors());
    }
    if (testServices != null) {
      write = write.withTestServices(testServices);
    }
    WriteResult result = rows.apply("WriteDeadLetterTable", write);

    PCollection<TableRow> rejected;
    if (method == WriteMethod.STREAMING_INSERTS) {
      rejected =
          result
              .getFailedInsertsWithErr()
              .apply("LogRejectedInserts", ParDo.of(new LogInsertErrorFn()))
              .setCoder(TableRowJsonCoder.of());
    } else {
      rejected =
          result
              .getFailedStorageApiInserts()
              .apply("LogRejectedAppends", ParDo.of(new LogStorageApiErrorFn(tableSpec)))
              .setCoder(TableRowJsonCoder.of());
    }
    return rejected;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder
        .addIfNotNull(DisplayData.item("deadLetterTable", tableSpec))
        .add(DisplayData.item("method", method.name()))
        .add(DisplayData.item("createTable", createTable));
  }

  private static final class CountAndFormatFn extends DoFn<DeadLetter, TableRow> {
    private transient Map<Stage, Counter> deadLettered;

    @Setup
    public void setup() {
      deadLettered = IngestionMetrics.deadLetteredByStage();
    }

    @ProcessElement
    public void process(@Element DeadLetter deadLetter, OutputReceiver<TableRow> out) {
      deadLettered.get(deadLetter.stage()).inc();
      out.output(DeadLetterSchema.toTableRow(deadLetter));
    }
  }

  private static final class LogInsertErrorFn extends DoFn<BigQueryInsertError, TableRow> {
    private final Counter failed =
        IngestionMetrics.counter(IngestionMetrics.DEAD_LETTER_WRITE_FAILED);

    @ProcessElement
    public void process(@Element BigQueryInsertError error, OutputReceiver<TableRow> out) {
      failed.inc();
      TableDataInsertAllResponse.InsertErrors errors = error.getError();
      LOG.error(
          "The dead-letter table {} rejected a dead letter ({}); the row was: {}",
          error.getTable(),
          errors == null ? "no error details" : errors.getErrors(),
          error.getRow());
      out.output(error.getRow());
    }
  }

  private static final class LogStorageApiErrorFn
      extends DoFn<BigQueryStorageApiInsertError, TableRow> {
    private final Counter failed =
        IngestionMetrics.counter(IngestionMetrics.DEAD_LETTER_WRITE_FAILED);
    // Beam 2.70.0's BigQueryStorageApiInsertError does not carry its table; there is one here.
    private final String table;

    LogStorageApiErrorFn(String table) {
      this.table = table;
    }

    @ProcessElement
    public void process(
        @Element BigQueryStorageApiInsertError error, OutputReceiver<TableRow> out) {
      failed.inc();
      LOG.error(
          "The dead-letter table {} rejected a dead letter ({}); the row was: {}",
          table,
          error.getErrorMessage(),
          error.getRow());
      out.output(error.getRow());
    }
  }
}
