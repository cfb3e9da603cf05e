package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.schema.ThriftType;

/**
 * The rules that shape Thrift containers into BigQuery columns, shared by the schema derivation and
 * every converter so that schema and rows cannot drift apart.
 *
 * <ul>
 *   <li>list and set become a REPEATED column of the element;
 *   <li>map becomes a REPEATED RECORD of {@value #MAP_KEY} and {@value #MAP_VALUE};
 *   <li>BigQuery has no array of arrays, so an element that is itself repeated (list, set or map)
 *       is wrapped in a RECORD with one field, {@value #WRAPPED_VALUE};
 *   <li>BigQuery has no RECORD without fields, so a struct with no fields (a marker such as a union
 *       member {@code Heartbeat {}}) becomes a BOOLEAN: true where the struct is present.
 * </ul>
 */
public final class ColumnShape {
  public static final String MAP_KEY = "key";
  public static final String MAP_VALUE = "value";
  public static final String WRAPPED_VALUE = "value";

  private ColumnShape() {}

  /** True if the column is a RECORD (STRUCT is BigQuery's other name for it). */
  public static boolean isRecord(TableFieldSchema column) {
    return "RECORD".equals(column.getType()) || "STRUCT".equals(column.getType());
  }

  /** True if the type becomes a REPEATED column (list, set or map). */
  public static boolean isRepeated(ThriftType type) {
    return ThriftType.isRepeated(type) || type instanceof ThriftType.MapOf;
  }

  /**
   * True if the type is a struct, union or exception with no fields: its column is a BOOLEAN that
   * says the struct is there (its only information), since BigQuery has no RECORD without fields.
   */
  public static boolean isFieldlessStruct(ThriftType type) {
    return type instanceof ThriftType.StructRef ref && ref.struct().fields().isEmpty();
  }

  /** True if elements of this type need the one-field wrapper record inside a repeated column. */
  public static boolean needsWrapper(ThriftType elementType) {
    return isRepeated(elementType);
  }
}
