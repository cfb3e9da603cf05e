package io.thriftbq.local.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.config.BadFlagException;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.SaturationRun;
import io.thriftbq.local.config.TuningStep;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class IngestionArgsTest {
  private static final List<String> LOCAL =
      List.of("--runner=FlinkRunner", "--project=local-project", "--outputTable=p:d.t");
  private static final List<String> STEP =
      List.of(
          "--writeMethod=STORAGE_API_AT_LEAST_ONCE",
          "--useStorageApiConnectionPool=true",
          "--enableStreamingEngine");

  @Test
  public void userFlagReplacesTheStepsSettingOfTheSameName() {
    List<String> args =
        IngestionArgs.merge(
            LOCAL, STEP, List.of("--useStorageApiConnectionPool=false", "--maxBundleSize=5000"));
    assertEquals(
        localThen(
            "--writeMethod=STORAGE_API_AT_LEAST_ONCE",
            "--enableStreamingEngine",
            "--useStorageApiConnectionPool=false",
            "--maxBundleSize=5000"),
        args);
  }

  @Test
  public void aBareBooleanFlagReplacesOneWithAValueAndTheOtherWayRound() {
    assertEquals(
        localThen(
            "--writeMethod=STORAGE_API_AT_LEAST_ONCE",
            "--enableStreamingEngine=false",
            "--useStorageApiConnectionPool"),
        IngestionArgs.merge(
            LOCAL,
            STEP,
            List.of("--enableStreamingEngine=false", "--useStorageApiConnectionPool")));
  }

  @Test
  public void aFlagLocalModeSetsItselfIsRefusedNamingTheOptionsToUse() {
    BadFlagException error =
        assertThrows(
            BadFlagException.class,
            () -> IngestionArgs.merge(LOCAL, STEP, List.of("--outputTable=other:d.t")));
    assertTrue(error.getMessage(), error.getMessage().contains("--ingest-arg=--outputTable=other"));
    assertTrue(error.getMessage(), error.getMessage().contains("--structs"));
  }

  @Test
  public void aFlagThatDescribesTheEventsIsRefusedEvenAtItsDefault() {
    // Given to the pipeline alone, it would make the pipeline read other events than published.
    for (String flag : List.of("--thriftProtocol=COMPACT", "--structAttribute=kind")) {
      LocalRunConfig config =
          LocalRunConfig.parse(new String[] {"--idl", "e.thrift", "--structs", "A,B"});
      BadFlagException error =
          assertThrows(
              BadFlagException.class,
              () -> IngestionArgs.merge(config.ingestionStructArgs(), STEP, List.of(flag)));
      assertTrue(error.getMessage(), error.getMessage().contains("--ingest-arg=" + flag));
      assertTrue(error.getMessage(), error.getMessage().contains("--protocol"));
      assertTrue(error.getMessage(), error.getMessage().contains("--struct-attribute"));
    }
  }

  @Test
  public void theRunSaysWhichOfTheStepsSettingsItsFlagsReplace() {
    LocalRunConfig config =
        LocalRunConfig.parse(
            new String[] {
              "--step",
              "7",
              "--ingest-arg=--useStorageApiConnectionPool=false",
              "--ingest-arg=--maxBundleSize=5000"
            });
    assertEquals(List.of("--useStorageApiConnectionPool=true"), config.replacedStepFlags());
    assertEquals(List.of(), LocalRunConfig.defaults().step(TuningStep.of(7)).replacedStepFlags());
  }

  @Test
  public void aSaturationRunOfAnAtLeastOnceStepHandsItsRowsToWriters() {
    List<String> handOff =
        List.of("--handOffBeforeWrite=true", "--handOffWriters=" + SaturationRun.WRITERS);
    for (int step : new int[] {7, 8}) {
      List<String> saturated = stepArgs("--step", "" + step, "--rate", "2000");
      assertTrue(saturated.toString(), saturated.containsAll(handOff));
      List<String> light = stepArgs("--step", "" + step, "--rate", "1999");
      assertTrue(light.toString(), light.stream().noneMatch(f -> f.startsWith("--handOff")));
    }
    // Exactly-once steps shuffle before their write already; step 9's changes must keep their
    // order, which a hand-off may not.
    for (int step : new int[] {1, 4, 6, 9}) {
      List<String> args = stepArgs("--step", "" + step, "--rate", "8000");
      assertTrue(step + ": " + args, args.stream().noneMatch(f -> f.startsWith("--handOff")));
    }
  }

  @Test
  public void eitherHandOffFlagOfTheUserReplacesBothOfASaturationRun() {
    for (String flag : List.of("--handOffBeforeWrite=false", "--handOffWriters=2")) {
      LocalRunConfig config =
          LocalRunConfig.parse(new String[] {"--rate", "8000", "--ingest-arg=" + flag});
      List<String> args =
          IngestionArgs.merge(
              LOCAL, IngestionArgs.of(config).stepArgs(), config.engine().extraPipelineArgs());
      assertEquals(
          flag + ": " + args,
          List.of(flag),
          args.stream().filter(f -> f.startsWith("--handOff")).toList());
      // The run's header names the writers local mode chose, and here the user chose.
      assertEquals(flag, 0, IngestionArgs.of(config).appliedHandOffWriters());
    }
    LocalRunConfig saturated = LocalRunConfig.parse(new String[] {"--rate", "8000"});
    assertEquals(SaturationRun.WRITERS, IngestionArgs.of(saturated).appliedHandOffWriters());
  }

  @Test
  public void theEngineConfigurationFollowsTheHandOffTheFlagsFinallyAskFor() {
    LocalRunConfig light = LocalRunConfig.parse(new String[] {"--rate", "200"});
    String plain = flinkConfDir(light.engine().runnerArgs(false, false));
    String handOff = flinkConfDir(light.engine().runnerArgs(false, true));
    assertTrue(plain + " " + handOff, !plain.equals(handOff));
    assertEquals(plain, flinkConfDirOf("--rate", "200"));
    assertEquals(handOff, flinkConfDirOf("--rate", "8000"));
    // A bare boolean flag switches the option on, as Beam reads it; the last value given decides.
    assertEquals(handOff, flinkConfDirOf("--rate", "200", "--ingest-arg=--handOffBeforeWrite"));
    assertEquals(
        handOff, flinkConfDirOf("--rate", "200", "--ingest-arg=--handOffBeforeWrite=TRUE"));
    assertEquals(
        plain, flinkConfDirOf("--rate", "8000", "--ingest-arg=--handOffBeforeWrite=false"));
  }

  private static String flinkConfDirOf(String... flags) {
    return flinkConfDir(
        IngestionArgs.of(LocalRunConfig.parse(flags))
            .toList(List.of(), "p", "http://127.0.0.1:9", RunTables.forOutputTable("t")));
  }

  private static String flinkConfDir(List<String> args) {
    return args.stream().filter(f -> f.startsWith("--flinkConfDir=")).findFirst().orElseThrow();
  }

  private static List<String> stepArgs(String... flags) {
    return IngestionArgs.of(LocalRunConfig.parse(flags)).stepArgs();
  }

  /** Local mode's flags, then {@code more}. */
  private static List<String> localThen(String... more) {
    List<String> flags = new ArrayList<>(LOCAL);
    flags.addAll(List.of(more));
    return flags;
  }
}
