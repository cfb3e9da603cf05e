package io.thriftbq.ingest.convert;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * TableRow as the BigQuery JSON API and Beam's TableRow → Storage API proto converter both accept
 * it: INT64 as Long, BYTES as base64, TIMESTAMP as an ISO-8601 string, NULL and empty REPEATED
 * columns omitted (BigQuery reads them back as NULL and [] either way).
 */
final class TableRowAssembler extends RowAssembler<TableRow, TableRowAssembler.Names> {
  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  /** Column names of one record, with the nested records' names. */
  record Names(String[] names, List<TableFieldSchema> fields) {}

  private final Names root;

  TableRowAssembler(TableSchema schema) {
    this.root = names(schema.getFields());
  }

  private static Names names(List<TableFieldSchema> fields) {
    String[] names = new String[fields.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = fields.get(i).getName();
    }
    return new Names(names, fields);
  }

  @Override
  Names rootShape() {
    return root;
  }

  @Override
  Names childShape(Names parent, int index) {
    return names(parent.fields().get(index).getFields());
  }

  @Override
  TableRow record(Names shape, Object[] values) {
    TableRow row = new TableRow();
    // The values array is ours (see RowAssembler#record): the row wraps it without copying.
    row.setUnknownKeys(new ColumnMap(shape.names(), values, shape.names().length));
    return row;
  }

  @Override
  TableRow row(Object[] values) {
    return record(root, values);
  }

  @Override
  Object bytes(byte[] value) {
    return BASE64.encodeToString(value);
  }

  @Override
  Object timestampMillis(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }
}
