import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Splits the pipeline JVM's CPU over one time window into components, for
 * benchmarks/profile-local.sh. Run with the JDK's source launcher:
 *
 * <pre>
 * java benchmarks/profile/JfrComponents.java COMPONENTS_TSV RECORDING.jfr THREADS_TSV FROM_MS TO_MS EVENTS
 * </pre>
 *
 * <ul>
 *   <li>THREADS_TSV: lines {@code epochMillis tid name cpuTicks} (utime+stime of
 *       /proc/PID/task/TID/stat), sampled about once a second during the run.
 *   <li>FROM_MS, TO_MS: the window (epoch milliseconds); EVENTS: events accounted for in it.
 * </ul>
 *
 * <p>How the CPU is split: each thread's own CPU in the window (from /proc, exact to a clock tick)
 * is spread over the components of that thread's execution samples in the window, so a thread that
 * JFR samples more or less often than its CPU use warrants is still weighted right. Threads that
 * are not Java threads (GC, JIT compilers, the VM thread, JFR's own) have no execution samples and
 * are charged by name, and so are Java threads with CPU but no sample in the window (their time was
 * spent outside Java code, e.g. in system calls), by the {@code thread:} rules of COMPONENTS_TSV.
 * Threads that ran local mode's publisher or progress poller (any sample with a frame of {@code
 * PacedPublisher}, {@code ProgressFollower} or {@code LocalRun}, or the Kafka producer thread named
 * after the publisher's client id) are left out, as local mode's own CPU figure leaves them out
 * (that figure does count the producer's network thread, which it cannot see: a few µs per event on
 * Kafka runs, while the publisher sends). Components: see COMPONENTS_TSV, which holds the only copy
 * of the classification rules.
 */
public final class JfrComponents {
  private static final String UNLISTED = "other (no listed frame)";
  private static final String UNSAMPLED = "other (Java threads with CPU but no samples in window)";
  private static final String GC = "GC (G1 threads)";
  private static final String JIT = "JIT compilers";
  private static final String PROFILER = "JFR itself (the profiler's threads)";
  private static final String VM = "other JVM threads (VM thread, service, sweeper)";
  private static final String PUBLISHER_CLIENT_ID = "thriftbq-local-publisher";

  private static final List<String> EXCLUDED_FRAMES =
      List.of(
          "io.thriftbq.local.source.PacedPublisher",
          "io.thriftbq.local.progress.ProgressFollower",
          "io.thriftbq.local.run.LocalRun");

  private record Rule(String prefix, String component) {}

  public static void main(String[] args) throws IOException {
    if (args.length != 6) {
      System.err.println(
          "usage: JfrComponents COMPONENTS_TSV RECORDING.jfr THREADS_TSV FROM_MS TO_MS EVENTS");
      System.exit(2);
    }
    List<Rule> rules = new ArrayList<>();
    List<Rule> threadRules = new ArrayList<>();
    List<String> componentOrder = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\t");
      if (parts.length != 2) {
        throw new IllegalArgumentException("components: want NAME<TAB>PREFIXES, got: " + line);
      }
      if (!componentOrder.contains(parts[0])) {
        componentOrder.add(parts[0]);
      }
      for (String prefix : parts[1].split(",")) {
        String p = prefix.trim();
        if (p.startsWith("thread:")) {
          threadRules.add(new Rule(p.substring("thread:".length()), parts[0]));
        } else {
          rules.add(new Rule(p, parts[0]));
        }
      }
    }
    long from = Long.parseLong(args[3]);
    long to = Long.parseLong(args[4]);
    long events = Long.parseLong(args[5]);

    // Execution samples in the window, by OS thread id and component.
    Map<Long, Map<String, Integer>> samplesByThread = new HashMap<>();
    Map<Long, String> threadNames = new HashMap<>();
    Set<Long> excludedThreads = new HashSet<>();
    Map<String, Integer> truncated = new HashMap<>();
    Map<String, Map<String, Integer>> deciding = new HashMap<>();
    int inWindow = 0;
    try (RecordingFile recording = new RecordingFile(Path.of(args[1]))) {
      while (recording.hasMoreEvents()) {
        RecordedEvent event = recording.readEvent();
        if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
          continue;
        }
        var thread = event.getThread("sampledThread");
        RecordedStackTrace stack = event.getStackTrace();
        if (thread == null || stack == null) {
          continue;
        }
        long tid = thread.getOSThreadId();
        threadNames.put(tid, thread.getJavaName());
        // The Kafka producer's network thread of local mode's publisher (its own client id) runs no
        // frame of the publisher's classes; it is the publisher's all the same.
        if (String.valueOf(thread.getJavaName()).contains(PUBLISHER_CLIENT_ID)) {
          excludedThreads.add(tid);
        }
        List<RecordedFrame> frames = stack.getFrames();
        for (RecordedFrame frame : frames) {
          String type = className(frame);
          for (String excluded : EXCLUDED_FRAMES) {
            if (type.startsWith(excluded)) {
              excludedThreads.add(tid);
            }
          }
        }
        long at = event.getStartTime().toEpochMilli();
        if (at < from || at > to) {
          continue;
        }
        inWindow++;
        String component = classify(frames, rules);
        deciding
            .computeIfAbsent(component, c -> new HashMap<>())
            .merge(decidingFrame(frames, rules), 1, Integer::sum);
        if (stack.isTruncated()) {
          truncated.merge(component, 1, Integer::sum);
        }
        samplesByThread.computeIfAbsent(tid, t -> new HashMap<>()).merge(component, 1, Integer::sum);
      }
    }

    // CPU of each thread in the window, from the /proc samples.
    Map<Long, Long> ticksAtFrom = new HashMap<>();
    Map<Long, Long> ticksAtTo = new HashMap<>();
    Map<Long, String> procNames = new HashMap<>();
    for (String line : Files.readAllLines(Path.of(args[2]))) {
      String[] f = line.split("\t");
      if (f.length != 4) {
        continue;
      }
      long at = Long.parseLong(f[0]);
      long tid = Long.parseLong(f[1]);
      long ticks = Long.parseLong(f[3]);
      procNames.put(tid, f[2]);
      if (at <= from) {
        ticksAtFrom.put(tid, ticks);
      }
      if (at <= to) {
        ticksAtTo.put(tid, ticks);
      }
    }
    double tick = 1.0 / clockTicksPerSecond();
    Map<String, Double> cpu = new LinkedHashMap<>();
    Map<String, Integer> sampleCounts = new HashMap<>();
    double excludedCpu = 0;
    List<String[]> threadLines = new ArrayList<>();
    for (var entry : ticksAtTo.entrySet()) {
      long tid = entry.getKey();
      double seconds = (entry.getValue() - ticksAtFrom.getOrDefault(tid, 0L)) * tick;
      if (seconds <= 0) {
        continue;
      }
      if (excludedThreads.contains(tid)) {
        excludedCpu += seconds;
        continue;
      }
      Map<String, Integer> own = samplesByThread.get(tid);
      String name = String.valueOf(threadNames.getOrDefault(tid, procNames.get(tid)));
      name = name.length() > 70 ? name.substring(0, 67) + "..." : name;
      String main =
          own == null || own.isEmpty()
              ? byThreadName(
                  threadNames.getOrDefault(tid, procNames.get(tid)),
                  threadNames.containsKey(tid),
                  threadRules)
              : own.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
      threadLines.add(new String[] {String.format(Locale.ROOT, "%08.2f", seconds), name, main});
      if (own != null && !own.isEmpty()) {
        int total = own.values().stream().mapToInt(Integer::intValue).sum();
        for (var c : own.entrySet()) {
          cpu.merge(c.getKey(), seconds * c.getValue() / total, Double::sum);
          sampleCounts.merge(c.getKey(), c.getValue(), Integer::sum);
        }
      } else {
        cpu.merge(main, seconds, Double::sum);
      }
    }
    double total = cpu.values().stream().mapToDouble(Double::doubleValue).sum();

    List<String> order = new ArrayList<>(componentOrder);
    order.addAll(List.of(UNLISTED, GC, JIT, PROFILER, VM, UNSAMPLED));
    System.out.printf(
        Locale.ROOT,
        "window %s .. %s (%.1f s), %d events, %d execution samples in window%n",
        Instant.ofEpochMilli(from),
        Instant.ofEpochMilli(to),
        (to - from) / 1000.0,
        events,
        inWindow);
    System.out.printf(
        Locale.ROOT,
        "pipeline JVM CPU in window (per-thread /proc, publisher and poller threads left out:"
            + " %.2f s): %.2f s = %.1f us per event%n%n",
        excludedCpu,
        total,
        total * 1e6 / events);
    System.out.println("| component | samples | CPU share | µs of pipeline CPU per event |");
    System.out.println("|---|---:|---:|---:|");
    for (String component : order) {
      double seconds = cpu.getOrDefault(component, 0.0);
      if (seconds <= 0 && !componentOrder.contains(component)) {
        continue;
      }
      int n = sampleCounts.getOrDefault(component, 0);
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %.1f%% | %.1f |%n",
          component,
          n == 0 && !componentOrder.contains(component) && !component.equals(UNLISTED)
              ? "(by thread)"
              : Integer.toString(n),
          100 * seconds / total,
          seconds * 1e6 / events);
    }
    System.out.printf(Locale.ROOT, "| **total** | | 100%% | **%.1f** |%n", total * 1e6 / events);
    threadLines.sort((a, b) -> b[0].compareTo(a[0]));
    System.out.println("\nthreads by CPU in window (top 10): seconds, name, component of most samples");
    for (String[] t : threadLines.subList(0, Math.min(10, threadLines.size()))) {
      System.out.printf(Locale.ROOT, "  %6.2f s  %s  [%s]%n", Double.parseDouble(t[0]), t[1], t[2]);
    }
    System.out.println(
        "\nwhere the samples of each component >= 3% were taken (the frame that decided it, top 6):");
    for (String component : order) {
      Map<String, Integer> frames = deciding.get(component);
      if (frames == null || cpu.getOrDefault(component, 0.0) < 0.03 * total) {
        continue;
      }
      int n = frames.values().stream().mapToInt(Integer::intValue).sum();
      System.out.println("  " + component + ":");
      frames.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
          .limit(6)
          .forEach(
              f ->
                  System.out.printf(
                      Locale.ROOT, "    %4.1f%%  %s%n", 100.0 * f.getValue() / n, f.getKey()));
    }
    if (!truncated.isEmpty()) {
      System.out.println("\ntruncated stacks in window by component: " + new TreeMap<>(truncated));
    }
  }

  private static String className(RecordedFrame frame) {
    return frame.getMethod() == null || frame.getMethod().getType() == null
        ? ""
        : frame.getMethod().getType().getName();
  }

  /** The component of the innermost frame that matches a prefix (the longest prefix of that frame). */
  static String classify(List<RecordedFrame> frames, List<Rule> rules) {
    for (RecordedFrame frame : frames) {
      String type = className(frame);
      Rule best = null;
      for (Rule rule : rules) {
        if (type.startsWith(rule.prefix())
            && (best == null || rule.prefix().length() > best.prefix().length())) {
          best = rule;
        }
      }
      if (best != null) {
        return best.component();
      }
    }
    return UNLISTED;
  }

  /** The frame {@link #classify} decided by, as class.method (the sampled method when none). */
  static String decidingFrame(List<RecordedFrame> frames, List<Rule> rules) {
    for (RecordedFrame frame : frames) {
      String type = className(frame);
      for (Rule rule : rules) {
        if (type.startsWith(rule.prefix())) {
          return type + "." + frame.getMethod().getName();
        }
      }
    }
    return frames.isEmpty()
        ? "(no frames)"
        : className(frames.get(0)) + "." + frames.get(0).getMethod().getName();
  }

  private static String byThreadName(String name, boolean javaThread, List<Rule> threadRules) {
    String n = name == null ? "" : name;
    for (Rule rule : threadRules) {
      if (n.startsWith(rule.prefix())) {
        return rule.component();
      }
    }
    if (n.startsWith("GC Thread") || n.startsWith("G1 ")) {
      return GC;
    }
    if (n.startsWith("C1 Compiler") || n.startsWith("C2 Compiler")) {
      return JIT;
    }
    if (n.startsWith("JFR ")) {
      return PROFILER;
    }
    if (!javaThread
        && (n.startsWith("VM ") || n.equals("Service Thread") || n.startsWith("Sweeper")
            || n.startsWith("Monitor Deflati") || n.startsWith("Notification Th")
            || n.startsWith("Common-Cleaner") || n.startsWith("Signal Dispatch")
            || n.startsWith("Finalizer") || n.startsWith("Reference Handl"))) {
      return VM;
    }
    return UNSAMPLED;
  }

  private static long clockTicksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
      return Long.parseLong(new String(p.getInputStream().readAllBytes()).trim());
    } catch (IOException | NumberFormatException e) {
      return 100;
    }
  }
}
