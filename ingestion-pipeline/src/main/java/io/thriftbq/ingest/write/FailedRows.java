package io.thriftbq.ingest.write;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.services.bigquery.model.ErrorProto;
import com.google.api.services.bigquery.model.TableDataInsertAllResponse;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.format.FailsafeRow;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Turns rows BigQuery rejected into dead letters with stage WRITE. Streaming inserts and the
 * Storage API report rejections in different types; each has a small adapter ({@link
 * FromInsertErrorFn}, {@link FromStorageApiErrorFn}) that extracts the row and the error, and
 * everything else (counting, and the mapping to a dead letter, {@link ToDeadLetter}) is shared.
 *
 * <p>What the dead letter carries depends on {@code --keepPayloadForWriteFailures}:
 *
 * <ul>
 *   <li>off (the default): BigQueryIO hands back only the rejected row, so the payload is the row
 *       as JSON ({@code BIGQUERY_ROW_JSON}), and the message's metadata is read back from the row's
 *       metadata columns when they are enabled ({@link RejectedRowMetadata}). Nothing is spent on
 *       the hot path for a failure that a schema derived from the IDL makes rare.
 *   <li>on: the "row" BigQueryIO hands back is the {@link FailsafeRow} built from the element, so
 *       the dead letter gets the original Thrift bytes ({@code THRIFT}) and the message's metadata
 *       record, decoded from the row, whatever metadata columns are enabled. The cost is paid for
 *       every element (see {@code Format#writeKeepingPayload}).
 * </ul>
 */
final class FailedRows {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FailedRows() {}

  /** Rejected streaming inserts (needs {@code withExtendedErrorInfo()}). */
  static final class FromInsertErrorFn extends RejectedRowFn<BigQueryInsertError> {
    FromInsertErrorFn(ToDeadLetter toDeadLetter, @Nullable WrittenTables tables) {
      super(toDeadLetter, tables);
    }

    @Override
    @Nullable TableReference tableOf(BigQueryInsertError error) {
      return error.getTable();
    }

    @Override
    @Nullable TableRow rowOf(BigQueryInsertError error) {
      return error.getRow();
    }

    @Override
    String errorOf(BigQueryInsertError error) {
      return describe(error.getError());
    }
  }

  /** Rows the Storage Write API refused, or that could not be converted to its protos. */
  static final class FromStorageApiErrorFn extends RejectedRowFn<BigQueryStorageApiInsertError> {
    FromStorageApiErrorFn(ToDeadLetter toDeadLetter, @Nullable WrittenTables tables) {
      super(toDeadLetter, tables);
    }

    /** Not said: the Storage API's rejection names no table (see {@link WrittenTables}). */
    @Override
    @Nullable TableReference tableOf(BigQueryStorageApiInsertError error) {
      return null;
    }

    @Override
    @Nullable TableRow rowOf(BigQueryStorageApiInsertError error) {
      return error.getRow();
    }

    @Override
    String errorOf(BigQueryStorageApiInsertError error) {
      String message = error.getErrorMessage();
      return "BigQueryStorageApiInsertError: " + (message == null ? "no details" : message);
    }
  }

  /** Counts and dead-letters one rejection; subclasses only say where its row and error are. */
  abstract static class RejectedRowFn<E> extends DoFn<E, DeadLetter> {
    private final ToDeadLetter toDeadLetter;
    private final @Nullable WrittenTables tables;
    private final Counter failedWrite = IngestionMetrics.failed(Stage.WRITE);

    RejectedRowFn(ToDeadLetter toDeadLetter, @Nullable WrittenTables tables) {
      this.toDeadLetter = toDeadLetter;
      this.tables = tables;
    }

    abstract @Nullable TableRow rowOf(E error);

    abstract String errorOf(E error);

    /** The table the rejection names, if it names one. */
    abstract @Nullable TableReference tableOf(E error);

    @ProcessElement
    public void process(@Element E error, OutputReceiver<DeadLetter> out) {
      failedWrite.inc();
      TableRow row = rowOf(error);
      DeadLetter deadLetter = toDeadLetter.apply(row, errorOf(error));
      out.output(tables == null ? deadLetter : tables.attribute(deadLetter, tableOf(error), row));
    }
  }

  /**
   * The structs and tables of a many-types job's write (one struct's, or every struct's), to name
   * the struct and table of each rejected row and count it under the struct. A streaming insert's
   * rejection names its table; a Storage API rejection does not, so a write to several tables with
   * the Storage API keeps payloads, whose fail-safe row names the struct ({@link
   * FailsafeRow#struct}). A write to one table needs neither.
   */
  static final class WrittenTables implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<String> structs;
    private final List<String> tables;
    private final List<Counter> failedWrites = new ArrayList<>();

    private WrittenTables(List<String> structs, List<String> tables) {
      checkArgument(
          !structs.isEmpty() && structs.size() == tables.size(),
          "one table per struct: %s, %s",
          structs,
          tables);
      this.structs = List.copyOf(structs);
      this.tables = List.copyOf(tables);
      for (String struct : structs) {
        failedWrites.add(
            IngestionMetrics.counter(
                IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.WRITE), struct)));
      }
    }

    /**
     * @param structs each table's struct, by index
     * @param tables each table, {@code [PROJECT:]DATASET.TABLE}, by index
     */
    static WrittenTables of(List<String> structs, List<String> tables) {
      return new WrittenTables(structs, tables);
    }

    /**
     * {@code deadLetter} naming its struct and table, counted under the struct; as it is when
     * neither the rejection's {@code table} nor its fail-safe {@code row} says which (a rejection
     * Beam could not pair with its fail-safe row), so that it is still written, unattributed.
     */
    DeadLetter attribute(
        DeadLetter deadLetter, @Nullable TableReference table, @Nullable TableRow row) {
      int index = structs.size() == 1 ? 0 : table != null ? indexOf(table) : indexOf(row);
      if (index < 0) {
        return deadLetter;
      }
      failedWrites.get(index).inc();
      return deadLetter.withEvent(tables.get(index), structs.get(index));
    }

    private int indexOf(TableReference table) {
      for (int i = 0; i < tables.size(); i++) {
        TableReference candidate = BigQueryHelpers.parseTableSpec(tables.get(i));
        if (Objects.equals(candidate.getDatasetId(), table.getDatasetId())
            && Objects.equals(candidate.getTableId(), table.getTableId())
            && (candidate.getProjectId() == null
                || table.getProjectId() == null
                || candidate.getProjectId().equals(table.getProjectId()))) {
          return i;
        }
      }
      return -1;
    }

    private int indexOf(@Nullable TableRow row) {
      String struct = FailsafeRow.struct(row);
      return struct == null ? -1 : structs.indexOf(struct);
    }
  }

  /** The one mapping from a rejected row and its error to a WRITE dead letter. */
  static final class ToDeadLetter implements Serializable {
    private static final long serialVersionUID = 1L;

    private final MetadataColumns metadataColumns;
    private final boolean payloadKept;

    /**
     * @param metadataColumns the metadata columns event rows have, to recover metadata from
     * @param payloadKept whether rows come back as {@link FailsafeRow}s ({@code
     *     --keepPayloadForWriteFailures})
     */
    ToDeadLetter(MetadataColumns metadataColumns, boolean payloadKept) {
      this.metadataColumns = metadataColumns;
      this.payloadKept = payloadKept;
    }

    DeadLetter apply(@Nullable TableRow row, String error) {
      FailsafeRow.Kept kept = payloadKept ? FailsafeRow.read(row) : null;
      if (kept != null) {
        return DeadLetter.ofEvent(Stage.WRITE, kept.payload(), kept.metadata(), error);
      }
      // Without the flag; or, with it, a row Beam could not pair with its fail-safe row: the
      // rejected event row is all there is, so its metadata columns are read back.
      TableRow safeRow = row == null ? new TableRow() : row;
      return DeadLetter.ofRejectedRow(
          toJson(safeRow), error, RejectedRowMetadata.read(safeRow, metadataColumns));
    }
  }

  static byte[] toJson(TableRow row) {
    try {
      return JSON.writeValueAsBytes(row);
    } catch (JsonProcessingException e) {
      // Never lose the dead letter over its own encoding: fall back to the map's text form.
      return String.valueOf(row).getBytes(StandardCharsets.UTF_8);
    }
  }

  static String describe(TableDataInsertAllResponse.@Nullable InsertErrors errors) {
    if (errors == null || errors.getErrors() == null || errors.getErrors().isEmpty()) {
      return "BigQueryInsertError: no details";
    }
    StringBuilder text = new StringBuilder("BigQueryInsertError:");
    for (ErrorProto error : errors.getErrors()) {
      text.append(' ').append(error.getReason()).append(": ").append(error.getMessage());
      if (error.getLocation() != null && !error.getLocation().isEmpty()) {
        text.append(" (at ").append(error.getLocation()).append(')');
      }
      text.append(';');
    }
    return text.substring(0, text.length() - 1);
  }
}
