package io.thriftbq.schema;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Where the event struct's description comes from: a Thrift-generated class, or an IDL file read at
 * launch. Serializable and small, so transforms carry it to workers; a class is resolved there once
 * per JVM (cached), an IDL struct travels already resolved.
 */
public sealed interface ThriftSource extends Serializable
    permits ThriftSource.GeneratedClass, ThriftSource.Idl {

  /** The resolved struct; cached, so repeated calls are cheap. */
  ThriftStruct resolve();

  /** What a user would recognise in a message: the options and values that named the struct. */
  String describe();

  /**
   * A Thrift-generated Java class on the classpath, for example {@code io.thriftbq.sample.Event}.
   */
  static ThriftSource generatedClass(String className) {
    return new GeneratedClass(className);
  }

  /**
   * A struct read now from an IDL file (local or any Beam file system, for example {@code gs://}).
   *
   * @throws IllegalArgumentException with file, line and what to change when the IDL cannot be used
   */
  static ThriftSource idl(String idlPath, List<String> includePaths, String structName) {
    if (idlPath == null || idlPath.isBlank()) {
      throw new IllegalArgumentException("--thriftIdl is empty: name your .thrift file");
    }
    List<String> includes = includePaths == null ? List.of() : List.copyOf(includePaths);
    IdlFiles.Local local = IdlFiles.localize(idlPath.trim(), includes);
    ThriftStruct struct = ThriftIdl.load(local.idlFile(), local.includePaths(), structName);
    return new Idl(
        idlPath.trim(), includes, structName.trim(), ThriftIdl.fingerprint(struct), struct);
  }

  /**
   * Several structs read now from one IDL file, parsed once; see {@link #idl}.
   *
   * @throws IllegalArgumentException with file, line and what to change when the IDL cannot be used
   */
  static List<ThriftSource> idls(
      String idlPath, List<String> includePaths, List<String> names, String option) {
    if (idlPath == null || idlPath.isBlank()) {
      throw new IllegalArgumentException("--thriftIdl is empty: name your .thrift file");
    }
    List<String> includes = includePaths == null ? List.of() : List.copyOf(includePaths);
    IdlFiles.Local local = IdlFiles.localize(idlPath.trim(), includes);
    List<ThriftStruct> structs =
        ThriftIdl.loadAll(local.idlFile(), local.includePaths(), names, option);
    List<ThriftSource> sources = new java.util.ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      sources.add(ofIdlStruct(idlPath, includes, names.get(i).trim(), structs.get(i)));
    }
    return sources;
  }

  /** A struct already read from the IDL at {@code idlPath} (a union's member, for example). */
  static ThriftSource ofIdlStruct(
      String idlPath, List<String> includePaths, String structName, ThriftStruct struct) {
    return new Idl(
        idlPath.trim(),
        List.copyOf(includePaths),
        structName,
        ThriftIdl.fingerprint(struct),
        struct);
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

  /**
   * A struct read from an IDL at launch. Two values are equal when they name the same file and
   * struct and the struct has the same shape ({@code fingerprint}), so caches keyed by the source
   * survive serialization.
   */
  record Idl(
      String idlPath,
      List<String> includePaths,
      String structName,
      String fingerprint,
      ThriftStruct struct)
      implements ThriftSource {

    @Override
    public ThriftStruct resolve() {
      return struct;
    }

    @Override
    public String describe() {
      return "--thriftIdl=" + idlPath + " --thriftStruct=" + structName;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Idl idl
          && idlPath.equals(idl.idlPath)
          && structName.equals(idl.structName)
          && fingerprint.equals(idl.fingerprint);
    }

    @Override
    public int hashCode() {
      return Objects.hash(idlPath, structName, fingerprint);
    }
  }
}
