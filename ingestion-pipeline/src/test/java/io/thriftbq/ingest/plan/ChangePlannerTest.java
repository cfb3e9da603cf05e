package io.thriftbq.ingest.plan;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.change.ChangeFlags;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.write.TableSetup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** Change mode's launch checks: each refusal names the flag to change. */
public class ChangePlannerTest {
  private static final String SUBSCRIPTION =
      "--subscription=projects/my-project/subscriptions/events-sub";

  private static IngestionOptions options(String... args) {
    List<String> all = new ArrayList<>();
    all.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    all.add("--project=my-project");
    all.add("--outputTable=my-project:ds.events");
    all.add(SUBSCRIPTION);
    all.addAll(Arrays.asList(args));
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(IngestionOptions.class);
  }

  private static IngestionPlan plan(String... args) {
    return IngestionPlan.of(options(args), IngestionPlan.Input.SOURCE);
  }

  private static void assertInvalid(String expectedText, String... args) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> plan(args));
    assertThat(error.getMessage(), containsString(expectedText));
  }

  @Test
  public void stepNinesSettingsPlanUpsertsWithTheKeyOnTheTable() {
    IngestionPlan plan = plan("--primaryKey=event_id", "--maxStaleness=PT15M");
    assertEquals(List.of("event_id"), plan.firstType().write().change().keyColumns());
    TableSetup.Table events = plan.tableSetup().tables().get(0);
    assertEquals(new TableSetup.Key(List.of("event_id"), "0-0 0 0:15:0"), events.key());
    TableSetup.Table deadLetters = plan.tableSetup().tables().get(1);
    assertNull("the dead-letter table stays append-only", deadLetters.key());
    assertTrue("proto rows carry their change", !plan.sink().keepsPayload());
  }

  @Test
  public void otherFormatsKeepTheMetadataTheirMutationsAreReadFrom() {
    IngestionPlan plan =
        plan(
            "--primaryKey=event_id",
            "--formatToStore=AVRO_GENERIC_RECORD",
            "--changeSequence=PUBLISH_TIME");
    assertTrue(plan.sink().keepsPayload());
  }

  @Test
  public void refusals() {
    assertInvalid(
        "needs --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--primaryKey=event_id",
        "--bigQueryWriteMethod=STORAGE_WRITE_API");
    assertInvalid(
        "needs --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE",
        "--primaryKey=event_id",
        "--bigQueryWriteMethod=STREAMING_INSERTS",
        "--formatToStore=TABLE_ROW");
    assertInvalid(
        "--handOffBeforeWrite may reorder the changes of one key",
        "--primaryKey=event_id",
        "--handOffBeforeWrite=true");
    assertInvalid("not a top-level field of Event", "--primaryKey=no_such_field");
    assertInvalid("which is repeated", "--primaryKey=products");
    assertInvalid("is RECORD", "--primaryKey=session");
    assertInvalid("top-level columns only", "--primaryKey=session.session_id");
    assertInvalid("at most 16", "--primaryKey=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q");
    assertInvalid(
        "--changeSequence=NONE works with --formatToStore=PROTO_MESSAGE only",
        "--primaryKey=event_id",
        "--formatToStore=TABLE_ROW");
    assertInvalid(
        "--changeSequence=KAFKA_OFFSET needs --source=KAFKA",
        "--primaryKey=event_id",
        "--changeSequence=KAFKA_OFFSET");
    assertInvalid(
        "a change type field must be a string or an enum",
        "--primaryKey=event_id",
        "--changeType=field:event_time");
    assertInvalid(
        "a sequence field must be an integer",
        "--primaryKey=event_id",
        "--changeSequence=field:session");
    assertInvalid(
        "--useStorageApiConnectionPool=true cannot be used with --primaryKey",
        "--primaryKey=event_id",
        "--useStorageApiConnectionPool=true");
    assertInvalid("not an ISO-8601 duration", "--primaryKey=event_id", "--maxStaleness=15m");
    assertInvalid("--changeSequence applies in change mode only", "--changeSequence=PUBLISH_TIME");
  }

  @Test
  public void idAttributeReachesThePubsubReadAndIsRefusedForKafka() {
    IngestionPlan plan = plan("--idAttribute=event_uuid");
    assertEquals(
        "event_uuid", ((io.thriftbq.ingest.read.PubsubEventSource) plan.source()).idAttribute());
    assertNull(((io.thriftbq.ingest.read.PubsubEventSource) plan().source()).idAttribute());
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                IngestionPlan.of(
                    PipelineOptionsFactory.fromArgs(
                            "--credentialFactoryClass="
                                + "org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory",
                            "--project=my-project",
                            "--outputTable=my-project:ds.events",
                            "--source=KAFKA",
                            "--kafkaBootstrapServers=127.0.0.1:9092",
                            "--kafkaTopics=events",
                            "--kafkaConsumerGroup=g",
                            "--idAttribute=event_uuid")
                        .as(IngestionOptions.class),
                    IngestionPlan.Input.SOURCE));
    assertThat(error.getMessage(), containsString("--idAttribute is a Pub/Sub attribute"));
  }

  @Test
  public void stalenessIsBigQuerysIntervalLiteral() {
    assertEquals("0-0 0 0:15:0", ChangeFlags.interval(Duration.ofMinutes(15)));
    assertEquals("0-0 1 2:3:4", ChangeFlags.interval(Duration.parse("P1DT2H3M4S")));
  }
}
