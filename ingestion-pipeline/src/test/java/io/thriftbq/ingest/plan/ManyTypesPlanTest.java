package io.thriftbq.ingest.plan;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.write.TableSetup;
import io.thriftbq.schema.EventTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** The plan of a many-types job: a table per struct, and every launch check with its flag. */
public class ManyTypesPlanTest {
  private static final String IDL = "--thriftIdl=../thrift-common/src/main/idl/shop_events.thrift";
  private static final String STRUCTS = "--thriftStructs=Order,Refund,Click";
  private static final String SUBSCRIPTION =
      "--subscription=projects/my-project/subscriptions/events-sub";

  private static IngestionPlan plan(String... args) {
    List<String> all = new ArrayList<>();
    all.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    all.add("--project=my-project");
    all.add(SUBSCRIPTION);
    all.add(IDL);
    if (Arrays.stream(args).noneMatch(arg -> arg.startsWith("--outputTable="))) {
      all.add("--outputTable=my-project:shop.events_{struct}");
    }
    all.addAll(Arrays.asList(args));
    return IngestionPlan.of(
        PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(IngestionOptions.class),
        IngestionPlan.Input.SOURCE);
  }

  private static String problem(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> plan(args)).getMessage();
  }

  @Test
  public void theWriteShapeIsOneForEveryTableWhereTheFormatAndTheRejectionsAllow() {
    IngestionPlan protoAtLeastOnce =
        plan(STRUCTS, "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE");
    assertFalse(protoAtLeastOnce.writesEveryTableAtOnce());
    assertEquals(
        "one BigQuery write per struct (3), because PROTO_MESSAGE has one schema per BigQuery"
            + " write: --formatToStore=AVRO_GENERIC_RECORD or TABLE_ROW with"
            + " --keepPayloadForWriteFailures=true writes every table with one write (a bundle"
            + " then waits for its appends once, not once per struct)",
        protoAtLeastOnce.describeWrites());

    IngestionPlan avro =
        plan(
            STRUCTS,
            "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
            "--formatToStore=AVRO_GENERIC_RECORD");
    assertFalse(avro.writesEveryTableAtOnce());
    assertTrue(
        avro.describeWrites(),
        avro.describeWrites().contains("set --keepPayloadForWriteFailures=true"));

    IngestionPlan avroKept =
        plan(
            STRUCTS,
            "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
            "--formatToStore=AVRO_GENERIC_RECORD",
            "--keepPayloadForWriteFailures=true");
    assertTrue(avroKept.writesEveryTableAtOnce());
    assertEquals("one BigQuery write for the 3 structs' tables", avroKept.describeWrites());

    // Streaming inserts turn PROTO_MESSAGE into TableRows, and name the table of a rejection.
    assertTrue(plan(STRUCTS, "--bigQueryWriteMethod=STREAMING_INSERTS").writesEveryTableAtOnce());
    IngestionPlan single = plan("--thriftStruct=Order", "--outputTable=my-project:shop.orders");
    assertFalse(single.writesEveryTableAtOnce());
    assertEquals("one BigQuery write, to my-project:shop.orders", single.describeWrites());
  }

  @Test
  public void eachStructGetsItsTableFromThePlaceholderOrItsOverride() {
    IngestionPlan plan = plan(STRUCTS, "--tableForStruct=Refund=other:money.refunds");
    assertFalse(plan.isSingleType());
    assertEquals(EventTypes.Layout.ATTRIBUTE, plan.eventTypes().layout());
    assertEquals(
        List.of(
            "my-project:shop.events_order", "other:money.refunds", "my-project:shop.events_click"),
        plan.types().stream().map(TypePlan::table).toList());
    assertEquals("my-project:shop.events_dead_letter", plan.deadLetterTable());
    assertEquals(
        List.of("Order", "Refund", "Click"), plan.types().stream().map(TypePlan::name).toList());
    assertTrue(plan.router().routes());

    TableSetup setup = plan.tableSetup();
    assertEquals(4, setup.tables().size());
    assertEquals(plan.deadLetterTable(), setup.tables().get(3).spec());
    for (TableSetup.Table table : setup.tables()) {
      assertTrue(table.spec() + " is brought up to date at launch", table.evolves());
    }
    assertEquals(plan.types().get(1).schemas().tableSchema(), setup.tables().get(1).schema());
  }

  @Test
  public void aUnionPlansItsStructMembers() {
    IngestionPlan plan = plan("--thriftUnion=AnyEvent", "--formatToStore=AVRO_GENERIC_RECORD");
    assertEquals(EventTypes.Layout.UNION, plan.eventTypes().layout());
    assertEquals(
        List.of("events_order", "events_refund", "events_click"),
        plan.types().stream().map(t -> t.table().substring(t.table().indexOf('.') + 1)).toList());
  }

  @Test
  public void everyBadCombinationSaysWhichFlagToChange() {
    assertThat(
        problem(STRUCTS, "--outputTable=my-project:shop.events"),
        containsString(
            "--outputTable=my-project:shop.events has no {struct}, but each of the structs Order,"
                + " Refund, Click needs its own table"));
    assertThat(
        problem(STRUCTS, "--outputTable=my-project:shop.events", "--tableForStruct=Order=s.o"),
        containsString("each of the structs Refund, Click needs its own table"));
    assertThat(
        problem(STRUCTS, "--tableForStruct=Nope=s.t"),
        containsString("--tableForStruct: Nope is not a struct of this job; it ingests Order"));
    assertThat(
        problem(STRUCTS, "--tableForStruct=Order"),
        containsString("--tableForStruct: Order is not STRUCT=TABLE"));
    assertThat(
        problem(STRUCTS, "--tableForStruct=Order=s.a,shop_events.Order=s.b"),
        containsString("--tableForStruct names Order twice"));
    assertThat(
        problem(STRUCTS, "--tableForStruct=Order=shop.events_click"),
        containsString("The structs Order and Click would both write to"));
    assertThat(
        problem(STRUCTS, "--deadLetterTable=my-project:shop.events_refund"),
        containsString("--deadLetterTable is the output table my-project:shop.events_refund"));
    assertThat(
        problem(STRUCTS, "--tableForStruct=Order=not a table"),
        containsString("--tableForStruct=not a table is not a table"));
    assertThat(
        problem("--thriftStruct=Order", "--tableForStruct=Order=s.t"),
        containsString("--tableForStruct names tables for several structs, but this job ingests"));
    assertThat(
        problem("--thriftStructs=Order:3,Click"),
        containsString("a weight (Order:3) is for the data generator"));
    assertThat(
        problem(STRUCTS, "--thriftClassName=io.thriftbq.sample.Event"),
        containsString("drop --thriftClassName"));
    assertThat(
        problem(STRUCTS, "--udfClassName=io.thriftbq.ingest.udf.ScriptedUdf"),
        containsString("--udfClassName works on Thrift-generated objects"));
    assertThat(
        problem("--thriftUnion=AnyEvent", "--thriftStructs=Money"),
        containsString("--thriftStructs=Money is not a struct member of --thriftUnion=AnyEvent"));
    assertThat(
        problem(STRUCTS, "--clusteringFields=order_id"), containsString("The table of Click: "));
  }

  @Test
  public void oneStructInTheListKeepsTheSingleTypeJob() {
    IngestionPlan plan = plan("--thriftStructs=Click", "--outputTable=my-project:shop.clicks");
    assertTrue(plan.isSingleType());
    assertEquals("my-project:shop.clicks", plan.outputTable());
    assertFalse(plan.router().routes());
  }
}
