package io.thriftbq.local.engine;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Keeping and restoring Flink checkpoints for local runs. */
public class LocalEngineTest {
  @Rule public TemporaryFolder folder = new TemporaryFolder();

  private static final LocalEngine FLINK =
      new LocalEngine(LocalEngine.Kind.FLINK, 1, 1000, List.of());

  private Path checkpoint(Path dir, String job, int n, Instant written, boolean complete)
      throws Exception {
    Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
    if (complete) {
      Path metadata = Files.writeString(chk.resolve("_metadata"), "m");
      Files.setLastModifiedTime(metadata, FileTime.from(written));
    }
    return chk;
  }

  @Test
  public void latestCheckpointIsTheNewestCompleteOneOfAnyJob() throws Exception {
    Path dir = folder.newFolder("checkpoints").toPath();
    Instant t = Instant.parse("2026-11-25T10:00:00Z");
    checkpoint(dir, "job-a", 7, t, true);
    Path newest = checkpoint(dir, "job-b", 2, t.plusSeconds(5), true);
    checkpoint(dir, "job-b", 3, t.plusSeconds(9), false); // cut off: no _metadata
    Files.createDirectories(dir.resolve("job-b").resolve("shared"));

    assertEquals(Optional.of(newest), LocalEngine.latestCheckpoint(dir));
  }

  @Test
  public void noCheckpointWhenNoneCompletedOrTheDirectoryIsMissing() throws Exception {
    Path dir = folder.newFolder("checkpoints").toPath();
    checkpoint(dir, "job", 1, Instant.now(), false);
    assertEquals(Optional.empty(), LocalEngine.latestCheckpoint(dir));
    assertEquals(Optional.empty(), LocalEngine.latestCheckpoint(dir.resolve("absent")));
  }

  @Test
  public void keptCheckpointsAreExternalizedAndRetainedInTheGivenDirectory() throws Exception {
    Path dir = folder.newFolder("kept").toPath();
    List<String> args = FLINK.withCheckpointDir(dir).runnerArgs(false);
    assertThat(args, hasItem("--externalizedCheckpointsEnabled=true"));
    assertThat(args, hasItem("--retainExternalizedCheckpointsOnCancellation=true"));
    String conf = flinkConf(args);
    assertThat(conf, containsString("state.checkpoints.dir: " + dir.toUri()));
    assertThat(conf, not(containsString("execution.savepoint.path")));
  }

  @Test
  public void resumingWritesTheRestorePathForTheEmbeddedCluster() throws Exception {
    Path dir = folder.newFolder("kept").toPath();
    Path chk = checkpoint(dir, "job", 4, Instant.now(), true);
    String conf = flinkConf(FLINK.withCheckpointDir(dir).withResumeFrom(chk).runnerArgs(false));
    assertThat(conf, containsString("execution.savepoint.path: " + chk.toUri()));
  }

  @Test
  public void aFlagGivenWithIngestArgReplacesTheEngineDefault() {
    List<String> defaults = FLINK.runnerArgs(false);
    assertThat(defaults, hasItem("--maxBundleTimeMills=300"));
    assertThat(defaults, hasItem("--fasterCopy=true"));

    LocalEngine overridden =
        new LocalEngine(
            LocalEngine.Kind.FLINK,
            1,
            1000,
            List.of("--maxBundleTimeMills=700", "--fasterCopy=false"));
    List<String> args = overridden.runnerArgs(false);
    assertThat(args, not(hasItem("--maxBundleTimeMills=300")));
    assertThat(args, not(hasItem("--fasterCopy=true")));
    assertThat(args, hasItem("--finishBundleBeforeCheckpointing=true"));
  }

  @Test
  public void withoutKeptCheckpointsNothingIsRetained() {
    List<String> args = FLINK.runnerArgs(false);
    assertThat(args, not(hasItem("--externalizedCheckpointsEnabled=true")));
  }

  @Test
  public void resumingFromAnIncompleteCheckpointFailsAtLaunch() throws Exception {
    Path chk = checkpoint(folder.newFolder("kept").toPath(), "job", 1, Instant.now(), false);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FLINK.withResumeFrom(chk));
    assertThat(e.getMessage(), containsString("no complete Flink checkpoint"));
  }

  @Test
  public void theDirectRunnerKeepsNoCheckpoints() throws Exception {
    Path dir = folder.newFolder("kept").toPath();
    LocalEngine direct = FLINK.withKind(LocalEngine.Kind.DIRECT);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> direct.withCheckpointDir(dir));
    assertThat(e.getMessage(), containsString("Flink only"));
  }

  @Test
  public void onlyAPipelineThatHandsOffToWritersGetsBiggerNetworkBuffers() throws Exception {
    String plain = flinkConf(FLINK.runnerArgs(false));
    String handOff = flinkConf(FLINK.runnerArgs(false, true));
    assertFalse(plain, plain.contains("segment-size"));
    assertTrue(handOff, handOff.contains(LocalEngine.HAND_OFF_SEGMENT_SIZE));
    // Everything else is the same configuration (each directory keeps checkpoints of its own).
    String checkpoints = "(?m)^state\\.checkpoints\\.dir: .*$";
    assertEquals(
        plain.replaceAll(checkpoints, ""),
        handOff.replace(LocalEngine.HAND_OFF_SEGMENT_SIZE + "\n", "").replaceAll(checkpoints, ""));
  }

  private static String flinkConf(List<String> args) throws Exception {
    String prefix = "--flinkConfDir=";
    String dir =
        args.stream()
            .filter(a -> a.startsWith(prefix))
            .findFirst()
            .orElseThrow()
            .substring(prefix.length());
    Path conf = Path.of(dir).resolve("flink-conf.yaml");
    assertTrue(Files.isRegularFile(conf));
    return Files.readString(conf);
  }
}
