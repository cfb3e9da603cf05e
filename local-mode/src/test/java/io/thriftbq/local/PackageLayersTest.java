package io.thriftbq.local;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The shape of local mode's code (docs/ARCHITECTURE.md): one package per concern, layered so that
 * every dependency points down (so there are no cycles), and no class so big that it holds several
 * concerns again.
 */
public class PackageLayersTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
  private static final Path JAVA = MODULE.resolve("src/main/java/io/thriftbq/local");

  /** Bottom to top: a package may use only packages listed before it. */
  static final List<String> LAYERS =
      List.of(
          "latency", // the hand-off latency probe: each row's age when it leaves for BigQuery
          "beamio", // Beam's Pub/Sub and BigQuery clients pointed at the emulators
          "profile", // the pipeline's CPU by component: JFR and /proc, the rules
          "engine", // the embedded Flink cluster or the DirectRunner
          "config", // what a run does: flags, source kind, tuning steps, tables
          "stack", // the emulators' and the Kafka broker's processes, and their clients
          "progress", // following a run: polls, CPU, rates, pipeline metrics
          "source", // where events are published: EventSource, Pub/Sub, publishers
          "result", // RunResult: what a run observed, as values
          "report", // the report and the step comparison, from a RunResult
          "run", // one run: creates, publishes, follows, reads back
          ""); // entry points: LocalRunner, EmulatorCeilings

  static final int MAX_LINES = 400;

  private static final Pattern OURS = Pattern.compile("\\bio\\.thriftbq\\.local\\.([a-z]+)\\.");

  @Test
  public void everyPackageIsInALayer() throws IOException {
    Set<String> packages = new TreeSet<>();
    for (Path file : javaFiles()) {
      packages.add(packageOf(file));
    }
    assertTrue("unlayered packages " + packages, LAYERS.containsAll(packages));
  }

  @Test
  public void dependenciesPointDown() throws IOException {
    List<String> upward = new ArrayList<>();
    for (Path file : javaFiles()) {
      String from = packageOf(file);
      Matcher m = OURS.matcher(code(file));
      while (m.find()) {
        String to = m.group(1);
        if (!to.equals(from) && LAYERS.indexOf(to) >= LAYERS.indexOf(from)) {
          upward.add(MODULE.relativize(file) + " (" + from + ") uses " + to);
        }
      }
      if (!from.isEmpty()
          && code(file).matches("(?s).*\\bimport io\\.thriftbq\\.local\\.[A-Z].*")) {
        upward.add(MODULE.relativize(file) + " (" + from + ") uses the entry points' package");
      }
    }
    assertEquals(List.of(), upward);
  }

  @Test
  public void noClassHoldsSeveralConcerns() throws IOException {
    List<String> big = new ArrayList<>();
    for (Path file : javaFiles()) {
      long lines = Files.readAllLines(file, StandardCharsets.UTF_8).size();
      if (lines > MAX_LINES) {
        big.add(MODULE.relativize(file) + " has " + lines + " lines");
      }
    }
    assertEquals("split by concern", List.of(), big);
  }

  private static List<Path> javaFiles() throws IOException {
    try (Stream<Path> files = Files.walk(JAVA)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }

  /** The subpackage of io.thriftbq.local, or "" for the root. */
  private static String packageOf(Path file) {
    return JAVA.relativize(file.getParent()).toString().replace('/', '.');
  }

  /** The file without comments and string literals: a class named in Javadoc is no dependency. */
  private static String code(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8)
        .replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "")
        .replaceAll("\"(?:[^\"\\\\\n]|\\\\.)*\"", "\"\"");
  }
}
