package io.thriftbq.local.progress;

import static org.junit.Assert.assertNull;

import io.thriftbq.template.GeneratedText;
import java.nio.file.Path;
import org.junit.Test;

/**
 * The docs quote CPU per event's definition from {@link SteadyWindow#DEFINITION}, as a generated
 * block ({@code scripts/generate-docs.sh} rewrites it), so the report, the page and RESULTS say the
 * same.
 */
public class CpuDefinitionDocsTest {
  private static final Path REPO = Path.of(System.getProperty("thriftbq.repoRoot", ".."));
  static final String BLOCK = "cpu per event";

  @Test
  public void localMdAndResultsQuoteTheDefinition() throws Exception {
    String text = SteadyWindow.DEFINITION + "\n";
    assertNull(GeneratedText.checkBlock(REPO.resolve("docs/LOCAL.md"), BLOCK, text));
    assertNull(GeneratedText.checkBlock(REPO.resolve("benchmarks/RESULTS.md"), BLOCK, text));
  }
}
