package io.thriftbq.local.run;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;

/**
 * The one place local mode builds the ingestion module's converters outside a pipeline, so a change
 * to how converters are made touches this class only.
 */
public final class Converters {
  private Converters() {}

  /** TableRows, as the pipeline's TABLE_ROW format makes them. */
  static EventConverter<TableRow> tableRows(ConverterConfig config) {
    return EventConverters.tableRows(config);
  }

  /** Storage Write API row bytes, as {@code PROTO_MESSAGE} hands them to BigQueryIO. */
  public static EventConverter<EncodedRow> encodedRows(ConverterConfig config) {
    return EventConverters.encodedRows(config);
  }
}
