package io.thriftbq.ingest.convert;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One copy of a class per struct: the first struct gets the class itself, each further struct a
 * hidden class defined from the same bytecode, so that the JIT profiles and compiles each struct's
 * copy apart.
 *
 * <p>Why: the one-pass writer ({@link DirectProtoWriter}) is an interpreter, one switch over each
 * field's kind driven by a per-struct plan. C2 compiles it against the branch profile it has seen:
 * in a single-type job, the kinds that struct never uses become uncommon traps and what is left is
 * small and inlines deeply. In a many-types job every struct shared one compiled copy covering the
 * union of their kinds, and a three-struct mix cost 0.89x the single-struct paths per event even
 * with each event's type known in advance (benchmarks/RESULTS.md, "Many types in one job"). A copy
 * per struct restores the single-type profile; the cost is one more compiled copy per struct.
 *
 * <p>Copies are bounded ({@link #MAX_COPIES}); past the bound, and if a copy cannot be defined at
 * all, structs share the class itself, which is only slower. Thread-safe.
 */
final class PerStructClassCopies {
  private static final Logger LOG = LoggerFactory.getLogger(PerStructClassCopies.class);

  /** A job with more structs than this (or a test making thousands of IDLs) shares the class. */
  static final int MAX_COPIES = 256;

  private final MethodHandles.Lookup template;
  private final MethodType constructorType;
  private final ConcurrentHashMap<String, MethodHandle> constructors = new ConcurrentHashMap<>();
  private volatile byte @Nullable [] bytecode;
  private volatile boolean copiesUnavailable;

  /**
   * @param template a full-privilege lookup on the class to copy ({@code MethodHandles.lookup()}
   *     inside it): copies join its nest, so they reach its private nested classes
   * @param constructorType the constructor every copy is made with
   */
  PerStructClassCopies(MethodHandles.Lookup template, MethodType constructorType) {
    this.template = template;
    this.constructorType = constructorType.changeReturnType(void.class);
  }

  /** The constructor of {@code struct}'s copy (the same one for every call with that struct). */
  MethodHandle constructorFor(String struct) {
    MethodHandle existing = constructors.get(struct);
    if (existing != null) {
      return existing;
    }
    synchronized (constructors) {
      return constructors.computeIfAbsent(
          struct, key -> constructors.isEmpty() ? original() : copyOrOriginal());
    }
  }

  /** How many structs have a constructor, the original class's included. */
  int structs() {
    return constructors.size();
  }

  private MethodHandle original() {
    try {
      return template.findConstructor(template.lookupClass(), constructorType);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("no constructor " + constructorType, e);
    }
  }

  private MethodHandle copyOrOriginal() {
    if (copiesUnavailable || constructors.size() >= MAX_COPIES) {
      return original();
    }
    try {
      MethodHandles.Lookup copy =
          template.defineHiddenClass(bytecode(), true, MethodHandles.Lookup.ClassOption.NESTMATE);
      return copy.findConstructor(copy.lookupClass(), constructorType);
    } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError e) {
      copiesUnavailable = true;
      LOG.warn(
          "Cannot define a copy of {} per struct ({}); the structs of this job share one copy,"
              + " which is correct but slower with several event types",
          template.lookupClass().getName(),
          e.toString());
      return original();
    }
  }

  private byte[] bytecode() throws IOException {
    byte[] bytes = bytecode;
    if (bytes == null) {
      Class<?> type = template.lookupClass();
      // The binary name's last segment: Outer$Nested for a nested class.
      String resource = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
      try (InputStream in = type.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IOException("class file " + resource + " not found");
        }
        bytes = in.readAllBytes();
      }
      bytecode = bytes;
    }
    return bytes;
  }
}
