package io.thriftbq.ingest.schema;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.schema.ThriftSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * An IDL whose table BigQuery would refuse fails where the schema is derived (launch, {@code
 * export-schema.sh}), naming the field to change; one at the limits is accepted.
 */
@RunWith(JUnit4.class)
public class ColumnRulesTest {
  @ClassRule public static final TemporaryFolder FOLDER = new TemporaryFolder();

  private static Path idl;

  @BeforeClass
  public static void writeIdl() throws IOException {
    StringBuilder text = new StringBuilder();
    text.append("struct CaseClash { 1: optional string id  2: optional string ID }\n");
    text.append("struct Inner { 1: optional i32 Count  2: optional i32 count }\n");
    text.append("struct NestedClash { 1: optional list<Inner> inners }\n");
    text.append("struct Attributes { 1: optional string _attributes  2: optional i32 x }\n");
    text.append(
        "struct Reserved { 1: optional string _partitiontime  2: optional i32 _TABLE_x }\n");
    text.append("struct NestedReserved { 1: optional Reserved r }\n");
    text.append("struct Dotted { 1: optional i32 a.b }\n");
    text.append("struct LongName { 1: optional i32 ").append("n".repeat(301)).append(" }\n");
    text.append("struct Longest { 1: optional i32 ").append("n".repeat(300)).append(" }\n");
    // D1 holds D2 ... D15 holds the leaf: 15 levels of RECORD from Deep15's top-level column,
    // BigQuery's limit; Deep16 is one more.
    for (int level = 1; level < 16; level++) {
      text.append("struct D").append(level).append(" { 1: optional D").append(level + 1);
      text.append(" n }\n");
    }
    text.append("struct D16 { 1: optional i32 leaf }\n");
    text.append("struct Deep16 { 1: optional D1 top }\n");
    text.append("struct Deep15 { 1: optional D2 top }\n");
    // A list of lists adds a RECORD (the inner list's wrapper): 14 structs and one wrapper.
    text.append("struct DeepByList { 1: optional list<list<D3>> top }\n");
    text.append("struct DeeperByList { 1: optional list<list<D2>> top }\n");
    text.append("struct Nothing {}\n");
    text.append("struct HoldsNothing { 1: optional i32 x  2: optional map<string, Nothing> m }\n");
    text.append("union EitherNothing { 1: Nothing nothing  2: i32 number }\n");
    idl = FOLDER.getRoot().toPath().resolve("rules.thrift");
    Files.writeString(idl, text, StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException refused(String struct, MetadataColumns metadata) {
    return assertThrows(
        IllegalArgumentException.class,
        () -> EventSchemas.of(ThriftSource.idl(idl.toString(), List.of(), struct), metadata));
  }

  private static EventSchemas accepted(String struct, MetadataColumns metadata) {
    return EventSchemas.of(ThriftSource.idl(idl.toString(), List.of(), struct), metadata);
  }

  @Test
  public void namesThatDifferOnlyInCaseAreRefusedAtAnyDepth() {
    assertThat(
        refused("CaseClash", MetadataColumns.NONE).getMessage(),
        allOf(
            containsString("Fields id and ID of struct rules.CaseClash differ only in case"),
            containsString("rename one in the IDL")));
    assertThat(
        refused("NestedClash", MetadataColumns.NONE).getMessage(),
        containsString("Fields Count and count of struct rules.Inner differ only in case"));
  }

  @Test
  public void aFieldNamedLikeAnEnabledMetadataColumnIsRefusedNamingTheFlag() {
    assertThat(
        refused("Attributes", MetadataColumns.of(MetadataColumn.ATTRIBUTES)).getMessage(),
        allOf(
            containsString("Field _attributes of struct rules.Attributes and the column"),
            containsString("--includeAttributes")));
    // Without the flag the field is an ordinary column.
    assertEquals(
        List.of("_attributes", "x"),
        accepted("Attributes", MetadataColumns.NONE).topLevelColumnNames());
  }

  @Test
  public void reservedPrefixesAreRefusedAtTheTopLevelIgnoringCase() {
    String message = refused("Reserved", MetadataColumns.NONE).getMessage();
    assertThat(
        message,
        allOf(
            containsString("Field _partitiontime of struct rules.Reserved starts with _PARTITION"),
            containsString("Field _TABLE_x of struct rules.Reserved starts with _TABLE_")));
    // Every problem at once, in one message.
    assertEquals(2, message.split("BigQuery reserves").length - 1);
    // Pseudo-columns are the table's own: a nested field may carry such a name.
    accepted("NestedReserved", MetadataColumns.NONE);
  }

  @Test
  public void namesBigQueryCannotHoldAreRefused() {
    assertThat(
        refused("Dotted", MetadataColumns.NONE).getMessage(),
        containsString("Field a.b of struct rules.Dotted is not a BigQuery column name"));
    assertThat(
        refused("LongName", MetadataColumns.NONE).getMessage(),
        containsString("has a name of 301 characters; BigQuery allows 300"));
    accepted("Longest", MetadataColumns.NONE);
  }

  @Test
  public void recordsNestDeeperThanFifteenLevelsAreRefused() {
    assertThat(
        refused("Deep16", MetadataColumns.NONE).getMessage(),
        allOf(
            containsString("Column top.n.n.n.n.n.n.n.n.n.n.n.n.n.n.n of struct rules.Deep16"),
            containsString("nests more than 15 levels of RECORD")));
    accepted("Deep15", MetadataColumns.NONE);
    accepted("DeepByList", MetadataColumns.NONE);
    assertThat(
        refused("DeeperByList", MetadataColumns.NONE).getMessage(),
        allOf(containsString("Column top.value.n."), not(containsString("differ only in case"))));
  }

  @Test
  public void aStructWithNoFieldsIsABooleanColumnAndRefusedOnlyAsATableWithoutColumns() {
    // BigQuery has no RECORD without fields: the column says whether the struct is there.
    TableFieldSchema map =
        accepted("HoldsNothing", MetadataColumns.NONE).tableSchema().getFields().get(1);
    assertEquals("REPEATED", map.getMode());
    assertEquals("BOOLEAN", map.getFields().get(1).getType());
    assertEquals("REQUIRED", map.getFields().get(1).getMode());
    TableFieldSchema member =
        accepted("EitherNothing", MetadataColumns.NONE).tableSchema().getFields().get(0);
    assertEquals(List.of("nothing", "BOOLEAN", "NULLABLE"), describe(member));
    assertThat(
        refused("Nothing", MetadataColumns.NONE).getMessage(),
        allOf(
            containsString("The struct rules.Nothing has no fields and no metadata column is on"),
            containsString("--includePublishTime")));
    // A struct with no fields is a table of its metadata columns.
    assertEquals(
        List.of("_publish_time"),
        accepted("Nothing", MetadataColumns.of(MetadataColumn.PUBLISH_TIME)).topLevelColumnNames());
  }

  private static List<String> describe(TableFieldSchema column) {
    return List.of(column.getName(), column.getType(), column.getMode());
  }
}
