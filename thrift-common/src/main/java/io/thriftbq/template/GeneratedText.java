package io.thriftbq.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks, or rewrites, text that is generated from a single source: a whole file, or a block
 * between marker lines inside a hand-written file ({@code <!-- BEGIN GENERATED: NAME -->} ...
 * {@code <!-- END GENERATED: NAME -->}). Tests call {@link #check}; with the system property
 * {@value #UPDATE_PROPERTY}=true (as {@code scripts/generate-docs.sh} sets it) they rewrite the
 * files instead of failing.
 */
public final class GeneratedText {
  public static final String UPDATE_PROPERTY = "thriftbq.updateGeneratedFiles";

  private GeneratedText() {}

  /**
   * Compares {@code file} with {@code expected}; returns null if equal (or just rewritten), else a
   * message saying what is out of date and how to regenerate it.
   */
  public static String checkFile(Path file, String expected) throws IOException {
    String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
    if (expected.equals(actual)) {
      return null;
    }
    if (update()) {
      Files.writeString(file, expected, StandardCharsets.UTF_8);
      return null;
    }
    return file + " is out of date: run scripts/generate-docs.sh";
  }

  /** Like {@link #checkFile}, for the block {@code name} inside {@code file}. */
  public static String checkBlock(Path file, String name, String expected) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String begin = "<!-- BEGIN GENERATED: " + name + " (scripts/generate-docs.sh) -->\n";
    String end = "<!-- END GENERATED: " + name + " -->";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from < 0 || to < from) {
      return file + " has no block " + begin.trim() + " ... " + end + ": add the two marker lines";
    }
    String actual = text.substring(from + begin.length(), to);
    if (expected.equals(actual)) {
      return null;
    }
    if (update()) {
      Files.writeString(
          file,
          text.substring(0, from + begin.length()) + expected + text.substring(to),
          StandardCharsets.UTF_8);
      return null;
    }
    return file + " block " + name + " is out of date: run scripts/generate-docs.sh";
  }

  private static boolean update() {
    return Boolean.getBoolean(UPDATE_PROPERTY);
  }
}
