package io.thriftbq.datagen;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The shape of the generator's code: one package (so no package cycles), which uses the shared
 * module (thrift-common) and nothing of the ingestion pipeline or local mode, which sit above it.
 */
public class PackageLayersTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
  private static final Path JAVA = MODULE.resolve("src/main/java/io/thriftbq/datagen");

  /**
   * thrift-common's packages (and its generated sample event): all the generator may use of ours.
   */
  static final List<String> SHARED =
      List.of("change", "codec", "schema", "template", "kafka", "sample");

  private static final Pattern OURS = Pattern.compile("\\bio\\.thriftbq\\.([a-z]+)\\b");

  @Test
  public void isOnePackage() throws IOException {
    List<String> nested = new ArrayList<>();
    for (Path file : javaFiles()) {
      if (!file.getParent().equals(JAVA)) {
        nested.add(MODULE.relativize(file).toString());
      }
    }
    assertEquals(
        "a subpackage needs a declared layer order (see local-mode's PackageLayersTest)",
        List.of(),
        nested);
  }

  @Test
  public void usesOnlyTheSharedModule() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : javaFiles()) {
      Matcher m = OURS.matcher(code(file));
      while (m.find()) {
        String to = m.group(1);
        if (!to.equals("datagen") && !SHARED.contains(to)) {
          found.add(MODULE.relativize(file) + " uses io.thriftbq." + to);
        }
      }
    }
    assertEquals(List.of(), found);
  }

  private static List<Path> javaFiles() throws IOException {
    try (Stream<Path> files = Files.walk(JAVA)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }

  private static String code(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8)
        .replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "")
        .replaceAll("\"(?:[^\"\\\\\n]|\\\\.)*\"", "\"\"");
  }
}
