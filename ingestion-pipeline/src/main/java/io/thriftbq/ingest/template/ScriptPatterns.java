package io.thriftbq.ingest.template;

import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.PubsubNames;
import java.util.List;

/**
 * The rules the deployment scripts check before a launch, rendered as {@code
 * scripts/lib/patterns.generated.sh} from the Java constants that own them, so the scripts and the
 * pipelines read one copy ({@code ScriptPatternsTest} compares the file with {@link #render};
 * {@code scripts/generate-docs.sh} rewrites it).
 *
 * <p>bash's {@code [[ =~ ]]} reads a pattern as a POSIX extended regular expression, Java with its
 * own syntax. They decide alike whether a whole value matches an anchored pattern written with the
 * constructs both read the same way: literals, escaped punctuation, bracket expressions without
 * escapes or nested classes, groups, alternation, {@code ? * +} and {@code {m,n}}. {@link #render}
 * refuses any other construct. The scripts match in the C locale (bytes, ASCII ranges), and a
 * negated bracket expression may not carry a bounded count, so a non-ASCII character, one Java
 * character but several bytes, cannot be counted differently.
 */
public final class ScriptPatterns {
  private ScriptPatterns() {}

  /** A shell variable and the Java constant it copies; {@code value} is a String or an int. */
  record Rule(String shellName, String javaName, Object value) {}

  static final List<Rule> RULES =
      List.of(
          new Rule("THRIFT_STRUCT_REGEX", "ParameterPatterns.IDL_TYPE", ParameterPatterns.IDL_TYPE),
          new Rule(
              "THRIFT_STRUCTS_REGEX", "ParameterPatterns.IDL_TYPES", ParameterPatterns.IDL_TYPES),
          new Rule(
              "TABLE_FOR_STRUCT_ENTRY_REGEX",
              "ParameterPatterns.TABLE_FOR_STRUCT_ENTRY",
              ParameterPatterns.TABLE_FOR_STRUCT_ENTRY),
          new Rule(
              "PUBSUB_RESERVED_ATTRIBUTE_PREFIX",
              "PubsubNames.RESERVED_ATTRIBUTE_PREFIX",
              PubsubNames.RESERVED_ATTRIBUTE_PREFIX),
          new Rule(
              "PUBSUB_MAX_ATTRIBUTE_KEY_BYTES",
              "PubsubNames.MAX_ATTRIBUTE_KEY_BYTES",
              PubsubNames.MAX_ATTRIBUTE_KEY_BYTES));

  /** The text of {@code scripts/lib/patterns.generated.sh}. */
  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append("# shellcheck shell=bash\n")
        .append("# shellcheck disable=SC2034 # read by scripts/lib/validate.sh\n")
        .append("#\n")
        .append("# GENERATED from the Java constants named above each line by\n")
        .append(
            "# io.thriftbq.ingest.template.ScriptPatterns: do not edit; change the constant and\n")
        .append(
            "# run scripts/generate-docs.sh (ScriptPatternsTest fails while this file differs).\n")
        .append(
            "# Match the patterns with matches_pattern (scripts/lib/validate.sh), which reads them\n")
        .append("# as Java does.\n");
    for (Rule rule : RULES) {
      out.append('\n').append("# ").append(rule.javaName()).append('\n');
      if (rule.value() instanceof String text) {
        checkPortable(rule.javaName(), text);
        out.append(rule.shellName()).append("='").append(text).append("'\n");
      } else {
        out.append(rule.shellName()).append('=').append(rule.value()).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * Throws unless {@code pattern} uses only constructs that bash's ERE and Java read alike (see the
   * class comment), and can be single-quoted.
   */
  static void checkPortable(String name, String pattern) {
    boolean inClass = false;
    boolean negatedClass = false;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      char next = i + 1 < pattern.length() ? pattern.charAt(i + 1) : '\0';
      String problem = null;
      if (c == '\'') {
        problem = "a single quote";
      } else if (inClass) {
        if (c == '\\' || c == '[' || (c == '&' && next == '&')) {
          problem = "an escape, a nested class or && inside a bracket expression";
        } else if (c == ']') {
          inClass = false;
          if (negatedClass && next == '{') {
            problem = "a bounded count on a negated bracket expression";
          }
        }
      } else if (c == '\\') {
        if ("$^.*+?()[]{}|\\".indexOf(next) < 0) {
          problem = "the escape \\" + next;
        }
        i++;
      } else if (c == '[') {
        inClass = true;
        negatedClass = next == '^';
        i += negatedClass ? 1 : 0;
        if (i + 1 < pattern.length() && pattern.charAt(i + 1) == ']') {
          problem = "a ] first in a bracket expression (a literal in ERE, an error in Java)";
        }
      } else if (c == '(' && next == '?') {
        problem = "a (? group";
      } else if ("*+?}".indexOf(c) >= 0 && (next == '?' || next == '+')) {
        problem = "a lazy or possessive quantifier";
      } else if (c == '.') {
        problem = "an unescaped . (any character)";
      }
      if (problem != null) {
        throw new IllegalArgumentException(
            name + " = " + pattern + " has " + problem + ", which bash's [[ =~ ]] reads otherwise");
      }
    }
    if (inClass) {
      throw new IllegalArgumentException(name + " = " + pattern + " has an unclosed [");
    }
  }
}
