package io.thriftbq.ingest.convert;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import java.io.Serializable;
import java.util.Objects;

/**
 * Everything needed to build an {@link EventConverter}. Small and serializable, so DoFns carry it
 * and build the heavy converter once per instance.
 *
 * @param unknownEnumValues what every format does with an enum number the IDL does not name
 * @param invalidUtf8 what every format does with a string field that is not valid UTF-8
 */
public record ConverterConfig(
    ThriftSource source,
    ThriftProtocol protocol,
    int maxStringBytes,
    int maxContainerElements,
    long maxRowBytes,
    MetadataColumns metadataColumns,
    UnknownEnumValues unknownEnumValues,
    InvalidUtf8 invalidUtf8)
    implements Serializable {

  public ConverterConfig {
    if (maxStringBytes <= 0 || maxContainerElements <= 0 || maxRowBytes <= 0) {
      throw new IllegalArgumentException("Thrift size limits must be positive");
    }
    Objects.requireNonNull(unknownEnumValues, "unknownEnumValues");
    Objects.requireNonNull(invalidUtf8, "invalidUtf8");
  }

  /** The options' defaults for a generated class, handy in tests and benchmarks. */
  public static ConverterConfig of(
      String thriftClassName, ThriftProtocol protocol, MetadataColumns metadataColumns) {
    return of(ThriftSource.generatedClass(thriftClassName), protocol, metadataColumns);
  }

  /** The options' defaults for any source (a generated class or an IDL). */
  public static ConverterConfig of(
      ThriftSource source, ThriftProtocol protocol, MetadataColumns metadataColumns) {
    return new ConverterConfig(
        source,
        protocol,
        IngestionOptions.DEFAULT_MAX_THRIFT_STRING_BYTES,
        IngestionOptions.DEFAULT_MAX_THRIFT_CONTAINER_ELEMENTS,
        IngestionOptions.DEFAULT_MAX_ROW_BYTES,
        metadataColumns,
        UnknownEnumValues.KEEP,
        InvalidUtf8.DEAD_LETTER);
  }

  /** The same configuration with other decoding rules. */
  public ConverterConfig withRules(UnknownEnumValues unknownEnums, InvalidUtf8 strings) {
    return new ConverterConfig(
        source,
        protocol,
        maxStringBytes,
        maxContainerElements,
        maxRowBytes,
        metadataColumns,
        unknownEnums,
        strings);
  }

  /** The same configuration with other size limits. */
  public ConverterConfig withLimits(int stringBytes, int containerElements) {
    return new ConverterConfig(
        source,
        protocol,
        stringBytes,
        containerElements,
        maxRowBytes,
        metadataColumns,
        unknownEnumValues,
        invalidUtf8);
  }

  /** The same configuration with another row-size limit. */
  public ConverterConfig withMaxRowBytes(long rowBytes) {
    return new ConverterConfig(
        source,
        protocol,
        maxStringBytes,
        maxContainerElements,
        rowBytes,
        metadataColumns,
        unknownEnumValues,
        invalidUtf8);
  }

  /** The schemas of the rows this configuration produces (cached per JVM). */
  public EventSchemas schemas() {
    return EventSchemas.of(source, metadataColumns);
  }
}
