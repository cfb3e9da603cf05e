package io.thriftbq.local.profile;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of every thread of this JVM, from {@code /proc/self/task}: Java threads and the
 * JVM's own (GC, JIT compilers, JFR), which no Java API lists.
 */
final class ThreadCpuTimes {
  static final Path OWN_TASKS = Path.of("/proc/self/task");

  /** Linux's clock tick for {@code stat}'s utime and stime; 100 on every common kernel. */
  private static final long NANOS_PER_TICK = 10_000_000;

  /** One thread: its name as Linux keeps it (15 characters at most) and its CPU so far. */
  record ThreadCpu(String name, long cpuNanos) {}

  private ThreadCpuTimes() {}

  /** Every thread of {@code taskDir} (a {@code /proc/PID/task}) by thread id; empty when absent. */
  static Map<Long, ThreadCpu> read(Path taskDir) {
    Map<Long, ThreadCpu> threads = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
      for (Path task : tasks) {
        long tid;
        try {
          tid = Long.parseLong(task.getFileName().toString());
        } catch (NumberFormatException e) {
          continue;
        }
        try {
          String name = Files.readString(task.resolve("comm")).strip();
          threads.put(tid, new ThreadCpu(name, cpuNanos(task)));
        } catch (NoSuchFileException e) {
          // The thread ended between the listing and the read: its CPU is in the last snapshot.
        }
      }
    } catch (IOException e) {
      // No /proc (not Linux): the profile then has no per-thread CPU and says so.
    }
    return threads;
  }

  /**
   * The thread's CPU: {@code schedstat}'s run time (nanoseconds, the same clock as the process CPU
   * time local mode's own figure uses), else {@code stat}'s utime + stime (clock ticks).
   */
  private static long cpuNanos(Path task) throws IOException {
    Path schedstat = task.resolve("schedstat");
    if (Files.isReadable(schedstat)) {
      String[] fields = Files.readString(schedstat).strip().split("\\s+");
      if (fields.length > 0 && !fields[0].isEmpty()) {
        return Long.parseLong(fields[0]);
      }
    }
    String stat = Files.readString(task.resolve("stat"));
    // The name, in parentheses, may hold spaces: count fields after its closing parenthesis,
    // where state is field 3 of stat, so utime (14) and stime (15) are at offsets 11 and 12.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 1).strip().split("\\s+");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
  }

  /** The Linux thread id of the calling thread, or -1 when {@code /proc/thread-self} is absent. */
  static long currentThreadId() {
    try {
      Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Long.parseLong(self.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return -1;
    }
  }
}
