package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.ChangeMix;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.run.LocalRun;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Change mode end to end (step 9): the generator's change stream (new keys, updates, deletes,
 * redeliveries and out-of-order changes) through the emulators and the pipeline, and the table's
 * final state checked against the stream's expected one by local mode's report: every live key
 * present with its winning change, no deleted key back, nothing stale, no extra row. From Pub/Sub
 * and from Kafka, in two formats, for one struct and for three.
 */
@RunWith(Parameterized.class)
public class ChangeModeEndToEndTest {
  private static final int EVENTS = 400;
  private static final Path SHOP_IDL =
      Path.of(System.getProperty("basedir", "."))
          .resolve("../thrift-common/src/main/idl/shop_events.thrift")
          .normalize();

  @Parameterized.Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return List.of(
        new Object[] {
          "pubsub-proto-sample",
          SourceKind.PUBSUB,
          StorageFormat.PROTO_MESSAGE,
          false,
          List.of("--changeType=attribute:change_type", "--changeSequence=field:event_time"),
          "keys=80,updates=0.2,deletes=0.05,duplicates=0.1,reorder=0.05"
        },
        new Object[] {
          "pubsub-avro-sample",
          SourceKind.PUBSUB,
          StorageFormat.AVRO_GENERIC_RECORD,
          false,
          List.of("--changeType=attribute:change_type", "--changeSequence=field:event_time"),
          "keys=80,updates=0.2,deletes=0.05,duplicates=0.1,reorder=0.05"
        },
        new Object[] {
          "kafka-proto-three-structs",
          SourceKind.KAFKA,
          StorageFormat.PROTO_MESSAGE,
          true,
          List.of(
              "--primaryKey=Order=order_id;Refund=refund_id;Click=session_id",
              "--changeType=attribute:op",
              "--changeSequence=KAFKA_OFFSET"),
          "keys=40,updates=0.2,deletes=0.05,duplicates=0.1"
        });
  }

  @Parameterized.Parameter(0)
  public String name;

  @Parameterized.Parameter(1)
  public SourceKind source;

  @Parameterized.Parameter(2)
  public StorageFormat format;

  @Parameterized.Parameter(3)
  public boolean manyTypes;

  @Parameterized.Parameter(4)
  public List<String> ingestArgs;

  @Parameterized.Parameter(5)
  public String changes;

  @Rule public Timeout timeout = Timeout.seconds(300);

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void theTableEndsInTheExpectedFinalState() throws Exception {
    EmulatorStack stack =
        source == SourceKind.KAFKA ? SharedEmulators.withKafka() : SharedEmulators.get();
    String table = "e2e_change_" + UUID.randomUUID().toString().substring(0, 6);
    LocalRunConfig config =
        LocalRunConfig.defaults()
            .step(TuningStep.of(9))
            .source(source)
            .format(format)
            .events(EVENTS)
            .rate(200)
            .badRatio(0.02)
            .table(table)
            .progress(false)
            .changes(ChangeMix.parse(changes))
            .timeout(Duration.ofSeconds(180));
    if (manyTypes) {
      config.manyTypes(SHOP_IDL.toString(), "Order:3,Refund:1,Click:6", null);
    }
    for (String arg : ingestArgs) {
      config.engine(config.engine().withExtraPipelineArg(arg));
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    LocalReport report =
        new LocalRun(stack, config, new PrintStream(log, true, StandardCharsets.UTF_8)).execute();
    String context = name + "\n" + log + report.format();
    System.out.println(report.format());

    assertNotNull(context, report.changeState);
    assertEquals(context, List.of(), report.problems);
    assertTrue(context, report.changeState.matches());
    assertThat(context, report.changeState.deletedExpected(), greaterThan(0L));
    assertThat(context, report.changeState.liveExpected(), greaterThan(0L));
    assertEquals(context, report.changeState.liveExpected(), report.rowsInTable);
    assertEquals(context, report.malformedPublished, (long) report.malformedStages.size());
  }
}
