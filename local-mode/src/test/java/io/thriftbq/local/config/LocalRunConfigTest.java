package io.thriftbq.local.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.local.LocalRunner;
import io.thriftbq.local.engine.LocalEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class LocalRunConfigTest {
  @Test
  public void anIdlNamesTheStructForEveryPipeline() {
    LocalRunConfig config =
        LocalRunConfig.parse(
            new String[] {"--idl", "events.thrift", "--struct=Ev", "--id-field", "meta.id"});
    assertThat(config.ingestionStructArgs(), hasItem("--thriftStruct=Ev"));
    assertTrue(config.datagenStructArgs().stream().anyMatch(a -> a.startsWith("--thriftIdl=/")));
    assertFalse(
        config.ingestionStructArgs().stream().anyMatch(a -> a.startsWith("--thriftClassName")));
    assertEquals("meta.id", config.idField());
    assertEquals(
        java.util.List.of(
            "--thriftClassName=" + LocalRunConfig.EVENT_CLASS, "--thriftProtocol=BINARY"),
        LocalRunConfig.defaults().ingestionStructArgs());
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> LocalRunConfig.parse(new String[] {"--idl", "events.thrift"}))
            .getMessage(),
        containsString("--idl and --struct go together"));
    assertThrows(
        IllegalArgumentException.class,
        () -> LocalRunConfig.parse(new String[] {"--struct", "Ev", "--id-field", "a..b"}));
  }

  @Test
  public void thePublisherAndThePipelineGetTheSameProtocolAndStructAttribute() {
    LocalRunConfig compact =
        LocalRunConfig.parse(
            new String[] {"--protocol", "compact", "--idl", "e.thrift", "--structs", "A:2,B"});
    for (java.util.List<String> args :
        java.util.List.of(compact.ingestionStructArgs(), compact.datagenStructArgs())) {
      assertThat(args, hasItem("--thriftProtocol=COMPACT"));
      // The default attribute too, so that an --ingest-arg cannot give the pipeline another one.
      assertThat(args, hasItem("--structAttribute=thrift_struct"));
    }
    assertThat(compact.ingestionStructArgs(), hasItem("--thriftStructs=A,B"));
    assertThat(compact.datagenStructArgs(), hasItem("--thriftStructs=A:2,B"));
    assertThat(
        LocalRunConfig.parse(new String[] {"--protocol=BINARY"}).datagenStructArgs(),
        hasItem("--thriftProtocol=BINARY"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> LocalRunConfig.parse(new String[] {"--protocol", "json"}))
            .getMessage(),
        containsString("--protocol takes binary or compact"));
  }

  @Test
  public void sourceIsPubsubUnlessKafkaIsAskedFor() {
    assertEquals(SourceKind.PUBSUB, LocalRunConfig.parse(new String[0]).source());
    assertEquals(
        SourceKind.KAFKA, LocalRunConfig.parse(new String[] {"--source", "kafka"}).source());
    assertEquals(SourceKind.KAFKA, LocalRunConfig.parse(new String[] {"--source=KAFKA"}).source());
    assertEquals(
        SourceKind.PUBSUB, LocalRunConfig.parse(new String[] {"--source", " PubSub "}).source());
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> LocalRunConfig.parse(new String[] {"--source", "kinesis"}))
            .getMessage(),
        containsString("--source=kinesis is not one of pubsub, kafka"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> LocalRunConfig.parse(new String[] {"--source"}))
            .getMessage(),
        containsString("--source needs a value"));
  }

  @Test
  public void kafkaGoesWithEveryKindOfRun() {
    LocalRunConfig compare =
        LocalRunConfig.parse(
            new String[] {"--source", "kafka", "--compare-steps", "--steps", "6,8"});
    assertEquals(SourceKind.KAFKA, compare.source());
    assertEquals(List.of(TuningStep.of(6), TuningStep.of(8)), compare.comparedSteps());
    assertEquals(
        "each compared step keeps the run's source",
        SourceKind.KAFKA,
        compare.forComparedStep(TuningStep.of(6), "t6").source());
    LocalRunConfig union =
        LocalRunConfig.parse(
            new String[] {"--source=kafka", "--idl", "shop.thrift", "--union", "AnyEvent"});
    assertEquals(SourceKind.KAFKA, union.source());
    assertTrue(union.manyTypes());
    LocalRunConfig structs =
        LocalRunConfig.parse(
            new String[] {
              "--idl", "shop.thrift", "--structs", "Order:5,Click:95", "--source", "kafka"
            });
    assertEquals(SourceKind.KAFKA, structs.source());
    assertThat(structs.ingestionStructArgs(), hasItem("--thriftStructs=Order,Click"));
  }

  @Test
  public void helpNamesTheKafkaSource() {
    assertThat(LocalRunConfig.usage(), containsString("--source S"));
    assertThat(LocalRunConfig.usage(), containsString("kafka (a real Apache Kafka broker"));
  }

  @Test
  public void defaultsRunStepEightModestly() {
    LocalRunConfig config = LocalRunConfig.parse(new String[0]);
    assertEquals(TuningStep.of(8), config.step());
    assertEquals(4000, config.events());
    assertEquals("below the sustained capacity measured in docs/LOCAL.md", 200, config.ratePerSec);
    assertEquals(40, config.malformedCount());
    assertEquals("events_step8", config.tableName());
    assertFalse(config.keep());
  }

  @Test
  public void parsesBothFlagStyles() {
    LocalRunConfig config =
        LocalRunConfig.parse(
            new String[] {
              "--step",
              "4",
              "--events=500",
              "--rate",
              "100",
              "--bad-ratio=0.1",
              "--report",
              "out/r.json",
              "--keep",
              "--timeout=60",
              "--triggering-frequency",
              "2",
              "--records-per-message=10",
              "--no-progress"
            });
    assertEquals(TuningStep.of(4), config.step());
    assertEquals(500, config.events());
    assertEquals(50, config.malformedCount());
    assertEquals(Paths.get("out/r.json"), config.reportFile());
    assertTrue(config.keep());
    assertEquals(Duration.ofSeconds(60), config.timeout);
    assertEquals(Integer.valueOf(2), config.triggeringFrequencySec);
    assertEquals(10, config.recordsPerMessage());
    assertFalse(config.progress);
  }

  @Test
  public void formatOverridesTheSteps() {
    assertEquals(StorageFormat.PROTO_MESSAGE, parse().format());
    assertEquals(StorageFormat.AVRO_GENERIC_RECORD, parse("--step", "6").format());
    LocalRunConfig config = parse("--step", "6", "--format", "PROTO_MESSAGE");
    assertEquals(StorageFormat.PROTO_MESSAGE, config.format());
    List<String> args = config.step().pipelineArgs(null, config.format());
    assertThat(args, hasItem("--formatToStore=PROTO_MESSAGE"));
    assertFalse(args.stream().anyMatch(a -> a.startsWith("--protoClassName")));
    assertThat(args, hasItem("--storageWriteApiTriggeringFrequencySec=1"));
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> parse("--format", "JSON")).getMessage(),
        containsString("PROTO_MESSAGE"));
  }

  @Test
  public void rejectsBadInputWithAMessage() {
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> parse("--step", "10")).getMessage(),
        containsString("1..9"));
    assertThrows(IllegalArgumentException.class, () -> parse("--events", "0"));
    assertThrows(IllegalArgumentException.class, () -> parse("--events", "many"));
    assertThrows(IllegalArgumentException.class, () -> parse("--bad-ratio", "2"));
    assertThrows(IllegalArgumentException.class, () -> parse("--table", "a.b"));
    assertThrows(IllegalArgumentException.class, () -> parse("--unknown", "1"));
    assertThrows(IllegalArgumentException.class, () -> parse("--rate"));
    assertThrows(IllegalArgumentException.class, () -> parse("stray"));
  }

  @Test
  public void theEngineIsFlinkWithCheckpointsUnlessToldOtherwise() {
    LocalEngine engine = parse().engine();
    assertEquals(LocalEngine.Kind.FLINK, engine.kind());
    List<String> args = engine.runnerArgs(false);
    assertThat(args, hasItem("--runner=FlinkRunner"));
    assertThat(args, hasItem("--flinkMaster=[local]"));
    assertThat(args, hasItem("--checkpointingInterval=1000"));
    assertThat(args, hasItem("--fasterCopy=true"));
    LocalEngine custom =
        parse(
                "--engine",
                "direct",
                "--parallelism",
                "2",
                "--checkpoint-ms",
                "500",
                "--ingest-arg=--maxBundleSize=5000")
            .engine();
    assertEquals(LocalEngine.Kind.DIRECT, custom.kind());
    assertThat(custom.runnerArgs(true), hasItem("--enforceImmutability=true"));
    assertEquals(List.of("--maxBundleSize=5000"), custom.extraPipelineArgs());
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> parse("--checkpoint-ms", "0"))
            .getMessage(),
        containsString("acknowledged only when a checkpoint completes"));
    assertThrows(IllegalArgumentException.class, () -> parse("--engine", "spark"));
    assertThrows(IllegalArgumentException.class, () -> parse("--parallelism", "0"));
    assertThrows(IllegalArgumentException.class, () -> parse("--ingest-arg", "maxBundleSize=1"));
  }

  @Test
  public void compareStepsTakesAListOfStepsAndGivesEachItsOwnTable() {
    LocalRunConfig config = parse("--compare-steps", "--steps", "1,6,8", "--events", "500");
    assertTrue(config.compareSteps());
    assertEquals(
        List.of(TuningStep.of(1), TuningStep.of(6), TuningStep.of(8)), config.comparedSteps());
    LocalRunConfig six = config.forComparedStep(TuningStep.of(6), "compare_step6_x");
    assertFalse(six.compareSteps());
    assertEquals(6, six.step().number());
    assertEquals("compare_step6_x", six.tableName());
    assertEquals(500, six.events());
    assertTrue("the original is unchanged", config.compareSteps());
    assertEquals(TuningStep.all(), parse("--compare-steps").comparedSteps());
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> parse("--compare-steps", "--step", "6"))
            .getMessage(),
        containsString("--steps"));
    assertThrows(IllegalArgumentException.class, () -> parse("--steps", "1,2"));
    assertThrows(IllegalArgumentException.class, () -> parse("--compare-steps", "--steps", "1,1"));
    assertThrows(IllegalArgumentException.class, () -> parse("--compare-steps", "--steps", "1,10"));
  }

  private static LocalRunConfig parse(String... args) {
    return LocalRunConfig.parse(args);
  }

  @Test
  public void runnerPrintsHelpAndRejectsBadFlagsWithoutStartingEmulators() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(0, LocalRunner.run(new String[] {"--help"}, o, e));
    assertThat(out.toString(StandardCharsets.UTF_8), containsString("--bad-ratio"));
    assertEquals(2, LocalRunner.run(new String[] {"--step", "0"}, o, e));
    assertThat(err.toString(StandardCharsets.UTF_8), containsString("--step must be 1..9"));
  }

  @Test
  public void manyTypesGiveTheGeneratorWeightsAndTheIngestionNamesOnly() {
    LocalRunConfig config =
        LocalRunConfig.parse(
            new String[] {
              "--idl",
              "shop.thrift",
              "--structs",
              "Order:5,Refund:1, Click:94",
              "--struct-attribute",
              "type"
            });
    assertTrue(config.manyTypes());
    assertThat(config.datagenStructArgs(), hasItem("--thriftStructs=Order:5,Refund:1, Click:94"));
    assertThat(config.ingestionStructArgs(), hasItem("--thriftStructs=Order,Refund,Click"));
    assertThat(config.ingestionStructArgs(), hasItem("--structAttribute=type"));
    assertFalse(
        config.ingestionStructArgs().stream().anyMatch(a -> a.startsWith("--thriftStruct=")));

    LocalRunConfig union =
        LocalRunConfig.parse(new String[] {"--idl", "shop.thrift", "--union", "AnyEvent"});
    assertThat(union.ingestionStructArgs(), hasItem("--thriftUnion=AnyEvent"));
    assertFalse(
        union.ingestionStructArgs().stream().anyMatch(a -> a.startsWith("--thriftStructs")));

    for (String[] bad :
        List.of(
            new String[] {"--structs", "A,B"},
            new String[] {"--idl", "f.thrift", "--struct", "A", "--structs", "A,B"},
            new String[] {"--idl", "f.thrift", "--union", "U", "--struct-attribute", "t"},
            new String[] {"--idl", "f.thrift", "--structs", "A,B", "--id-field", "id"})) {
      assertThrows(
          String.join(" ", bad), IllegalArgumentException.class, () -> LocalRunConfig.parse(bad));
    }
  }

  @Test
  public void profilingIsOnForCompareStepsAndOnlyOnRequestForOneRun() {
    assertFalse(LocalRunConfig.parse(new String[0]).profile());
    assertTrue(LocalRunConfig.parse(new String[] {"--profile"}).profile());
    LocalRunConfig compare = LocalRunConfig.parse(new String[] {"--compare-steps"});
    assertTrue(compare.profile());
    // Each compared step carries the comparison's choice.
    assertTrue(compare.forComparedStep(TuningStep.of(6), "t6").profile());
    LocalRunConfig plain = LocalRunConfig.parse(new String[] {"--compare-steps", "--no-profile"});
    assertFalse(plain.profile());
    assertFalse(plain.forComparedStep(TuningStep.of(6), "t6").profile());
    // The last of --profile and --no-profile wins.
    assertTrue(LocalRunConfig.parse(new String[] {"--no-profile", "--profile"}).profile());
    assertThat(LocalRunConfig.usage(), containsString("--no-profile"));
  }

  @Test
  public void profilingRefusesTheGeneratorPipelineWhoseCpuItCannotTellApart() {
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> LocalRunConfig.parse(new String[] {"--profile", "--generator-pipeline"}))
            .getMessage(),
        containsString("--generator-pipeline"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    LocalRunConfig.parse(new String[] {"--compare-steps", "--generator-pipeline"}))
            .getMessage(),
        containsString("--no-profile"));
    assertTrue(
        LocalRunConfig.parse(
                new String[] {"--compare-steps", "--generator-pipeline", "--no-profile"})
            .generatorPipeline());
  }

  @Test
  public void theRampUpDefaultsToTheReportsWarmUpAndIsChecked() {
    assertEquals(
        "the default ramp ends when the steady figures start",
        io.thriftbq.local.progress.SteadyWindow.WARMUP_MILLIS,
        LocalRunConfig.defaults().rampUpMillis());
    assertEquals(3_000, parse("--ramp-up", "3").rampUpMillis());
    assertEquals(0, parse("--ramp-up=0").rampUpMillis());
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> parse("--ramp-up", "-1")).getMessage(),
        containsString("--ramp-up must be 0 s or more"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> parse("--ramp-up", "5", "--generator-pipeline"))
            .getMessage(),
        containsString("drop one of them"));
    assertFalse(
        "the generator pipeline alone keeps the default, unused",
        parse("--generator-pipeline").rampUpGiven);
    assertEquals(
        "the generator pipeline does not pace, so it does not ramp",
        0,
        parse("--generator-pipeline").rampUpMillis());
    assertThat(
        LocalRunConfig.usage(),
        containsString("(default " + LocalRunConfig.DEFAULT_RAMP_UP_SEC + ", the"));
  }
}
