package io.thriftbq.schema;

import java.io.Serializable;

/**
 * Where the event struct's description comes from. Serializable and small, so transforms carry it
 * to workers and resolve it there once per JVM (resolution is cached).
 */
public sealed interface ThriftSource extends Serializable permits ThriftSource.GeneratedClass {

  /** The resolved struct; cached, so repeated calls are cheap. */
  ThriftStruct resolve();

  /** What a user would recognise in a message: the option and value that named the struct. */
  String describe();

  /**
   * A Thrift-generated Java class on the classpath, for example {@code io.thriftbq.sample.Event}.
   */
  static ThriftSource generatedClass(String className) {
    return new GeneratedClass(className);
  }

  /** A struct described by its Thrift-generated Java class. */
  record GeneratedClass(String className) implements ThriftSource {
    public GeneratedClass {
      className = className == null ? null : className.trim();
    }

    @Override
    public ThriftStruct resolve() {
      return ThriftStruct.forClassName(className);
    }

    @Override
    public String describe() {
      return "--thriftClassName=" + className;
    }
  }
}
