package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class CpuPriorityTest {
  @Test
  public void theNicenessComesFromTheEnvironmentAndABadOneIsRefusedNamingTheVariable() {
    assertEquals(CpuPriority.DEFAULT_NICENESS, CpuPriority.niceness(Map.of()));
    assertEquals(0, CpuPriority.niceness(Map.of(CpuPriority.VARIABLE, "0")));
    assertEquals(19, CpuPriority.niceness(Map.of(CpuPriority.VARIABLE, " 19 ")));
    for (String bad : List.of("-1", "20", "ten")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> CpuPriority.niceness(Map.of(CpuPriority.VARIABLE, bad)));
      assertThat(e.getMessage(), containsString(CpuPriority.VARIABLE + "=" + bad));
      assertThat(e.getMessage(), containsString("0"));
    }
  }

  @Test
  public void onlyThreadsThatEndedMeanwhileAreForgivenAmongReniceFailures() {
    String vanished = "renice: failed to get priority for 4242 (process ID): No such process";
    String done = "4243 (process ID) old priority 0, new priority 10";
    String refused = "renice: failed to set priority for 1 (process ID): Permission denied";
    assertEquals(List.of(), CpuPriority.failures(done + "\n" + vanished + "\n"));
    assertEquals(List.of(refused), CpuPriority.failures(vanished + "\n" + refused + "\n" + done));
    assertEquals(List.of("renice: bad value"), CpuPriority.failures("renice: bad value"));
  }

  @Test
  public void aProcessThatEndedBeforeReniceDoesNotFailTheLowering() throws Exception {
    assumeTrue("renice names processes by /proc", Files.isDirectory(Path.of("/proc")));
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    ProcessHandle self = ProcessHandle.current();
    int own = niceOf(self.pid(), Long.toString(self.pid()));
    // This JVM at its own niceness (a no-op) together with a process that is gone.
    assertEquals(Optional.empty(), CpuPriority.renice(List.of(ended.toHandle(), self), own));
    assertEquals(own, niceOf(self.pid(), Long.toString(self.pid())));
  }

  @Test
  public void niceZeroChangesNothing() {
    assertEquals(Optional.empty(), CpuPriority.lower(ProcessHandle.current().pid(), 0));
  }

  @Test
  public void everyThreadOfTheProcessesIsLowered() throws Exception {
    assumeTrue(
        "threads have priorities of their own on Linux", Files.isDirectory(Path.of("/proc")));
    // A JVM of its own: many threads, none of them this test's.
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Sleeper.class.getName())
            .start();
    try {
      // Started: its threads exist once it has printed.
      assertEquals('.', child.getInputStream().read());
      List<String> threads = CpuPriority.threads(child.toHandle());
      assertTrue(threads.toString(), threads.size() > 1);
      String self = Long.toString(ProcessHandle.current().pid());
      int ownBefore = niceOf(ProcessHandle.current().pid(), self);
      int target = ownBefore == 7 ? 8 : 7;
      assertEquals(Optional.empty(), CpuPriority.renice(List.of(child.toHandle()), target));
      for (String tid : CpuPriority.threads(child.toHandle())) {
        assertEquals(tid, target, niceOf(child.pid(), tid));
      }
      // This JVM was not named, so it keeps its own.
      assertEquals(ownBefore, niceOf(ProcessHandle.current().pid(), self));
    } finally {
      child.destroyForcibly().waitFor();
    }
  }

  /** Field 19 of /proc/PID/task/TID/stat, after the command name (which may hold spaces). */
  private static int niceOf(long pid, String tid) throws Exception {
    String stat = Files.readString(Path.of("/proc", "" + pid, "task", tid, "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[16]);
  }

  /** Says it started, then sleeps until killed. */
  public static final class Sleeper {
    public static void main(String[] args) throws Exception {
      System.out.print('.');
      System.out.flush();
      Thread.sleep(60_000);
    }
  }
}
