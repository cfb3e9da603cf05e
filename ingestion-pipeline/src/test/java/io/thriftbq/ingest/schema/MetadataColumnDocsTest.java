package io.thriftbq.ingest.schema;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

/**
 * The hand-written tables that describe the metadata columns and the dead-letter table name every
 * column the code makes, with its type: the README's type mapping and docs/INGESTION.md's
 * dead-letter table.
 */
public class MetadataColumnDocsTest {
  private static final Path REPO = Path.of(System.getProperty("basedir", ".")).resolve("..");

  @Test
  public void theTypeMappingNamesEveryMetadataColumnWithItsType() throws Exception {
    String readme = Files.readString(REPO.resolve("README.md"));
    for (MetadataColumn column : MetadataColumn.values()) {
      if (column == MetadataColumn.UNKNOWN_FIELDS) {
        continue; // documented with --keepUnknownFields
      }
      String type =
          column.kind() == MetadataColumn.Kind.KEY_VALUES
              ? "REPEATED RECORD(key, value)"
              : column.kind().name();
      String expected = "`" + column.columnName() + "` " + type;
      assertTrue("README.md type mapping lacks " + expected, readme.contains(expected));
    }
  }

  /** Each column's flag is an option of the pipeline (and of the schema exporter). */
  @Test
  public void everyColumnsFlagIsAnOption() throws Exception {
    for (MetadataColumn column : MetadataColumn.values()) {
      String property = column.flag().substring(2);
      String getter = "get" + Character.toUpperCase(property.charAt(0)) + property.substring(1);
      assertEquals(
          column.flag(),
          Boolean.class,
          io.thriftbq.ingest.options.IngestionOptions.class.getMethod(getter).getReturnType());
    }
  }

  @Test
  public void theDeadLetterTableDocNamesEveryColumn() throws Exception {
    String ingestion = Files.readString(REPO.resolve("docs/INGESTION.md"));
    for (TableFieldSchema field : DeadLetterSchema.tableSchema().getFields()) {
      assertTrue(
          "docs/INGESTION.md's dead-letter table lacks " + field.getName(),
          ingestion.contains("`" + field.getName() + "`"));
    }
  }
}
