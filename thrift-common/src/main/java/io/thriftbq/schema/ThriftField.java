package io.thriftbq.schema;

import java.io.Serializable;
import org.apache.thrift.TFieldIdEnum;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One field of a struct.
 *
 * @param id the field id on the wire
 * @param name the IDL field name, also the BigQuery column name
 * @param requirement required, optional or default requirement
 * @param type the resolved type
 * @param fieldEnum the generated {@code _Fields} constant, used to read and write TBase objects;
 *     null when the struct was read from an IDL
 * @param idlDefault the IDL default value encoded with the binary protocol (the value alone, no
 *     field header), or null: set only for structs read from an IDL (a generated class carries its
 *     defaults in its constructor)
 * @param location where the field is declared ({@code file.thrift:line}), or null when unknown
 */
public record ThriftField(
    short id,
    String name,
    Requirement requirement,
    ThriftType type,
    @Nullable TFieldIdEnum fieldEnum,
    byte @Nullable [] idlDefault,
    @Nullable String location)
    implements Serializable {

  /** Thrift's three requirement levels. */
  public enum Requirement {
    REQUIRED,
    OPTIONAL,
    DEFAULT;

    static Requirement of(byte thriftRequirementType) {
      return switch (thriftRequirementType) {
        case org.apache.thrift.TFieldRequirementType.REQUIRED -> REQUIRED;
        case org.apache.thrift.TFieldRequirementType.OPTIONAL -> OPTIONAL;
        default -> DEFAULT;
      };
    }
  }

  public boolean isRequired() {
    return requirement == Requirement.REQUIRED;
  }

  /** {@code name}, followed by where it is declared when that is known. */
  public String describe() {
    return location == null ? name : name + " (" + location + ")";
  }
}
