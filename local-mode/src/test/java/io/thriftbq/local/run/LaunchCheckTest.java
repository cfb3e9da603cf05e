package io.thriftbq.local.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.LocalRunner;
import io.thriftbq.local.config.BadFlagException;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.TuningStep;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** The ingestion pipeline's flags are planned before any server starts. */
@RunWith(JUnit4.class)
public class LaunchCheckTest {
  @Test
  public void everyStepFromEitherSourcePassesAsLocalModeSetsItUp() {
    for (String source : List.of("pubsub", "kafka")) {
      for (TuningStep step : TuningStep.all()) {
        LaunchCheck.check(
            LocalRunConfig.parse(
                new String[] {"--source", source, "--step", Integer.toString(step.number())}));
      }
      LaunchCheck.check(
          LocalRunConfig.parse(
              new String[] {"--source", source, "--compare-steps", "--steps", "1,6,8"}));
    }
  }

  @Test
  public void aFlagThePipelineDoesNotKnowIsRefusedNamingIt() {
    BadFlagException error =
        assertThrows(
            BadFlagException.class,
            () ->
                LaunchCheck.check(
                    LocalRunConfig.parse(new String[] {"--ingest-arg=--maxBundelSize=5000"})));
    assertTrue(
        error.getMessage(), error.getMessage().contains("--ingest-arg --maxBundelSize=5000"));
    assertTrue(error.getMessage(), error.getMessage().contains("maxBundelSize"));
  }

  @Test
  public void aFlagThatDoesNotGoWithTheStepIsRefusedWithThePipelinesReason() {
    String[] args = {"--step", "6", "--ingest-arg=--handOffBeforeWrite=true"};
    BadFlagException error =
        assertThrows(BadFlagException.class, () -> LaunchCheck.check(LocalRunConfig.parse(args)));
    assertTrue(error.getMessage(), error.getMessage().contains("refuses step 6's flags"));
    assertTrue(
        error.getMessage(),
        error
            .getMessage()
            .contains("--handOffBeforeWrite applies only to STORAGE_API_AT_LEAST_ONCE"));
    // The same flag goes with the at-least-once step.
    LaunchCheck.check(
        LocalRunConfig.parse(new String[] {"--step", "8", "--ingest-arg=--handOffBeforeWrite"}));
  }

  @Test
  public void aComparisonChecksEachOfItsSteps() {
    String[] args = {"--compare-steps", "--steps", "8,6", "--ingest-arg=--handOffBeforeWrite"};
    BadFlagException error =
        assertThrows(BadFlagException.class, () -> LaunchCheck.check(LocalRunConfig.parse(args)));
    assertTrue(error.getMessage(), error.getMessage().contains("refuses step 6's flags"));
  }

  @Test
  public void theRunnerRefusesABadFlagBeforeStartingAnyServer() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        LocalRunner.run(
            new String[] {"--ingest-arg=--noSuchPipelineFlag=1"},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String said = err.toString(StandardCharsets.UTF_8);
    assertEquals(said, 2, status);
    assertTrue(said, said.startsWith("run-local: the ingestion pipeline refuses"));
    assertTrue(said, said.contains("noSuchPipelineFlag"));
    assertFalse("no stack trace: " + said, said.contains("\tat "));
    assertFalse("nothing started", out.toString(StandardCharsets.UTF_8).contains("Starting the"));
  }

  @Test
  public void theCheckedFlagsAreTheRunsWithTheUsersFlagsLast() {
    List<String> flags =
        LaunchCheck.flags(
            LocalRunConfig.parse(
                new String[] {"--source", "kafka", "--ingest-arg=--handOffBeforeWrite"}));
    assertEquals("--handOffBeforeWrite", flags.get(flags.size() - 1));
    assertTrue(flags.toString(), flags.contains("--source=KAFKA"));
    assertTrue(
        flags.toString(),
        flags.stream().anyMatch(flag -> flag.startsWith("--outputTable=local-project:")));
  }
}
