package io.thriftbq.local.engine;

import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

/**
 * The README and LOCAL.md state how long local mode's bundles last; {@link
 * LocalEngine#DEFAULT_MAX_BUNDLE_MILLIS} is the one source, and a change to it fails here until
 * both pages say the new figure (their paragraphs explain the choice, so they are edited, not
 * generated).
 */
public class BundleTimeDocsTest {
  private static final Path REPO = Path.of(System.getProperty("thriftbq.repoRoot", ".."));

  @Test
  public void readmeStatesTheBundleTime() throws Exception {
    assertStates(
        "README.md", "bundle lasts up to " + LocalEngine.DEFAULT_MAX_BUNDLE_MILLIS + " ms");
  }

  @Test
  public void localMdStatesTheBundleTime() throws Exception {
    assertStates(
        "docs/LOCAL.md",
        "`--maxBundleTimeMills` at " + LocalEngine.DEFAULT_MAX_BUNDLE_MILLIS + " ms");
  }

  private static void assertStates(String page, String phrase) throws Exception {
    // Paragraphs wrap anywhere: compare with every run of whitespace as one space.
    String text = Files.readString(REPO.resolve(page)).replaceAll("\\s+", " ");
    assertTrue(
        page + " should say \"" + phrase + "\" (LocalEngine.DEFAULT_MAX_BUNDLE_MILLIS)",
        text.contains(phrase));
  }
}
