package io.thriftbq.ingest.plan;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.SchemaUpdate;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.testing.StepTable;
import io.thriftbq.ingest.udf.NotATransform;
import io.thriftbq.ingest.udf.ScriptedUdf;
import io.thriftbq.ingest.write.TableSetup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** Each invalid option or combination fails at launch with a message that says what to change. */
public class IngestionPlannerTest {
  private static final String SUBSCRIPTION =
      "--subscription=projects/my-project/subscriptions/events-sub";

  private static IngestionOptions options(String... args) {
    List<String> all = new ArrayList<>();
    all.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    all.add("--project=my-project");
    if (Arrays.stream(args).noneMatch(arg -> arg.startsWith("--outputTable="))) {
      all.add("--outputTable=my-project:ds.events");
    }
    all.addAll(Arrays.asList(args));
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(IngestionOptions.class);
  }

  private static IngestionPlan plan(IngestionOptions options) {
    return IngestionPlan.of(options, IngestionPlan.Input.SOURCE);
  }

  private static void assertInvalid(String expectedText, String... args) {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> plan(options(args)));
    assertThat(error.getMessage(), containsString(expectedText));
  }

  @Test
  public void defaultsWithASubscriptionAreValid() {
    plan(options(SUBSCRIPTION));
  }

  @Test
  public void theHandOffGoesWithTheAtLeastOnceWriteOnly() {
    IngestionPlan handed =
        plan(
            options(
                SUBSCRIPTION,
                "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
                "--handOffBeforeWrite=true"));
    assertTrue(handed.write().handOff());
    assertFalse(
        plan(options(SUBSCRIPTION, "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE"))
            .write()
            .handOff());
    assertInvalid(
        "--handOffBeforeWrite applies only to STORAGE_API_AT_LEAST_ONCE",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_WRITE_API",
        "--storageWriteApiTriggeringFrequencySec=1",
        "--handOffBeforeWrite=true");
  }

  @Test
  public void theHandOffFeedsAsManyWritersAsGivenAndNeedsToBeOn() {
    assertEquals(
        3,
        plan(options(
                SUBSCRIPTION,
                "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
                "--handOffBeforeWrite=true",
                "--handOffWriters=3"))
            .write()
            .handOffWriters());
    assertEquals(
        1,
        plan(options(SUBSCRIPTION, "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE"))
            .write()
            .handOffWriters());
    assertInvalid(
        "--handOffWriters=2 splits the rows among writers behind the hand-off, but"
            + " --handOffBeforeWrite is off: add --handOffBeforeWrite=true",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--handOffWriters=2");
    assertInvalid(
        "--handOffWriters=0 must be at least 1",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--handOffBeforeWrite=true",
        "--handOffWriters=0");
  }

  @Test
  public void protoMessageNeedsNoGeneratedClass() {
    IngestionPlan plain = plan(options(SUBSCRIPTION, "--formatToStore=PROTO_MESSAGE"));
    assertEquals(StorageFormat.PROTO_MESSAGE, plain.sink().format().id());
    plan(
        options(
            SUBSCRIPTION,
            "--formatToStore=PROTO_MESSAGE",
            "--includePubsubMessageId=true",
            "--includePublishTime=true",
            "--includeAttributes=true",
            "--keepUnknownFields=true",
            "--keepPayloadForWriteFailures=true"));
    plan(
        options(
            SUBSCRIPTION,
            "--formatToStore=PROTO_MESSAGE",
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent"));
    // The removed option fails at launch, naming itself.
    assertThrows(
        IllegalArgumentException.class,
        () -> options(SUBSCRIPTION, "--protoClassName=io.thriftbq.sample.proto.EventRow"));
  }

  @Test
  public void everyTuningStepIsValid() {
    Map<Integer, List<String>> steps = StepTable.flagsByStep();
    assertThat(steps.size(), greaterThanOrEqualTo(7));
    for (List<String> step : steps.values()) {
      List<String> args = new ArrayList<>(step);
      args.add(SUBSCRIPTION);
      plan(options(args.toArray(new String[0])));
    }
  }

  private static final String BYO_IDL = "../thrift-common/src/test/idl/byo_event.thrift";

  @Test
  public void anIdlReadAtLaunchNamesTheStruct() {
    IngestionPlan plan =
        plan(options(SUBSCRIPTION, "--thriftIdl=" + BYO_IDL, "--thriftStruct=ByoEvent"));
    assertEquals("byo_event.ByoEvent", plan.schemas().struct().qualifiedName());
    assertTrue(plan.schemas().topLevelColumnNames().contains("payload"));
  }

  @Test
  public void idlProblemsFailTheLaunchWithFileLineAndWhatToChange() {
    assertInvalid(
        "give exactly one",
        SUBSCRIPTION,
        "--thriftIdl=" + BYO_IDL,
        "--thriftStruct=ByoEvent",
        "--thriftClassName=io.thriftbq.sample.Event");
    assertInvalid("needs --thriftStruct", SUBSCRIPTION, "--thriftIdl=" + BYO_IDL);
    assertInvalid("--thriftIdl is not set", SUBSCRIPTION, "--thriftStruct=ByoEvent");
    assertInvalid("known: ", SUBSCRIPTION, "--thriftIdl=" + BYO_IDL, "--thriftStruct=NoSuchStruct");
    assertInvalid(
        "syntax_error.thrift",
        SUBSCRIPTION,
        "--thriftIdl=../thrift-common/src/test/idl/broken/syntax_error.thrift",
        "--thriftStruct=Broken");
    assertInvalid(
        "recursive.thrift:1",
        SUBSCRIPTION,
        "--thriftIdl=../thrift-common/src/test/idl/broken/recursive.thrift",
        "--thriftStruct=Node");
    assertInvalid(
        "--udfClassName works on Thrift-generated objects",
        SUBSCRIPTION,
        "--thriftIdl=" + BYO_IDL,
        "--thriftStruct=ByoEvent",
        "--udfClassName=io.thriftbq.ingest.udf.ScriptedUdf");
  }

  @Test
  public void needsExactlyOneSource() {
    assertInvalid("Neither --subscription nor --inputTopic");
    assertInvalid(
        "Both --subscription and --inputTopic",
        SUBSCRIPTION,
        "--inputTopic=projects/my-project/topics/events");
    assertInvalid("projects/PROJECT/subscriptions/NAME", "--subscription=events-sub");
    assertInvalid("projects/PROJECT/topics/NAME", "--inputTopic=projects/my-project/topics/ab");
  }

  @Test
  public void triggeringFrequencyOnlyWithExactlyOnce() {
    assertInvalid(
        "--storageWriteApiTriggeringFrequencySec applies only to STORAGE_WRITE_API",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--storageWriteApiTriggeringFrequencySec=5");
    assertInvalid(
        "--storageWriteApiTriggeringFrequencySec applies only to STORAGE_WRITE_API",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STREAMING_INSERTS",
        "--storageWriteApiTriggeringFrequencySec=5");
    assertInvalid(
        "needs --storageWriteApiTriggeringFrequencySec",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_WRITE_API");
    assertInvalid(
        "must be a positive number of seconds",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_WRITE_API",
        "--storageWriteApiTriggeringFrequencySec=0");
  }

  @Test
  public void autoShardingNeedsUnboundedInputAndAShuffle() {
    assertInvalid(
        "does nothing with STORAGE_API_AT_LEAST_ONCE",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--enableBigQueryAutoshard");
    IllegalArgumentException bounded =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                IngestionPlan.of(
                    options("--bigQueryWriteMethod=STREAMING_INSERTS", "--enableBigQueryAutoshard"),
                    IngestionPlan.Input.BOUNDED_MESSAGES));
    assertThat(bounded.getMessage(), containsString("only to unbounded"));
  }

  @Test
  public void streamingKeysOnlyWithStreamingInserts() {
    assertInvalid(
        "--numStreamingKeys applies only to STREAMING_INSERTS",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--numStreamingKeys=512");
    // Keys with auto-sharding on the same method: a warning, not an error.
    plan(
        options(
            SUBSCRIPTION,
            "--bigQueryWriteMethod=STREAMING_INSERTS",
            "--enableBigQueryAutoshard",
            "--numStreamingKeys=512"));
    assertInvalid(
        "--numStreamingKeys=0 must be positive",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STREAMING_INSERTS",
        "--numStreamingKeys=0");
  }

  @Test
  public void storageStreamsOnlyWithExactlyOnce() {
    assertInvalid(
        "(use --numStreamingKeys)",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STREAMING_INSERTS",
        "--numStorageWriteApiStreams=4");
    assertInvalid(
        "conflicts with --enableBigQueryAutoshard",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_WRITE_API",
        "--storageWriteApiTriggeringFrequencySec=1",
        "--enableBigQueryAutoshard",
        "--numStorageWriteApiStreams=4");
  }

  @Test
  public void connectionPoolOnlyWithAtLeastOnce() {
    assertInvalid(
        "--useStorageApiConnectionPool=true works only with STORAGE_API_AT_LEAST_ONCE",
        SUBSCRIPTION,
        "--bigQueryWriteMethod=STORAGE_WRITE_API",
        "--storageWriteApiTriggeringFrequencySec=1",
        "--useStorageApiConnectionPool=true");
  }

  @Test
  public void eventClassMustBeAThriftStruct() {
    assertInvalid("is not on the classpath", SUBSCRIPTION, "--thriftClassName=com.example.Missing");
    assertInvalid("is not a Thrift struct", SUBSCRIPTION, "--thriftClassName=java.lang.String");
  }

  @Test
  public void userFunctionMustLoadAndImplementTheInterface() {
    plan(options(SUBSCRIPTION, "--udfClassName=" + ScriptedUdf.class.getName()));
    assertInvalid("is not on the classpath", SUBSCRIPTION, "--udfClassName=com.example.NoSuchUdf");
    assertInvalid(
        "does not implement io.thriftbq.ingest.udf.EventTransform",
        SUBSCRIPTION,
        "--udfClassName=" + NotATransform.class.getName());
  }

  @Test
  public void tablesMustBeWellFormedAndDistinct() {
    assertInvalid("--outputTable=events is not a table", SUBSCRIPTION, "--outputTable=events");
    assertInvalid(
        "--deadLetterTable=a:b:c is not a table", SUBSCRIPTION, "--deadLetterTable=a:b:c");
    assertInvalid(
        "--deadLetterTable is the output table", SUBSCRIPTION, "--deadLetterTable=ds.events");
  }

  @Test
  public void limitsMustBePositive() {
    assertInvalid(
        "--maxThriftStringBytes=0 must be a positive", SUBSCRIPTION, "--maxThriftStringBytes=0");
    assertInvalid(
        "--maxThriftContainerElements=-1 must be a positive",
        SUBSCRIPTION,
        "--maxThriftContainerElements=-1");
  }

  @Test
  public void partitioningAndClusteringMustNameSuitableColumns() {
    plan(
        options(
            SUBSCRIPTION,
            "--includePublishTime=true",
            "--partitionType=DAY",
            "--partitionField=_publish_time",
            "--clusteringFields=event_type,user_id"));
    assertInvalid("--partitionType=WEEK is not one of", SUBSCRIPTION, "--partitionType=WEEK");
    assertInvalid("needs --partitionType", SUBSCRIPTION, "--partitionField=_publish_time");
    assertInvalid(
        "not a top-level column",
        SUBSCRIPTION,
        "--partitionType=DAY",
        "--partitionField=_publish_time");
    assertInvalid(
        "is a INTEGER column", SUBSCRIPTION, "--partitionType=DAY", "--partitionField=event_time");
    assertInvalid("not a top-level column", SUBSCRIPTION, "--clusteringFields=nope");
    assertInvalid("REPEATED RECORD column", SUBSCRIPTION, "--clusteringFields=products");
    assertInvalid(
        "at most 4",
        SUBSCRIPTION,
        "--clusteringFields=event_id,event_type,event_time,user_id,page_url");
    assertInvalid(
        "--createTable=false", SUBSCRIPTION, "--createTable=false", "--partitionType=DAY");
  }

  @Test
  public void keepPayloadWorksWithEveryFormatAndStep() {
    for (StorageFormat format : StorageFormat.values()) {
      for (List<String> step : StepTable.flagsByStep().values()) {
        List<String> args = new ArrayList<>(step);
        args.removeIf(arg -> arg.startsWith("--formatToStore="));
        args.add("--formatToStore=" + format);
        args.add("--keepPayloadForWriteFailures=true");
        if (step.stream().anyMatch(arg -> arg.startsWith("--primaryKey="))) {
          // Change mode's row mutations need a sequence outside PROTO_MESSAGE.
          args.add("--changeSequence=PUBLISH_TIME");
        }
        args.add(SUBSCRIPTION);
        IngestionPlan plan = plan(options(args.toArray(new String[0])));
        assertTrue(format + " " + step, plan.sink().keepsPayload());
        assertEquals(
            format + " " + step,
            Format.of(format).forMethod(plan.write().method()).id(),
            plan.sink().format().id());
      }
    }
  }

  /** The option's help is prose; it must not name a format it does not work with. */
  @Test
  public void keepPayloadHelpSaysItWorksWithEveryFormat() throws Exception {
    String help =
        IngestionOptions.class
            .getMethod("getKeepPayloadForWriteFailures")
            .getAnnotation(Description.class)
            .value();
    assertThat(help, containsString("Works with every format and every write method"));
  }

  @Test
  public void thePlanSetsUpTheOutputAndDeadLetterTables() {
    IngestionPlan plan = plan(options(SUBSCRIPTION, "--schemaUpdate=FAIL", "--createTable=false"));
    TableSetup setup = plan.tableSetup();
    assertEquals(SchemaUpdate.FAIL, setup.schemaUpdate());
    assertFalse(setup.createMissing());
    assertEquals(
        List.of(plan.outputTable(), plan.deadLetterTable()),
        setup.tables().stream().map(TableSetup.Table::spec).toList());
    assertTrue("the output table evolves", setup.tables().get(0).evolves());
    assertTrue("so does the dead-letter table", setup.tables().get(1).evolves());
    assertEquals(DeadLetterSchema.tableSchema(), setup.tables().get(1).schema());
    assertEquals(plan.schemas().tableSchema(), setup.tables().get(0).schema());
  }

  @Test
  public void reportsEveryProblemAtOnce() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(options("--maxThriftStringBytes=0", "--thriftClassName=java.lang.String")));
    assertThat(error.getMessage(), containsString("Neither --subscription"));
    assertThat(error.getMessage(), containsString("--maxThriftStringBytes=0"));
    assertThat(error.getMessage(), containsString("is not a Thrift struct"));
  }

  @Test
  public void buildPipelineValidatesFirst() {
    assertThrows(
        IllegalArgumentException.class,
        () -> IngestionPipeline.buildPipeline(options("--bigQueryWriteMethod=STORAGE_WRITE_API")));
  }
}
