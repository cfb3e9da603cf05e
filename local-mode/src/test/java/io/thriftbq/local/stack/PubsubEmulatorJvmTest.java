package io.thriftbq.local.stack;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The Pub/Sub emulator's JVM flags: ours unless the user gives theirs, and they reach its JVM. */
public class PubsubEmulatorJvmTest {
  @Rule public TemporaryFolder folder = new TemporaryFolder();

  @Test
  public void oursUnlessTheUserGivesTheirs() {
    assertEquals("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC", PubsubEmulator.jvmOptions(Map.of()));
    assertEquals(
        "-Xmx256m",
        PubsubEmulator.jvmOptions(Map.of(PubsubEmulator.JVM_OPTIONS_VARIABLE, "-Xmx256m")));
    // Empty is the user's way to ask for the JVM's own defaults.
    assertEquals("", PubsubEmulator.jvmOptions(Map.of(PubsubEmulator.JVM_OPTIONS_VARIABLE, "")));
  }

  @Test
  public void theEmulatorsJvmRunsWithThem() throws Exception {
    Path dir = folder.newFolder().toPath();
    Files.createDirectories(dir.resolve("data"));
    try (PubsubEmulator emulator =
        PubsubEmulator.start(
            LocalPaths.gcloud(), "p", dir.resolve("data"), dir.resolve("emulator.log"))) {
      String expected = PubsubEmulator.jvmOptions(System.getenv());
      List<String> javaCommandLines =
          ProcessHandle.of(emulator.pid())
              .orElseThrow()
              .descendants()
              .map(handle -> commandLine(handle.pid()))
              .filter(line -> line.contains("cloud-pubsub-emulator") && line.contains("-jar"))
              .collect(Collectors.toList());
      assertEquals("one emulator JVM: " + javaCommandLines, 1, javaCommandLines.size());
      for (String flag : expected.split(" ")) {
        assertTrue(
            flag + " in " + javaCommandLines.get(0),
            flag.isEmpty() || javaCommandLines.get(0).contains(" " + flag + " "));
      }
    }
  }

  private static String commandLine(long pid) {
    try {
      return " " + Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    } catch (java.io.IOException gone) {
      return "";
    }
  }
}
