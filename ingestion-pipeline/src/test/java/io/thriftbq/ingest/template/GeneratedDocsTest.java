package io.thriftbq.ingest.template;

import static org.junit.Assert.assertNull;

import io.thriftbq.template.FlexTemplateMetadata;
import io.thriftbq.template.GeneratedText;
import io.thriftbq.template.OptionDoc;
import io.thriftbq.template.OptionTable;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * The copies of the ingestion options' documentation are generated from the options: the flex
 * template's metadata.json, the README's option table and the option reference in
 * docs/INGESTION.md. Run {@code scripts/generate-docs.sh} after changing an option.
 */
public class GeneratedDocsTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));
  private static final Path REPO = MODULE.resolve("..");

  /** The options users set, ours and Beam's tuning knobs, in the template's order. */
  static List<OptionDoc> documentedOptions() {
    return IngestionTemplate.SPEC.options();
  }

  @Test
  public void flexTemplateMetadataIsGeneratedFromTheOptions() throws Exception {
    assertNull(
        GeneratedText.checkFile(
            MODULE.resolve("src/main/flex-template/metadata.json"),
            FlexTemplateMetadata.render(IngestionTemplate.SPEC)));
  }

  @Test
  public void readmeOptionTableIsGeneratedFromTheOptions() throws Exception {
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("README.md"),
            "ingestion options",
            OptionTable.markdown(documentedOptions(), true)));
  }

  @Test
  public void optionReferenceIsGeneratedFromTheOptions() throws Exception {
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/INGESTION.md"),
            "ingestion option reference",
            OptionTable.markdown(documentedOptions(), false)));
  }
}
