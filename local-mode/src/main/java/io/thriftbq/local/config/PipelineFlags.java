package io.thriftbq.local.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Pipeline flags by name: how a user's {@code --ingest-arg} meets the flags local mode sets. */
public final class PipelineFlags {
  private PipelineFlags() {}

  /** {@code --name} of {@code --name=value} or of a bare {@code --name}. */
  public static String name(String flag) {
    int equals = flag.indexOf('=');
    return equals < 0 ? flag : flag.substring(0, equals);
  }

  /** The names of {@code flags}. */
  public static Set<String> names(List<String> flags) {
    Set<String> names = new HashSet<>();
    for (String flag : flags) {
      names.add(name(flag));
    }
    return names;
  }

  /**
   * Whether the last of {@code flags} named {@code name} switches a boolean option on, as Beam
   * reads it: a bare {@code --name} or {@code --name=true} (any case); {@code false} when none is
   * named so.
   */
  public static boolean isOn(List<String> flags, String name) {
    boolean on = false;
    for (String flag : flags) {
      if (name(flag).equals(name)) {
        on = flag.equals(name) || Boolean.parseBoolean(flag.substring(name.length() + 1));
      }
    }
    return on;
  }

  /** The flags of {@code flags} that one of {@code replacing} gives again, by name. */
  public static List<String> replaced(List<String> flags, List<String> replacing) {
    Set<String> given = names(replacing);
    List<String> replaced = new ArrayList<>();
    for (String flag : flags) {
      if (given.contains(name(flag))) {
        replaced.add(flag);
      }
    }
    return replaced;
  }
}
