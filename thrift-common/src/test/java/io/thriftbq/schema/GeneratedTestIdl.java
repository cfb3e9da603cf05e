package io.thriftbq.schema;

import java.nio.file.Path;
import java.util.List;

/**
 * The IDLs whose generated classes the tests hold, each with the class and the struct the parity
 * tests compare, so that which IDL a class was generated from is written once. Paths are given from
 * any module's directory ({@code ../thrift-common} names this module from itself too).
 */
public enum GeneratedTestIdl {
  SAMPLE("main/thrift/sample_event.thrift", "io.thriftbq.sample.Event", "Event"),
  ALL_TYPES("test/thrift/all_types.thrift", "io.thriftbq.testing.AllTypes", "AllTypes"),
  /** Structs and a union with no fields: BOOLEAN columns. */
  PRESENCE("test/thrift/presence.thrift", "io.thriftbq.testing.presence.Flagged", "Flagged"),
  /** Fields written without an id (the compiler numbers them -1, -2, ...), an old style. */
  LEGACY("test/thrift/legacy.thrift", "io.thriftbq.testing.legacy.Job", "Job");

  private final String underSrc;
  private final String className;
  private final String struct;

  GeneratedTestIdl(String underSrc, String className, String struct) {
    this.underSrc = underSrc;
    this.className = className;
    this.struct = struct;
  }

  /** The IDL file. */
  public Path idl() {
    return Path.of("../thrift-common/src", underSrc);
  }

  public String className() {
    return className;
  }

  public String struct() {
    return struct;
  }

  /** The struct read from the IDL at launch. */
  public ThriftSource idlSource() {
    return ThriftSource.idl(idl().toString(), List.of(), struct);
  }

  /** The struct from its generated class. */
  public ThriftSource classSource() {
    return ThriftSource.generatedClass(className);
  }

  @Override
  public String toString() {
    return struct;
  }
}
