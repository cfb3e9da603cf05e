package io.thriftbq.datagen;

import static org.junit.Assert.assertNull;

import io.thriftbq.template.FlexTemplateMetadata;
import io.thriftbq.template.GeneratedText;
import io.thriftbq.template.OptionTable;
import java.nio.file.Path;
import org.junit.Test;

/**
 * The copies of the generator options' documentation are generated from the options: the flex
 * template's metadata.json and the option reference in docs/DATAGEN.md. Run {@code
 * scripts/generate-docs.sh} after changing an option.
 */
public class GeneratedDocsTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));

  @Test
  public void flexTemplateMetadataIsGeneratedFromTheOptions() throws Exception {
    assertNull(
        GeneratedText.checkFile(
            MODULE.resolve("src/main/flex-template/metadata.json"),
            FlexTemplateMetadata.render(DatagenTemplate.SPEC)));
  }

  @Test
  public void optionReferenceIsGeneratedFromTheOptions() throws Exception {
    assertNull(
        GeneratedText.checkBlock(
            MODULE.resolve("../docs/DATAGEN.md"),
            "datagen option reference",
            OptionTable.markdown(DatagenTemplate.SPEC.options(), false)));
  }
}
