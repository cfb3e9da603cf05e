package io.thriftbq.schema;

import org.apache.thrift.TFieldIdEnum;

/**
 * One field of a struct.
 *
 * @param id the field id on the wire
 * @param name the IDL field name, also the BigQuery column name
 * @param requirement required, optional or default requirement
 * @param type the resolved type
 * @param fieldEnum the generated {@code _Fields} constant, used to read and write TBase objects
 */
public record ThriftField(
    short id, String name, Requirement requirement, ThriftType type, TFieldIdEnum fieldEnum) {

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
}
