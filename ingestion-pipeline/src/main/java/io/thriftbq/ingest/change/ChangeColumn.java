package io.thriftbq.ingest.change;

import java.io.Serializable;
import java.util.Objects;

/**
 * A top-level column change mode reads from every row: a key column, the change-type field or the
 * sequence field.
 *
 * @param name the column's name
 * @param type its BigQuery type as the derived schema writes it (INTEGER, STRING or BOOLEAN)
 * @param protoNumber its field number in the row's protobuf message (PROTO_MESSAGE)
 */
public record ChangeColumn(String name, String type, int protoNumber) implements Serializable {
  public ChangeColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  public boolean isInteger() {
    return type.equals("INTEGER") || type.equals("INT64");
  }
}
