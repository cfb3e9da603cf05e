package io.thriftbq.schema;

import java.nio.file.Path;
import java.util.List;

/**
 * The IDLs whose generated classes the tests hold, each with the class of the struct the parity
 * tests compare, so that which IDL a class was generated from is written once. Paths are given from
 * any module's directory ({@code ../thrift-common} names this module from itself too).
 */
public enum GeneratedTestIdl {
  SAMPLE("main/thrift/sample_event.thrift", "io.thriftbq.sample.Event"),
  ALL_TYPES("test/thrift/all_types.thrift", "io.thriftbq.testing.AllTypes"),
  /** Structs and a union with no fields: BOOLEAN columns. */
  PRESENCE("test/thrift/presence.thrift", "io.thriftbq.testing.presence.Flagged"),
  /** Fields written without an id (the compiler numbers them -1, -2, ...), an old style. */
  LEGACY("test/thrift/legacy.thrift", "io.thriftbq.testing.legacy.Job");

  private final String underSrc;
  private final String className;

  GeneratedTestIdl(String underSrc, String className) {
    this.underSrc = underSrc;
    this.className = className;
  }

  /** The IDL file. */
  public Path idl() {
    return Path.of("../thrift-common/src", underSrc);
  }

  public String className() {
    return className;
  }

  /** The struct's name in the IDL: the compiler names its class after it. */
  public String struct() {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** The struct read from the IDL at launch. */
  public ThriftSource idlSource() {
    return ThriftSource.idl(idl().toString(), List.of(), struct());
  }

  /** The struct from its generated class. */
  public ThriftSource classSource() {
    return ThriftSource.generatedClass(className);
  }

  @Override
  public String toString() {
    return struct();
  }
}
