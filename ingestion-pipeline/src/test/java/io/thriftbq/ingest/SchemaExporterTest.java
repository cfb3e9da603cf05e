package io.thriftbq.ingest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The exporter writes one schema file per struct of a many-types job, and their Terraform map. */
public class SchemaExporterTest {
  private static final String SHOP_IDL = "../thrift-common/src/main/idl/shop_events.thrift";

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /** The schema the pipeline derives for one struct of the shop IDL, as the exporter writes it. */
  private static String expected(String struct) throws IOException {
    ThriftSource source = ThriftSource.idl(SHOP_IDL, List.of(), struct);
    List<TableFieldSchema> fields =
        EventSchemas.of(source, MetadataColumns.NONE).tableSchema().getFields();
    return SchemaExporter.toJson(fields);
  }

  @Test
  public void writesOneSchemaPerStructAndTheTerraformMap() throws IOException {
    File dir = tmp.newFolder("schemas");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftStructs=Order,Refund,Click",
          "--output=" + dir + "/{struct}.json",
          "--deadLetterOutput=" + dir + "/dead_letter_table.json",
          "--terraformVarsOutput=" + dir + "/event_tables.tfvars.json",
          "--terraformDir=" + tmp.getRoot()
        });
    for (String struct : List.of("Order", "Refund", "Click")) {
      Path file = dir.toPath().resolve(struct.toLowerCase() + ".json");
      assertTrue(file + " was not written", Files.isRegularFile(file));
      assertEquals(expected(struct), read(file));
    }
    assertThat(read(dir.toPath().resolve("order.json")), containsString("\"order_id\""));
    assertEquals(
        SchemaExporter.toJson(DeadLetterSchema.tableSchema().getFields()),
        read(dir.toPath().resolve("dead_letter_table.json")));

    @SuppressWarnings("unchecked")
    Map<String, Object> vars =
        GsonFactory.getDefaultInstance()
            .fromString(read(dir.toPath().resolve("event_tables.tfvars.json")), Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Map<String, String>> tables =
        (Map<String, Map<String, String>>) vars.get("event_tables");
    assertEquals(List.of("order", "refund", "click"), List.copyOf(tables.keySet()));
    assertEquals(Map.of("schema_file", "schemas/order.json"), tables.get("order"));
  }

  @Test
  public void aUnionExportsEachStructMemberAndTheMetadataColumns() throws IOException {
    File dir = tmp.newFolder("union");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftUnion=AnyEvent",
          "--includePublishTime=true",
          "--output=" + dir + "/events_{struct}.json",
          "--terraformVarsOutput=" + dir + "/vars.json"
        });
    List<String> files =
        Files.list(dir.toPath()).map(p -> p.getFileName().toString()).sorted().toList();
    // The union's string member (note) is no table.
    assertEquals(
        List.of("events_click.json", "events_order.json", "events_refund.json", "vars.json"),
        files);
    assertThat(
        read(dir.toPath().resolve("events_click.json")),
        containsString("\"" + MetadataColumns.PUBLISH_TIME + "\""));
    // No --terraformDir: absolute paths.
    assertThat(
        read(dir.toPath().resolve("vars.json")),
        containsString("\"schema_file\": \"" + dir.toPath().resolve("events_order.json")));
  }

  @Test
  public void theUnionMembersCanBeNarrowed() throws IOException {
    File dir = tmp.newFolder("narrow");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftUnion=AnyEvent",
          "--thriftStructs=Refund",
          "--output=" + dir + "/{struct}.json"
        });
    assertEquals(List.of(dir.toPath().resolve("refund.json")), Files.list(dir.toPath()).toList());
  }

  @Test
  public void oneStructMayUseThePlaceholderToo() throws IOException {
    File dir = tmp.newFolder("one");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL, "--thriftStruct=Click", "--output=" + dir + "/{struct}.json"
        });
    assertEquals(expected("Click"), read(dir.toPath().resolve("click.json")));
  }

  @Test
  public void severalStructsNeedThePlaceholder() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SchemaExporter.export(
                    new String[] {
                      "--thriftIdl=" + SHOP_IDL,
                      "--thriftStructs=Order,Refund",
                      "--output=" + tmp.getRoot() + "/event_table.json"
                    }));
    assertThat(e.getMessage(), containsString("put {struct} in it"));
    assertThat(e.getMessage(), containsString("Order, Refund"));
    assertFalse(Files.exists(tmp.getRoot().toPath().resolve("event_table.json")));
  }

  @Test
  public void severalStructsRefuseOneProtoAndTerraformVarsNeedThePlaceholder() {
    IllegalArgumentException proto =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SchemaExporter.export(
                    new String[] {
                      "--thriftIdl=" + SHOP_IDL,
                      "--thriftUnion=AnyEvent",
                      "--protoOutput=" + tmp.getRoot() + "/row.proto"
                    }));
    assertThat(proto.getMessage(), containsString("--thriftStruct=NAME"));
    IllegalArgumentException vars =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SchemaExporter.export(
                    new String[] {
                      "--thriftIdl=" + SHOP_IDL,
                      "--thriftStruct=Order",
                      "--deadLetterOutput=" + tmp.getRoot() + "/dead_letter_table.json",
                      "--terraformVarsOutput=" + tmp.getRoot() + "/vars.json"
                    }));
    assertThat(vars.getMessage(), containsString("--terraformVarsOutput"));
  }

  @Test
  public void theStructsMustBeInTheIdl() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SchemaExporter.export(
                    new String[] {
                      "--thriftIdl=" + SHOP_IDL,
                      "--thriftStructs=Order,Nope",
                      "--output=" + tmp.getRoot() + "/{struct}.json"
                    }));
    assertThat(e.getMessage(), containsString("Nope"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(Path file) throws IOException {
    return GsonFactory.getDefaultInstance().fromString(read(file), Map.class);
  }

  @Test
  public void changeModeWritesEachStructsKeyAndStalenessIntoTheTerraformMap() throws IOException {
    File dir = tmp.newFolder("schemas");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftStructs=Order,Refund,Click",
          "--primaryKey=Order=order_id;Refund=order_id,refund_id;Click=session_id,at_ms",
          "--maxStaleness=PT1H30M",
          "--output=" + dir + "/{struct}.json",
          "--terraformVarsOutput=" + dir + "/event_tables.tfvars.json",
          "--terraformDir=" + tmp.getRoot()
        });
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> tables =
        (Map<String, Map<String, Object>>)
            json(dir.toPath().resolve("event_tables.tfvars.json")).get("event_tables");
    assertEquals(
        Map.of(
            "schema_file", "schemas/order.json",
            "primary_key", List.of("order_id"),
            "max_staleness", "0-0 0 1:30:0"),
        tables.get("order"));
    assertEquals(List.of("order_id", "refund_id"), tables.get("refund").get("primary_key"));
    assertEquals(List.of("session_id", "at_ms"), tables.get("click").get("primary_key"));
    // The schemas themselves are the same as without change mode.
    assertEquals(expected("Order"), read(dir.toPath().resolve("order.json")));
  }

  @Test
  public void oneKeyForEveryStructWithoutStaleness() throws IOException {
    File dir = tmp.newFolder("schemas");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftStructs=Order,Refund",
          "--primaryKey=order_id",
          "--output=" + dir + "/{struct}.json",
          "--terraformVarsOutput=" + dir + "/vars.json"
        });
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> tables =
        (Map<String, Map<String, Object>>)
            json(dir.toPath().resolve("vars.json")).get("event_tables");
    assertEquals(List.of("order_id"), tables.get("refund").get("primary_key"));
    assertFalse(tables.get("refund").containsKey("max_staleness"));
  }

  @Test
  public void oneStructWritesTheSingleTablesRootVariables() throws IOException {
    File dir = tmp.newFolder("schemas");
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftStruct=Order",
          "--primaryKey=order_id",
          "--maxStaleness=PT15M",
          "--output=" + dir + "/event_table.json",
          "--terraformVarsOutput=" + dir + "/event_table.tfvars.json",
          "--terraformDir=" + tmp.getRoot()
        });
    assertEquals(
        Map.of(
            "event_table_schema_file", "schemas/event_table.json",
            "event_table_primary_key", List.of("order_id"),
            "event_table_max_staleness", "0-0 0 0:15:0"),
        json(dir.toPath().resolve("event_table.tfvars.json")));

    // Without change mode the file only names the schema: append-only, as before.
    SchemaExporter.export(
        new String[] {
          "--thriftIdl=" + SHOP_IDL,
          "--thriftStruct=Order",
          "--output=" + dir + "/event_table.json",
          "--terraformVarsOutput=" + dir + "/plain.tfvars.json"
        });
    assertEquals(
        Map.of("event_table_schema_file", dir.toPath().resolve("event_table.json").toString()),
        json(dir.toPath().resolve("plain.tfvars.json")));
  }

  /** The exporter's error for {@code args}, after checking it wrote nothing. */
  private String refused(String... args) throws IOException {
    File dir = tmp.newFolder();
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.add("--thriftIdl=" + SHOP_IDL);
    all.add("--output=" + dir + "/{struct}.json");
    all.add("--terraformVarsOutput=" + dir + "/vars.json");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SchemaExporter.export(all.toArray(new String[0])));
    try (var files = Files.list(dir.toPath())) {
      assertEquals("nothing written for " + all, 0, files.count());
    }
    return e.getMessage();
  }

  @Test
  public void changeFlagsAreCheckedAsTheLaunchChecksThem() throws IOException {
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=id"),
        containsString("--primaryKey names id, which is not a top-level field of Order"));
    assertThat(refused("--thriftStructs=Order", "--primaryKey=items"), containsString("repeated"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=total"),
        containsString("BigQuery keys must be INT64, STRING or BOOLEAN"));
    assertThat(
        refused("--thriftStructs=Order,Refund", "--primaryKey=Order=order_id"),
        containsString("--primaryKey gives no key for struct Refund"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=Order=order_id;Nope=id"),
        containsString("--primaryKey names struct Nope"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=order_id", "--maxStaleness=15m"),
        containsString("--maxStaleness=15m is not an ISO-8601 duration"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=order_id", "--maxStaleness=PT0S"),
        containsString("must be longer than zero"));
    assertThat(
        refused("--thriftStructs=Order", "--maxStaleness=PT15M"),
        containsString("--maxStaleness applies in change mode only"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=order_id", "--changeType=field:gift"),
        containsString("a change type field must be a string or an enum"));
    assertThat(
        refused("--thriftStructs=Order", "--primaryKey=" + "a,".repeat(17) + "a"),
        containsString("--primaryKey"));
  }
}
