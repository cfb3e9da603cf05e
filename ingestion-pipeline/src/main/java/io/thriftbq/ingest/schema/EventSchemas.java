package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryUtils;
import org.apache.beam.sdk.schemas.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one schema derivation: Thrift struct metadata → BigQuery {@link TableSchema}. The Beam and
 * Avro schemas, and the PROTO_MESSAGE message, are derived from that table schema, so every format
 * describes the same table. Derivation runs once per (struct source, metadata columns) and is
 * cached.
 *
 * <p>Type mapping (also in the README): bool → BOOLEAN; i8, i16, i32, i64 → INTEGER (INT64); double
 * → FLOAT (FLOAT64); string → STRING; binary → BYTES; enum → STRING (the value's IDL name); struct
 * and union → RECORD; list and set → REPEATED; map → REPEATED RECORD(key, value); typedefs → their
 * target type; required → REQUIRED, optional and default → NULLABLE; union members are always
 * NULLABLE. See {@link ColumnShape} for nested containers.
 */
public final class EventSchemas implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final Map<Key, EventSchemas> CACHE = new ConcurrentHashMap<>();

  private record Key(ThriftSource source, MetadataColumns metadataColumns) {}

  private final ThriftSource source;
  private final ThriftStruct struct;
  private final MetadataColumns metadataColumns;
  private final TableSchema tableSchema;
  private final Schema beamSchema;
  private final org.apache.avro.Schema avroSchema;
  private volatile com.google.protobuf.Descriptors.@Nullable Descriptor rowDescriptor;

  /** The package and name of the row message derived from the table schema. */
  public static final String ROW_MESSAGE_PACKAGE = "thriftbq.rows";

  public static final String ROW_MESSAGE_NAME = "EventRow";

  private EventSchemas(ThriftSource source, MetadataColumns metadataColumns) {
    this.source = source;
    this.struct = source.resolve();
    this.metadataColumns = metadataColumns;
    this.tableSchema = deriveTableSchema(struct, metadataColumns);
    this.beamSchema = BigQueryUtils.fromTableSchema(tableSchema);
    this.avroSchema = AvroSchemas.fromTableSchema(tableSchema);
  }

  /**
   * Schemas for the struct {@code source} names.
   *
   * @throws IllegalArgumentException if it names no usable struct, saying what to change
   */
  public static EventSchemas of(ThriftSource source, MetadataColumns metadataColumns) {
    return CACHE.computeIfAbsent(
        new Key(source, metadataColumns),
        key -> new EventSchemas(key.source(), key.metadataColumns()));
  }

  /** Schemas for a Thrift-generated class; see {@link #of(ThriftSource, MetadataColumns)}. */
  public static EventSchemas of(String thriftClassName, MetadataColumns metadataColumns) {
    return of(ThriftSource.generatedClass(thriftClassName), metadataColumns);
  }

  /** Where the struct's description comes from. */
  public ThriftSource source() {
    return source;
  }

  public ThriftStruct struct() {
    return struct;
  }

  public MetadataColumns metadataColumns() {
    return metadataColumns;
  }

  /** The BigQuery table schema. Treat as read-only: it is shared. */
  public TableSchema tableSchema() {
    return tableSchema;
  }

  public Schema beamSchema() {
    return beamSchema;
  }

  public org.apache.avro.Schema avroSchema() {
    return avroSchema;
  }

  /**
   * The row as a protocol buffer message, derived from the table schema (once per JVM): what the
   * PROTO_MESSAGE format writes and the Storage Write API reads, with no generated class.
   */
  public com.google.protobuf.Descriptors.Descriptor rowDescriptor() {
    com.google.protobuf.Descriptors.Descriptor descriptor = rowDescriptor;
    if (descriptor == null) {
      try {
        descriptor =
            com.google.protobuf.Descriptors.FileDescriptor.buildFrom(
                    ProtoSchemas.fileFor(tableSchema, ROW_MESSAGE_PACKAGE, ROW_MESSAGE_NAME),
                    new com.google.protobuf.Descriptors.FileDescriptor[0])
                .findMessageTypeByName(ROW_MESSAGE_NAME);
      } catch (com.google.protobuf.Descriptors.DescriptorValidationException e) {
        throw new IllegalArgumentException(
            "The table schema of " + struct.qualifiedName() + " is not a valid message: " + e, e);
      }
      rowDescriptor = descriptor;
    }
    return descriptor;
  }

  /** Names of the top-level columns, event fields first, then metadata columns. */
  public List<String> topLevelColumnNames() {
    List<String> names = new ArrayList<>();
    for (TableFieldSchema field : tableSchema.getFields()) {
      names.add(field.getName());
    }
    return names;
  }

  static TableSchema deriveTableSchema(ThriftStruct struct, MetadataColumns metadataColumns) {
    List<TableFieldSchema> fields = new ArrayList<>(structColumns(struct));
    for (MetadataColumn column : metadataColumns.inOrder()) {
      fields.add(column.tableField());
    }
    List<String> problems = ColumnRules.problems(struct, fields, metadataColumns.inOrder());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "BigQuery cannot hold the table of "
              + struct.qualifiedName()
              + ": "
              + String.join("; ", problems));
    }
    return new TableSchema().setFields(fields);
  }

  private static List<TableFieldSchema> structColumns(ThriftStruct struct) {
    List<TableFieldSchema> columns = new ArrayList<>(struct.fields().size());
    for (ThriftField field : struct.fields()) {
      boolean required = field.isRequired() && !struct.isUnion();
      columns.add(columnFor(field.name(), field.type(), required));
    }
    return columns;
  }

  private static TableFieldSchema columnFor(String name, ThriftType type, boolean required) {
    if (type instanceof ThriftType.MapOf map) {
      return column(name, "RECORD", "REPEATED")
          .setFields(
              List.of(
                  columnFor(ColumnShape.MAP_KEY, map.key(), true),
                  columnFor(ColumnShape.MAP_VALUE, map.value(), true)));
    }
    if (ThriftType.isRepeated(type)) {
      ThriftType element = ThriftType.elementOf(type);
      TableFieldSchema column =
          ColumnShape.needsWrapper(element)
              ? column(name, "RECORD", "REPEATED")
                  .setFields(List.of(columnFor(ColumnShape.WRAPPED_VALUE, element, true)))
              : columnFor(name, element, true);
      return column.setMode("REPEATED");
    }
    String mode = required ? "REQUIRED" : "NULLABLE";
    if (ColumnShape.isFieldlessStruct(type)) {
      return column(name, "BOOLEAN", mode);
    }
    if (type instanceof ThriftType.StructRef ref) {
      return column(name, "RECORD", mode).setFields(structColumns(ref.struct()));
    }
    if (type instanceof ThriftType.EnumRef) {
      return column(name, "STRING", mode);
    }
    ThriftType.Primitive primitive = (ThriftType.Primitive) type;
    String bigQueryType =
        switch (primitive.kind()) {
          case BOOL -> "BOOLEAN";
          case I8, I16, I32, I64 -> "INTEGER";
          case DOUBLE -> "FLOAT";
          case STRING -> "STRING";
          case BINARY -> "BYTES";
        };
    return column(name, bigQueryType, mode);
  }

  private static TableFieldSchema column(String name, String type, String mode) {
    return new TableFieldSchema().setName(name).setType(type).setMode(mode);
  }

  /**
   * Serialized as what it is derived from, and derived again (once per JVM, from the cache) when
   * read back: transforms and DoFns may hold an instance and still be shipped to workers.
   */
  private Object writeReplace() {
    return new SerializedForm(source, metadataColumns);
  }

  private record SerializedForm(ThriftSource source, MetadataColumns metadataColumns)
      implements Serializable {
    private Object readResolve() {
      return EventSchemas.of(source, metadataColumns);
    }
  }
}
