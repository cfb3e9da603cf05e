package io.thriftbq.local.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which component of the pipeline a CPU sample belongs to: the rules of {@code components.tsv} (a
 * resource beside this class, the only copy; its header explains them), applied to an execution
 * sample's stack or, for a thread without samples, to the thread's name.
 */
public final class ComponentRules {
  /** A sample none of whose frames matches a rule. */
  public static final String UNLISTED = "other (no listed frame)";

  /** A thread with CPU in the window but no samples, whose name no rule matches. */
  public static final String UNSAMPLED = "other (Java threads with CPU but no samples in window)";

  /**
   * CPU of threads that ended in the window (the process's CPU less its live threads'), when none
   * of them left samples to spread it over.
   */
  public static final String ENDED = "other (threads that ended in the window, no samples)";

  /** The group of the three components above. */
  public static final String OTHER_GROUP = "other";

  /** Linux keeps a thread's name ({@code /proc/.../comm}) to this many characters. */
  static final int LINUX_THREAD_NAME_LENGTH = 15;

  /** One frame of a stack: the method's class and name. */
  public record Frame(String className, String method) {}

  private record Rule(String prefix, String component) {}

  private static ComponentRules standard;

  private final List<Rule> frameRules = new ArrayList<>();
  private final List<Rule> threadRules = new ArrayList<>();
  private final List<String> components = new ArrayList<>();
  private final List<String> groups = new ArrayList<>();
  private final Map<String, String> groupOf = new LinkedHashMap<>();
  // Classes repeat across samples (a few thousand against tens of thousands of samples of up to
  // 256 frames): each class is matched against the ~100 prefixes once.
  private final Map<String, Optional<Rule>> ruleOfClass = new HashMap<>();

  private ComponentRules() {}

  /** The rules of the {@code components.tsv} resource. */
  public static synchronized ComponentRules standard() {
    if (standard == null) {
      try (InputStream in = ComponentRules.class.getResourceAsStream("components.tsv")) {
        if (in == null) {
          throw new IllegalStateException("components.tsv is missing from the classpath");
        }
        standard = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return standard;
  }

  /**
   * Rules from lines {@code group<TAB>NAME} and {@code component<TAB>group<TAB>prefix,...}; blank
   * lines and {@code #} comments are skipped.
   */
  public static ComponentRules parse(List<String> lines) {
    ComponentRules rules = new ComponentRules();
    for (String line : lines) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\t");
      if (parts.length == 2 && parts[0].equals("group")) {
        rules.groups.add(parts[1]);
        continue;
      }
      if (parts.length != 3) {
        throw new IllegalArgumentException(
            "components: want COMPONENT<TAB>GROUP<TAB>PREFIXES or group<TAB>NAME, got: " + line);
      }
      String component = parts[0];
      if (!rules.groups.contains(parts[1])) {
        throw new IllegalArgumentException(
            "components: group '" + parts[1] + "' of '" + component + "' is not declared first");
      }
      String knownGroup = rules.groupOf.putIfAbsent(component, parts[1]);
      if (knownGroup != null && !knownGroup.equals(parts[1])) {
        throw new IllegalArgumentException("components: '" + component + "' is in two groups");
      }
      if (!rules.components.contains(component)) {
        rules.components.add(component);
      }
      for (String prefix : parts[2].split(",")) {
        String p = prefix.trim();
        if (p.startsWith("thread:")) {
          rules.threadRules.add(new Rule(p.substring("thread:".length()), component));
        } else if (!p.isEmpty()) {
          rules.frameRules.add(new Rule(p, component));
        }
      }
    }
    if (!rules.groups.contains(OTHER_GROUP)) {
      rules.groups.add(OTHER_GROUP);
    }
    for (String builtIn : List.of(UNLISTED, UNSAMPLED, ENDED)) {
      rules.components.add(builtIn);
      rules.groupOf.put(builtIn, OTHER_GROUP);
    }
    return rules;
  }

  /** Every component, in the order of the rules (the two built-in "other" ones last). */
  public List<String> components() {
    return List.copyOf(components);
  }

  /** The groups the components are drawn in, in order. */
  public List<String> groups() {
    return List.copyOf(groups);
  }

  public String group(String component) {
    String group = groupOf.get(component);
    if (group == null) {
      throw new IllegalArgumentException("no such component: " + component);
    }
    return group;
  }

  /**
   * The component of the innermost frame ({@code frames} from the sampled method outwards) that
   * matches a prefix, the longest prefix of that frame winning; {@link #UNLISTED} when none does.
   */
  public String classify(List<Frame> frames) {
    for (Frame frame : frames) {
      Optional<Rule> rule = ruleOf(frame.className());
      if (rule.isPresent()) {
        return rule.get().component();
      }
    }
    return UNLISTED;
  }

  /** The frame {@link #classify} decided by, as class.method (the sampled method when none). */
  public String decidingFrame(List<Frame> frames) {
    for (Frame frame : frames) {
      if (ruleOf(frame.className()).isPresent()) {
        return frame.className() + "." + frame.method();
      }
    }
    return frames.isEmpty()
        ? "(no frames)"
        : frames.get(0).className() + "." + frames.get(0).method();
  }

  /**
   * The component of a thread charged by its name (no execution samples): the longest {@code
   * thread:} prefix it starts with, or that starts with it when the name is as long as Linux keeps
   * names (cut); {@link #UNSAMPLED} when none.
   */
  public String byThreadName(String name) {
    String n = name == null ? "" : name;
    Rule best = null;
    for (Rule rule : threadRules) {
      boolean matches =
          n.startsWith(rule.prefix())
              || (n.length() == LINUX_THREAD_NAME_LENGTH && rule.prefix().startsWith(n));
      if (matches && (best == null || rule.prefix().length() > best.prefix().length())) {
        best = rule;
      }
    }
    return best == null ? UNSAMPLED : best.component();
  }

  private synchronized Optional<Rule> ruleOf(String className) {
    return ruleOfClass.computeIfAbsent(
        className,
        type -> {
          Rule best = null;
          for (Rule rule : frameRules) {
            if (type.startsWith(rule.prefix())
                && (best == null || rule.prefix().length() > best.prefix().length())) {
              best = rule;
            }
          }
          return Optional.ofNullable(best);
        });
  }
}
