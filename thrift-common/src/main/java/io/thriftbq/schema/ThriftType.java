package io.thriftbq.schema;

import org.apache.thrift.protocol.TType;

/**
 * The type of a Thrift value, resolved from the generated class's metadata (typedefs resolved,
 * enums and structs bound to their classes). One model serves the BigQuery schema derivation, the
 * converters and the data generator, so they cannot disagree about a type.
 */
public sealed interface ThriftType extends java.io.Serializable
    permits ThriftType.Primitive,
        ThriftType.EnumRef,
        ThriftType.StructRef,
        ThriftType.ListOf,
        ThriftType.SetOf,
        ThriftType.MapOf {

  /** The {@link TType} constant this type has on the wire. */
  byte wireType();

  /** Scalar kinds; {@code BINARY} is Thrift {@code binary} (a string on the wire). */
  enum PrimitiveKind {
    BOOL(TType.BOOL),
    I8(TType.BYTE),
    I16(TType.I16),
    I32(TType.I32),
    I64(TType.I64),
    DOUBLE(TType.DOUBLE),
    STRING(TType.STRING),
    BINARY(TType.STRING);

    private final byte wireType;

    PrimitiveKind(byte wireType) {
      this.wireType = wireType;
    }

    public byte wireType() {
      return wireType;
    }
  }

  /** A scalar. {@code typedefName} is the IDL typedef used, or null. */
  record Primitive(PrimitiveKind kind, String typedefName) implements ThriftType {
    @Override
    public byte wireType() {
      return kind.wireType();
    }
  }

  /** An enum; values are in declaration order. */
  record EnumRef(ThriftEnum enumType) implements ThriftType {
    @Override
    public byte wireType() {
      return TType.I32;
    }
  }

  /** A struct, union or exception. */
  record StructRef(ThriftStruct struct) implements ThriftType {
    @Override
    public byte wireType() {
      return TType.STRUCT;
    }
  }

  record ListOf(ThriftType element) implements ThriftType {
    @Override
    public byte wireType() {
      return TType.LIST;
    }
  }

  record SetOf(ThriftType element) implements ThriftType {
    @Override
    public byte wireType() {
      return TType.SET;
    }
  }

  record MapOf(ThriftType key, ThriftType value) implements ThriftType {
    @Override
    public byte wireType() {
      return TType.MAP;
    }
  }

  /** True for list and set, which both map to a repeated column. */
  static boolean isRepeated(ThriftType type) {
    return type instanceof ListOf || type instanceof SetOf;
  }

  /** Element type of a list or set. */
  static ThriftType elementOf(ThriftType type) {
    if (type instanceof ListOf list) {
      return list.element();
    }
    if (type instanceof SetOf set) {
      return set.element();
    }
    throw new IllegalArgumentException("not a list or set: " + type);
  }
}
