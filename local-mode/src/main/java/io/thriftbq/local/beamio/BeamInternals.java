package io.thriftbq.local.beamio;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.apache.beam.sdk.util.ReleaseInfo;

/**
 * Reaches the package-private members of Beam that local mode needs and Beam offers no public API
 * for, by reflection from our own package rather than by classes placed inside Beam's packages.
 * Each member is looked up once, by the one adapter that uses it ({@link
 * PlaintextPubsubGrpcClientFactory}, {@link StorageApiClientCaches}); a Beam release that renames
 * or removes it fails that lookup with a message naming the member and the Beam version the adapter
 * was written for, and {@code BeamInternalsTest} fails as soon as the Beam version changes.
 */
final class BeamInternals {
  /** The Beam release whose package-private members the adapters were checked against. */
  static final String WRITTEN_FOR_BEAM = "2.70.0";

  private BeamInternals() {}

  /** The Beam release on the class path. */
  static String beamVersion() {
    return ReleaseInfo.getReleaseInfo().getVersion();
  }

  /** The declared (package-private) constructor of {@code type} taking {@code parameters}. */
  static <T> Constructor<T> constructor(Class<T> type, Class<?>... parameters) {
    try {
      Constructor<T> constructor = type.getDeclaredConstructor(parameters);
      constructor.setAccessible(true);
      return constructor;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw missing(type.getName() + "(" + names(parameters) + ")", e);
    }
  }

  /** The declared (package-private) static method {@code name} of {@code type}. */
  static Method staticMethod(Class<?> type, String name, Class<?>... parameters) {
    try {
      Method method = type.getDeclaredMethod(name, parameters);
      if (!Modifier.isStatic(method.getModifiers())) {
        throw new NoSuchMethodException(name + " is no longer static");
      }
      method.setAccessible(true);
      return method;
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw missing(type.getName() + "." + name + "(" + names(parameters) + ")", e);
    }
  }

  /** The exception a reflective call threw, unwrapped when it is unchecked. */
  static RuntimeException rethrow(String member, ReflectiveOperationException e) {
    if (e instanceof InvocationTargetException call) {
      Throwable cause = call.getCause();
      if (cause instanceof RuntimeException unchecked) {
        return unchecked;
      }
      if (cause instanceof Error error) {
        throw error;
      }
    }
    return new IllegalStateException("calling Beam's " + member + " failed", e);
  }

  private static IllegalStateException missing(String member, Throwable cause) {
    return new IllegalStateException(
        "Beam "
            + beamVersion()
            + " has no "
            + member
            + ", which local mode reaches by reflection (written for Beam "
            + WRITTEN_FOR_BEAM
            + "); see io.thriftbq.local.beamio.BeamInternals",
        cause);
  }

  private static String names(Class<?>... parameters) {
    return String.join(", ", Arrays.stream(parameters).map(Class::getSimpleName).toList());
  }
}
