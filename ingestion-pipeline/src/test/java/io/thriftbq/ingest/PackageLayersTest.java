package io.thriftbq.ingest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The shape of the ingestion pipeline's code (docs/ARCHITECTURE.md): one package per concern,
 * layered so that every dependency points down; {@code options} depends on nothing of ours but the
 * shared option groups and the template vocabulary; and no local-mode plumbing ships in the
 * production jar.
 */
public class PackageLayersTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
  private static final Path MAIN = MODULE.resolve("src/main");
  private static final Path JAVA = MAIN.resolve("java/io/thriftbq/ingest");

  /** Bottom to top: a package may use only packages listed before it. */
  static final List<String> LAYERS =
      List.of(
          "options",
          "origin",
          "deadletter",
          "metrics",
          "schema",
          "convert",
          "change",
          "format",
          "udf",
          "read",
          "route",
          "torows",
          "write",
          "plan",
          "template",
          "");

  private static final Pattern OURS =
      Pattern.compile("\\bio\\.thriftbq\\.([a-z]+)(?:\\.([a-z]+))?");

  @Test
  public void everyPackageIsInALayer() throws IOException {
    Set<String> packages = new TreeSet<>();
    for (Path file : javaFiles()) {
      packages.add(packageOf(file));
    }
    assertTrue("unlayered packages " + packages, LAYERS.containsAll(packages));
  }

  @Test
  public void optionsDependOnNothingOfOurs() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : javaFiles()) {
      if (!packageOf(file).equals("options")) {
        continue;
      }
      // Allowed: the shared option groups (the IDL and Kafka connection options every pipeline
      // takes), and thrift-common's template vocabulary (the getters' @TemplateParameter and the
      // input patterns it names), which depends on no pipeline.
      Matcher m =
          OURS.matcher(
              code(file)
                  .replace("io.thriftbq.schema.ThriftSchemaOptions", "option group")
                  .replace("io.thriftbq.kafka.KafkaConnectionOptions", "option group"));
      while (m.find()) {
        if (!m.group().equals("io.thriftbq.ingest.options")
            && !m.group().equals("io.thriftbq.template")) {
          found.add(MODULE.relativize(file) + " uses " + m.group());
        }
      }
    }
    assertEquals(List.of(), found);
  }

  @Test
  public void dependenciesPointDown() throws IOException {
    List<String> upward = new ArrayList<>();
    for (Path file : javaFiles()) {
      String from = packageOf(file);
      Matcher m = OURS.matcher(code(file));
      while (m.find()) {
        if (!"ingest".equals(m.group(1)) || m.group(2) == null) {
          continue; // another module (thrift-common), or the root package by class name
        }
        String to = m.group(2);
        if (!to.equals(from) && LAYERS.indexOf(to) >= layerOf(from)) {
          upward.add(MODULE.relativize(file) + " (" + from + ") uses " + to);
        }
      }
    }
    assertEquals(List.of(), upward);
  }

  /**
   * Making rows and writing them are siblings above the format layer: the format is what both need,
   * so neither reaches into the other (an earlier decoder asked the write for its converter).
   */
  @Test
  public void toRowsAndWriteDoNotKnowEachOther() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : javaFiles()) {
      String from = packageOf(file);
      String other =
          switch (from) {
            case "torows" -> "write";
            case "write" -> "torows";
            default -> null;
          };
      if (other != null && code(file).contains("io.thriftbq.ingest." + other)) {
        found.add(MODULE.relativize(file) + " (" + from + ") uses " + other);
      }
    }
    assertEquals(List.of(), found);
  }

  /** One place chooses by storage format; every other place asks the format layer. */
  @Test
  public void onlyTheFormatLayerSwitchesOnTheStorageFormat() throws IOException {
    List<String> found = new ArrayList<>();
    Pattern choice =
        Pattern.compile(
            "switch \\((format|storageFormat)\\)|case (TABLE_ROW|BEAM_ROW|AVRO_GENERIC_RECORD|PROTO_MESSAGE)\\b|instanceof \\w*(Format|Sink|Assembler)\\b");
    for (Path file : javaFiles()) {
      Matcher m = choice.matcher(code(file));
      while (m.find()) {
        found.add(JAVA.relativize(file) + ": " + m.group());
      }
    }
    assertEquals(
        List.of(
            "format/Format.java: switch (format)",
            "format/Format.java: case TABLE_ROW",
            "format/Format.java: case BEAM_ROW",
            "format/Format.java: case AVRO_GENERIC_RECORD",
            "format/Format.java: case PROTO_MESSAGE"),
        found);
  }

  /**
   * docs/ARCHITECTURE.md lists the packages once, in one table, top to bottom: the same packages in
   * the same order as {@link #LAYERS}, so a package added, renamed or moved fails here until the
   * table says what it holds.
   */
  @Test
  public void architectureDocListsThePackagesInLayerOrder() throws IOException {
    String doc =
        Files.readString(MODULE.resolve("../docs/ARCHITECTURE.md"), StandardCharsets.UTF_8);
    int start = doc.indexOf("## The ingestion pipeline's packages");
    assertTrue("docs/ARCHITECTURE.md has no package table", start >= 0);
    int end = doc.indexOf("\n## ", start + 1);
    Matcher row =
        Pattern.compile("(?m)^\\| (?:`([a-z]+)`|\\(root\\)) \\|")
            .matcher(doc.substring(start, end < 0 ? doc.length() : end));
    List<String> listed = new ArrayList<>();
    while (row.find()) {
      listed.add(row.group(1) == null ? "" : row.group(1));
    }
    List<String> topDown = new ArrayList<>(LAYERS);
    Collections.reverse(topDown);
    assertEquals(topDown, listed);
  }

  @Test
  public void nothingInTheProductionJarIsAboutEmulators() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        if (file.toString().contains("proto-gen")) {
          continue;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        if (text.contains("emulator")) {
          found.add(MODULE.relativize(file).toString());
        }
      }
    }
    assertEquals("local-mode code belongs in local-mode/", List.of(), found);
  }

  private static int layerOf(String pkg) {
    return LAYERS.indexOf(pkg);
  }

  private static List<Path> javaFiles() throws IOException {
    try (Stream<Path> files = Files.walk(JAVA)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }

  /** The subpackage of io.thriftbq.ingest, or "" for the root. */
  private static String packageOf(Path file) {
    Path relative = JAVA.relativize(file.getParent());
    return relative.toString().replace('/', '.');
  }

  /**
   * The file without comments and string literals, so that Javadoc or a help text mentioning a
   * class name is not a dependency.
   */
  private static String code(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    return text.replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "")
        .replaceAll("\"(?:[^\"\\\\\n]|\\\\.)*\"", "\"\"");
  }
}
