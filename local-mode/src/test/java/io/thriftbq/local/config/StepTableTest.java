package io.thriftbq.local.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.thriftbq.template.GeneratedText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * The one step table ({@code scripts/lib/tuning-steps.tsv}) reaches every reader unchanged: the
 * numbered launch scripts put exactly the step's flags on the cloud command line, local mode runs
 * the same flags, and the step tables in the docs are generated from it.
 */
public class StepTableTest {
  private static final Path REPO = Path.of(System.getProperty("thriftbq.repoRoot", ".."));

  /** The option names the table sets in any step: the knobs the steps differ by. */
  private static TreeSet<String> stepOptionNames() {
    TreeSet<String> names = new TreeSet<>();
    for (TuningStep step : TuningStep.all()) {
      for (String flag : step.flags()) {
        names.add(name(flag));
      }
    }
    return names;
  }

  private static String name(String flag) {
    int equals = flag.indexOf('=');
    return equals < 0 ? flag : flag.substring(0, equals);
  }

  /** The values of {@code names} on a command line, by option name. */
  private static Map<String, String> values(List<String> words, TreeSet<String> names) {
    Map<String, String> values = new TreeMap<>();
    for (String word : words) {
      if (names.contains(name(word))) {
        values.put(name(word), word);
      }
    }
    return values;
  }

  @Test
  public void cloudAndLocalRunsOfEveryStepSetTheSameFlags() throws Exception {
    TreeSet<String> knobs = stepOptionNames();
    assertTrue(knobs.contains("--bigQueryWriteMethod"));
    for (TuningStep step : TuningStep.all()) {
      Path script = REPO.resolve("scripts").resolve(step.number() + "-" + step.name() + ".sh");
      assertTrue(
          script + " is missing: every step in the table needs its script", Files.exists(script));
      List<String> cloud = ingestionCommand(script);
      Map<String, String> expected = values(step.flags(), knobs);
      assertEquals(step + ": cloud flags", expected, values(cloud, knobs));
      assertEquals(
          step + ": local flags", expected, values(step.pipelineArgs(null, step.format()), knobs));
    }
  }

  @Test
  public void everyStepScriptIsInTheTable() throws IOException {
    List<String> scripts = new ArrayList<>();
    try (var files = Files.list(REPO.resolve("scripts"))) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("[0-9]+-.*\\.sh"))
          .sorted()
          .forEach(scripts::add);
    }
    List<String> fromTable = new ArrayList<>();
    for (TuningStep step : TuningStep.all()) {
      fromTable.add(step.number() + "-" + step.name() + ".sh");
    }
    fromTable.sort(null);
    assertEquals(fromTable, scripts);
  }

  @Test
  public void stepTablesInTheDocsAreGenerated() throws Exception {
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/TUNING.md"), "tuning step table", tuningTable()));
    assertNull(
        GeneratedText.checkBlock(REPO.resolve("docs/LOCAL.md"), "local step table", localTable()));
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/DEPLOYMENT.md"), "deployment step table", deploymentTable()));
  }

  static String deploymentTable() {
    StringBuilder table =
        new StringBuilder("| Script | Ingestion settings (plus the common ones) |\n|---|---|\n");
    for (TuningStep step : TuningStep.all()) {
      table
          .append("| `scripts/")
          .append(step.number())
          .append('-')
          .append(step.name())
          .append(".sh` | `")
          .append(String.join(" ", step.flags()))
          .append("` |\n");
    }
    return table.toString();
  }

  static String tuningTable() {
    StringBuilder table =
        new StringBuilder(
            "| # | Script | Write method | Format | Setting | What it teaches |\n"
                + "|---|---|---|---|---|---|\n");
    for (TuningStep step : TuningStep.all()) {
      table
          .append("| ")
          .append(step.number())
          .append(" | `")
          .append(step.number())
          .append('-')
          .append(step.name())
          .append(".sh` | `")
          .append(step.writeMethod())
          .append("` | `")
          .append(step.format())
          .append("` | ")
          .append(step.extraSetting())
          .append(" | ")
          .append(step.lesson())
          .append(" |\n");
    }
    return table.toString();
  }

  static String localTable() {
    StringBuilder table =
        new StringBuilder(
            "| step | write method | format | ingestion flags |\n|---|---|---|---|\n");
    for (TuningStep step : TuningStep.all()) {
      table
          .append("| ")
          .append(step.number())
          .append(" | ")
          .append(step.writeMethod())
          .append(" | ")
          .append(step.format())
          .append(" | `")
          .append(String.join(" ", step.flags()))
          .append("` |\n");
    }
    return table.toString();
  }

  /** The words of the ingestion command that {@code script --dry-run} prints. */
  private static List<String> ingestionCommand(Path script) throws Exception {
    Process process =
        new ProcessBuilder(
                "bash",
                script.toString(),
                "--dry-run",
                "--project",
                "my-project-1",
                "--skip-terraform",
                "--skip-build",
                "--no-generator")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out;
    try (InputStream in = process.getInputStream()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      out = bytes.toString(StandardCharsets.UTF_8);
    }
    assertTrue(script + " did not finish", process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(script + " --dry-run failed:\n" + out, 0, process.exitValue());
    for (String line : out.split("\n")) {
      if (line.contains("io.thriftbq.ingest.IngestionPipeline")) {
        return List.of(line.split(" "));
      }
    }
    throw new AssertionError(script + " --dry-run printed no ingestion command:\n" + out);
  }
}
