package io.thriftbq.local.run;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;

import io.thriftbq.local.config.LocalRunConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class SaturationPriorityTest {
  private static final long SERVER = 4242;

  private final List<String> lowerings = new ArrayList<>();
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  private static LocalRunConfig run(int step, int rate) {
    return LocalRunConfig.parse(
        new String[] {"--step", "" + step, "--rate", "" + rate, "--source", "kafka"});
  }

  private SaturationPriority priority(Optional<String> outcome) {
    return new SaturationPriority(
        (server, niceness) -> {
          lowerings.add(server + "@" + niceness);
          return outcome;
        });
  }

  private String printed() {
    return printed.toString(StandardCharsets.UTF_8);
  }

  @Test
  public void onlyASaturationRunLowersAndARunAfterItSaysItRunsLowered() {
    SaturationPriority priority = priority(Optional.empty());
    priority.beforeRun(() -> SERVER, run(6, 3000), 10, out);
    assertEquals(List.of(), lowerings);
    assertEquals("", printed());

    priority.beforeRun(() -> SERVER, run(8, 3000), 10, out);
    assertEquals(List.of(SERVER + "@10"), lowerings);
    assertThat(printed(), containsString("Kafka broker run at nice 10, so the BigQuery emulator"));

    priority.beforeRun(() -> SERVER, run(6, 200), 10, out);
    assertEquals(1, lowerings.size());
    assertThat(
        printed(), containsString("at nice 10, lowered earlier in this JVM for a saturation run"));
  }

  @Test
  public void aComparisonWithASaturationStepLowersOnceBeforeItsFirstStep() {
    SaturationPriority priority = priority(Optional.empty());
    priority.beforeComparison(List.of(run(2, 3000), run(6, 3000)), c -> SERVER, 10, out);
    assertEquals("no step of these is a saturation run", List.of(), lowerings);

    priority.beforeComparison(
        List.of(run(2, 3000), run(7, 3000), run(8, 3000)), c -> SERVER, 10, out);
    assertEquals(List.of(SERVER + "@10"), lowerings);
    // So step 2, compared first, runs lowered like the steps after it, and says so.
    priority.beforeRun(() -> SERVER, run(2, 3000), 10, out);
    assertThat(printed(), containsString("lowered earlier in this JVM for a saturation run"));
  }

  @Test
  public void niceZeroLowersNothingAndAFailedLoweringIsSaidAndNotClaimedLater() {
    SaturationPriority off = priority(Optional.empty());
    off.beforeRun(() -> SERVER, run(8, 3000), 0, out);
    off.beforeRun(() -> SERVER, run(6, 200), 0, out);
    assertEquals(List.of(), lowerings);
    assertEquals("", printed());

    SaturationPriority refused = priority(Optional.of("renice exited with 1: Permission denied"));
    refused.beforeRun(() -> SERVER, run(8, 3000), 10, out);
    assertThat(printed(), containsString("could not be set to nice 10"));
    assertThat(printed(), containsString("Permission denied"));
    refused.beforeRun(() -> SERVER, run(6, 200), 10, out);
    assertEquals(false, printed().contains("earlier in this JVM"));
  }
}
