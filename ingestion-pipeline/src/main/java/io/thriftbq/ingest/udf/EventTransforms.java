package io.thriftbq.ingest.udf;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

/** Loads the user function named by {@code --udfClassName}. */
public final class EventTransforms {
  private EventTransforms() {}

  /**
   * Loads and instantiates {@code className}.
   *
   * @throws IllegalArgumentException if the class is missing, does not implement {@link
   *     EventTransform}, or cannot be instantiated; the message says what to change. The launch
   *     fails rather than running without the function the user asked for.
   */
  public static EventTransform load(String className) {
    Class<?> loaded = loadClass(className);
    if (!EventTransform.class.isAssignableFrom(loaded)) {
      throw new IllegalArgumentException(
          "--udfClassName="
              + className
              + " does not implement "
              + EventTransform.class.getName()
              + ": implement that interface (TBase<?, ?> apply(TBase<?, ?> event))");
    }
    if (Modifier.isAbstract(loaded.getModifiers())) {
      throw new IllegalArgumentException(
          "--udfClassName=" + className + " is abstract or an interface: name a concrete class");
    }
    Constructor<?> constructor;
    try {
      constructor = loaded.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          "--udfClassName="
              + className
              + " has no no-argument constructor: add a public one (the pipeline instantiates the"
              + " function itself)",
          e);
    }
    try {
      constructor.setAccessible(true);
      return (EventTransform) constructor.newInstance();
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(
          "The constructor of --udfClassName=" + className + " threw: " + e.getCause(),
          e.getCause());
    } catch (InstantiationException | IllegalAccessException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot instantiate --udfClassName=" + className + ": " + e, e);
    }
  }

  private static Class<?> loadClass(String className) {
    if (className == null || className.isBlank()) {
      throw new IllegalArgumentException("--udfClassName is empty: name a class or leave it unset");
    }
    String name = className.trim();
    try {
      return Class.forName(name, true, EventTransforms.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      try {
        return Class.forName(name, true, Thread.currentThread().getContextClassLoader());
      } catch (ClassNotFoundException | LinkageError again) {
        throw new IllegalArgumentException(
            "--udfClassName="
                + className
                + " is not on the classpath: check the name, or add the jar with your function"
                + " to the pipeline's classpath",
            again);
      }
    }
  }
}
