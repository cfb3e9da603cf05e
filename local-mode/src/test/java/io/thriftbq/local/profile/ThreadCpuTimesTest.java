package io.thriftbq.local.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Reading every thread's CPU from a /proc task directory. */
public class ThreadCpuTimesTest {
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void schedstatIsPreferredAndStatIsTheFallback() throws Exception {
    Path tasks = temp.newFolder("task").toPath();
    Path one = Files.createDirectory(tasks.resolve("101"));
    Files.writeString(one.resolve("comm"), "C1 CompilerThre\n");
    Files.writeString(one.resolve("schedstat"), "1234567890 55 7\n");
    Files.writeString(
        one.resolve("stat"), "101 (C1 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 999 999 0\n");
    Path two = Files.createDirectory(tasks.resolve("102"));
    // A name with spaces and a parenthesis: fields count after the last ')'.
    Files.writeString(two.resolve("comm"), "a (b) c\n");
    Files.writeString(
        two.resolve("stat"), "102 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 30 12 0 0 20 0 1 0\n");
    Files.createDirectory(tasks.resolve("not-a-thread"));
    Map<Long, ThreadCpuTimes.ThreadCpu> threads = ThreadCpuTimes.read(tasks);
    assertEquals(2, threads.size());
    assertEquals(
        new ThreadCpuTimes.ThreadCpu("C1 CompilerThre", 1_234_567_890L), threads.get(101L));
    // utime 30 + stime 12 ticks of 10 ms.
    assertEquals(420_000_000L, threads.get(102L).cpuNanos());
    assertEquals(Map.of(), ThreadCpuTimes.read(tasks.resolve("absent")));
  }

  @Test
  public void thisThreadIsAmongThisJvmsThreadsAndItsCpuGrows() {
    assumeTrue("Linux /proc", Files.isDirectory(ThreadCpuTimes.OWN_TASKS));
    long tid = ThreadCpuTimes.currentThreadId();
    long before = ThreadCpuTimes.read(ThreadCpuTimes.OWN_TASKS).get(tid).cpuNanos();
    long spin = 0;
    long until = System.nanoTime() + 50_000_000;
    while (System.nanoTime() < until) {
      spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
    }
    ThreadCpuTimes.ThreadCpu after = ThreadCpuTimes.read(ThreadCpuTimes.OWN_TASKS).get(tid);
    assertTrue("spun " + spin, after.cpuNanos() - before >= 20_000_000);
    assertTrue(after.name(), after.name().length() <= ComponentRules.LINUX_THREAD_NAME_LENGTH);
  }
}
