package io.thriftbq.ingest.convert;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Everything needed to build an {@link EventConverter}; {@code protoClassName} only for the
 * PROTO_MESSAGE format. Small and serializable, so DoFns carry it and build the heavy converter
 * once per instance.
 */
public record ConverterConfig(
    ThriftSource source,
    ThriftProtocol protocol,
    int maxStringBytes,
    int maxContainerElements,
    MetadataColumns metadataColumns,
    @Nullable String protoClassName)
    implements Serializable {

  public static final int DEFAULT_MAX_STRING_BYTES = 10 * 1024 * 1024;
  public static final int DEFAULT_MAX_CONTAINER_ELEMENTS = 1_000_000;

  public ConverterConfig {
    if (maxStringBytes <= 0 || maxContainerElements <= 0) {
      throw new IllegalArgumentException("Thrift size limits must be positive");
    }
  }

  /** Defaults for a generated class, handy in tests and benchmarks. */
  public static ConverterConfig of(
      String thriftClassName, ThriftProtocol protocol, MetadataColumns metadataColumns) {
    return new ConverterConfig(
        ThriftSource.generatedClass(thriftClassName),
        protocol,
        DEFAULT_MAX_STRING_BYTES,
        DEFAULT_MAX_CONTAINER_ELEMENTS,
        metadataColumns,
        null);
  }

  /** The same configuration for the PROTO_MESSAGE format with generated class {@code name}. */
  public ConverterConfig withProtoClassName(String name) {
    return new ConverterConfig(
        source, protocol, maxStringBytes, maxContainerElements, metadataColumns, name);
  }

  /** The schemas of the rows this configuration produces (cached per JVM). */
  public EventSchemas schemas() {
    return EventSchemas.of(source, metadataColumns);
  }
}
