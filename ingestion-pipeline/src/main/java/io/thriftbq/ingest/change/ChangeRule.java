package io.thriftbq.ingest.change;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.change.ChangeSequence;
import io.thriftbq.change.ChangeSpec;
import io.thriftbq.change.ChangeSpec.ChangeTypeSource;
import io.thriftbq.change.ChangeSpec.SequenceSource;
import io.thriftbq.ingest.convert.RowSuffix;
import io.thriftbq.ingest.origin.EventMetadata;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation.MutationType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How one struct's events become changes (change mode, BigQuery change data capture): the key
 * columns every event must have, where its change type and its sequence come from. Built once at
 * launch by {@link #of}, which checks the names against the struct's table schema; applied per
 * event by {@link #decide}, in the decoder (an event that is not a change is a CHANGE dead letter)
 * and again by BigQueryIO's row mutation function (the same answer, from the same row).
 */
public final class ChangeRule implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Key column types BigQuery allows for a primary key, as the derived schema names them. */
  static final Set<String> KEY_TYPES = Set.of("INTEGER", "INT64", "STRING", "BOOLEAN", "BOOL");

  private final List<ChangeColumn> key;
  private final ChangeTypeSource typeSource;
  private final @Nullable ChangeColumn typeColumn;
  private final SequenceSource sequenceSource;
  private final @Nullable ChangeColumn sequenceColumn;
  private final Set<String> upsertValues;
  private final Set<String> deleteValues;

  private ChangeRule(
      List<ChangeColumn> key,
      ChangeTypeSource typeSource,
      @Nullable ChangeColumn typeColumn,
      SequenceSource sequenceSource,
      @Nullable ChangeColumn sequenceColumn,
      Set<String> upsertValues,
      Set<String> deleteValues) {
    this.key = List.copyOf(key);
    this.typeSource = typeSource;
    this.typeColumn = typeColumn;
    this.sequenceSource = sequenceSource;
    this.sequenceColumn = sequenceColumn;
    this.upsertValues = Set.copyOf(upsertValues);
    this.deleteValues = Set.copyOf(deleteValues);
  }

  /**
   * The rule of one struct, checked against its table: each problem is added to {@code problems},
   * naming the flag to change, and the result is null if there was one.
   *
   * @param struct the struct's name, for messages and its own key in {@code spec}
   * @param schema the struct's table schema (column order gives the proto field numbers: 1..n)
   */
  public static @Nullable ChangeRule of(
      ChangeSpec spec, String struct, TableSchema schema, List<String> problems) {
    int before = problems.size();
    List<String> names = spec.keyOf(struct);
    if (names.isEmpty()) {
      problems.add(
          "--primaryKey gives no key for struct "
              + struct
              + ": add "
              + struct
              + "=COLUMN[,COLUMN] (every struct of a change-mode job needs one)");
    }
    List<ChangeColumn> key = new ArrayList<>();
    for (String name : names) {
      ChangeColumn column = column(schema, name, "--primaryKey", struct, problems);
      if (column == null) {
        continue;
      }
      if (!KEY_TYPES.contains(column.type())) {
        problems.add(
            "--primaryKey column "
                + name
                + " of "
                + struct
                + " is "
                + column.type()
                + "; BigQuery keys must be INT64, STRING or BOOLEAN here (an integer, string,"
                + " enum or bool field)");
      }
      key.add(column);
    }
    ChangeColumn typeColumn = null;
    if (spec.changeType() instanceof ChangeTypeSource.Field field) {
      typeColumn = column(schema, field.name(), "--changeType", struct, problems);
      if (typeColumn != null && !typeColumn.type().equals("STRING")) {
        problems.add(
            "--changeType=field:"
                + field.name()
                + " of "
                + struct
                + " is "
                + typeColumn.type()
                + "; a change type field must be a string or an enum");
      }
    }
    ChangeColumn sequenceColumn = null;
    if (spec.sequence() instanceof SequenceSource.Field field) {
      sequenceColumn = column(schema, field.name(), "--changeSequence", struct, problems);
      if (sequenceColumn != null
          && !sequenceColumn.isInteger()
          && !sequenceColumn.type().equals("STRING")) {
        problems.add(
            "--changeSequence=field:"
                + field.name()
                + " of "
                + struct
                + " is "
                + sequenceColumn.type()
                + "; a sequence field must be an integer (a version or epoch time) or a string"
                + " holding a BigQuery sequence number");
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new ChangeRule(
        key,
        spec.changeType(),
        typeColumn,
        spec.sequence(),
        sequenceColumn,
        spec.upsertValues(),
        spec.deleteValues());
  }

  private static @Nullable ChangeColumn column(
      TableSchema schema, String name, String flag, String struct, List<String> problems) {
    List<TableFieldSchema> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      TableFieldSchema field = fields.get(i);
      if (field.getName().equals(name)) {
        if ("REPEATED".equals(field.getMode())) {
          problems.add(
              flag
                  + " names "
                  + name
                  + " of "
                  + struct
                  + ", which is repeated (a list, set or map); name a single-valued field");
          return null;
        }
        return new ChangeColumn(name, field.getType(), i + 1);
      }
    }
    List<String> known = new ArrayList<>();
    for (TableFieldSchema field : fields) {
      if (!field.getName().startsWith("_")) {
        known.add(field.getName());
      }
    }
    problems.add(
        flag
            + " names "
            + name
            + ", which is not a top-level field of "
            + struct
            + " (its fields: "
            + String.join(", ", known)
            + ")");
    return null;
  }

  public List<ChangeColumn> key() {
    return key;
  }

  public List<String> keyColumns() {
    List<String> names = new ArrayList<>();
    for (ChangeColumn column : key) {
      names.add(column.name());
    }
    return names;
  }

  /**
   * The suffix PROTO_MESSAGE's one-pass writer appends to each row of {@code columns} top-level
   * columns: this rule's change as the pseudo-columns.
   */
  public RowSuffix.Factory rowSuffix(int columns) {
    return ChangeStamp.factory(this, columns);
  }

  // What ChangeStamp plans its allocation-free path from (the same rule, read in place).

  ChangeTypeSource typeSource() {
    return typeSource;
  }

  @Nullable ChangeColumn typeColumn() {
    return typeColumn;
  }

  SequenceSource sequenceSource() {
    return sequenceSource;
  }

  @Nullable ChangeColumn sequenceColumn() {
    return sequenceColumn;
  }

  Set<String> upsertValues() {
    return upsertValues;
  }

  Set<String> deleteValues() {
    return deleteValues;
  }

  /**
   * The change {@code row} (with its message's {@code metadata}) makes.
   *
   * @throws ChangeException when it makes none: a key column is NULL, the change type is missing or
   *     unknown, the sequence is missing or malformed
   */
  public <R> Change decide(R row, ColumnReader<R> reader, EventMetadata metadata)
      throws ChangeException {
    for (ChangeColumn column : key) {
      if (!reader.has(row, column)) {
        throw new ChangeException(
            "primary key column "
                + column.name()
                + " is NULL (the event does not set it); BigQuery applies changes by key, so the"
                + " event cannot be one");
      }
    }
    return new Change(type(row, reader, metadata), sequence(row, reader, metadata));
  }

  private <R> MutationType type(R row, ColumnReader<R> reader, EventMetadata metadata)
      throws ChangeException {
    String value;
    String from;
    if (typeSource instanceof ChangeTypeSource.AllUpserts) {
      return MutationType.UPSERT;
    } else if (typeSource instanceof ChangeTypeSource.Attribute attribute) {
      value = metadata.attributes().get(attribute.name());
      from = "attribute (or Kafka header) " + attribute.name();
    } else {
      ChangeColumn column = Objects.requireNonNull(typeColumn);
      value = (String) reader.read(row, column);
      from = "field " + column.name();
    }
    if (value == null) {
      throw new ChangeException("the change type " + from + " is missing");
    }
    if (upsertValues.contains(value)) {
      return MutationType.UPSERT;
    }
    if (deleteValues.contains(value)) {
      return MutationType.DELETE;
    }
    throw new ChangeException(
        "the change type "
            + from
            + " is '"
            + value
            + "', which is neither an upsert value "
            + upsertValues
            + " (--upsertValues) nor a delete value "
            + deleteValues
            + " (--deleteValues)");
  }

  private <R> @Nullable String sequence(R row, ColumnReader<R> reader, EventMetadata metadata)
      throws ChangeException {
    if (sequenceSource instanceof SequenceSource.None) {
      return null;
    }
    if (sequenceSource instanceof SequenceSource.PublishTime) {
      if (!metadata.hasPublishTime()) {
        throw new ChangeException("the message has no publish time to order it by");
      }
      return ChangeSequence.ofSigned(metadata.publishTimeMillis());
    }
    if (sequenceSource instanceof SequenceSource.KafkaOffset) {
      if (metadata.kafka() == null) {
        throw new ChangeException("the message has no Kafka offset to order it by");
      }
      return ChangeSequence.ofUnsigned(metadata.kafka().offset());
    }
    ChangeColumn column = Objects.requireNonNull(sequenceColumn);
    Object value = reader.read(row, column);
    if (value == null) {
      throw new ChangeException(
          "the sequence field " + column.name() + " is NULL: changes to a key cannot be ordered");
    }
    if (value instanceof Long number) {
      return ChangeSequence.ofSigned(number);
    }
    String text = (String) value;
    if (!ChangeSequence.isValid(text)) {
      throw new ChangeException(
          "the sequence field "
              + column.name()
              + " is '"
              + (text.length() > 80 ? text.substring(0, 80) + "..." : text)
              + "', not a BigQuery sequence number (up to four sections of 1-16 hex digits"
              + " separated by /)");
    }
    return text;
  }
}
