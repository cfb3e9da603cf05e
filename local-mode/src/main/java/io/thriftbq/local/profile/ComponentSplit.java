package io.thriftbq.local.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pipeline JVM's CPU over one window, split by component: each thread's own CPU in the window
 * (from {@code /proc}, exact) is spread over the components of that thread's execution samples in
 * the window, so a thread that the sampler visits more or less often than its CPU use warrants is
 * still weighted right. A thread with CPU but no sample in the window is charged by its name.
 * Threads of local mode's publisher and progress poller are left out, as local mode's own CPU
 * figure leaves them out.
 *
 * @param fromEpochMillis the window's start (the poll local mode's CPU figure starts at)
 * @param toEpochMillis its end (the last poll)
 * @param events rows and dead letters counted in the window
 * @param samplesInWindow execution samples of the counted threads in the window
 * @param excludedCpuSeconds CPU of the left-out threads in the window
 * @param parts every component with CPU (or listed by the rules), in the rules' order
 * @param topThreads the ten threads with most CPU in the window
 * @param decidingFrames for each component of 3% or more, the frames that decided its samples
 * @param truncatedSamples samples whose stack JFR cut (deeper than its stack depth), by component
 */
public record ComponentSplit(
    long fromEpochMillis,
    long toEpochMillis,
    long events,
    int samplesInWindow,
    double excludedCpuSeconds,
    List<Part> parts,
    List<ThreadLine> topThreads,
    Map<String, List<FrameShare>> decidingFrames,
    Map<String, Integer> truncatedSamples) {

  /** One execution sample, already classified. */
  public record Sample(
      long threadId,
      String threadName,
      long epochMillis,
      String component,
      String decidingFrame,
      boolean truncated) {}

  /**
   * All threads' CPU at one moment, and the process's, which also holds the CPU of threads that
   * have ended.
   */
  public record Snapshot(
      long epochMillis, long processCpuNanos, Map<Long, ThreadCpuTimes.ThreadCpu> threads) {}

  /**
   * One component's CPU.
   *
   * @param byThread charged by thread name (no execution samples)
   */
  public record Part(
      String component, String group, int samples, boolean byThread, double cpuSeconds) {}

  /** One thread's CPU in the window and the component of most of its samples. */
  public record ThreadLine(String name, double cpuSeconds, String component) {}

  /** A frame that decided a share of a component's samples. */
  public record FrameShare(String frame, double share) {}

  public ComponentSplit {
    parts = List.copyOf(parts);
    topThreads = List.copyOf(topThreads);
    decidingFrames = Map.copyOf(decidingFrames);
    truncatedSamples = Map.copyOf(truncatedSamples);
  }

  /** The pipeline's CPU in the window, seconds. */
  public double totalCpuSeconds() {
    return parts.stream().mapToDouble(Part::cpuSeconds).sum();
  }

  /** CPU seconds by group, in the rules' group order (every group, zero when it had none). */
  public Map<String, Double> cpuByGroup(ComponentRules rules) {
    Map<String, Double> byGroup = new LinkedHashMap<>();
    rules.groups().forEach(g -> byGroup.put(g, 0.0));
    parts.forEach(p -> byGroup.merge(p.group(), p.cpuSeconds(), Double::sum));
    return byGroup;
  }

  /**
   * Splits the window {@code [from, to]} (epoch milliseconds).
   *
   * @param samples every execution sample of the recording (those outside the window are skipped)
   * @param excludedThreads thread ids of the publisher and the progress poller
   * @param snapshots per-thread CPU, in time order; one should be taken at each end of the window
   */
  public static ComponentSplit of(
      ComponentRules rules,
      List<Sample> samples,
      Set<Long> excludedThreads,
      List<Snapshot> snapshots,
      long from,
      long to,
      long events) {
    Map<Long, Map<String, Integer>> samplesByThread = new HashMap<>();
    Map<Long, String> javaNames = new HashMap<>();
    Map<String, Map<String, Integer>> deciding = new HashMap<>();
    Map<String, Integer> truncated = new TreeMap<>();
    int inWindow = 0;
    for (Sample sample : samples) {
      javaNames.put(sample.threadId(), sample.threadName());
      if (sample.epochMillis() < from
          || sample.epochMillis() > to
          || excludedThreads.contains(sample.threadId())) {
        continue;
      }
      inWindow++;
      samplesByThread
          .computeIfAbsent(sample.threadId(), t -> new HashMap<>())
          .merge(sample.component(), 1, Integer::sum);
      deciding
          .computeIfAbsent(sample.component(), c -> new HashMap<>())
          .merge(sample.decidingFrame(), 1, Integer::sum);
      if (sample.truncated()) {
        truncated.merge(sample.component(), 1, Integer::sum);
      }
    }

    Map<String, Double> cpu = new HashMap<>();
    Map<String, Integer> sampleCounts = new HashMap<>();
    Map<String, Boolean> byThread = new HashMap<>();
    List<ThreadLine> threads = new ArrayList<>();
    double excluded = 0;
    for (var entry : threadCpuInWindow(snapshots, from, to).entrySet()) {
      long tid = entry.getKey();
      double seconds = entry.getValue().cpuNanos() / 1e9;
      if (seconds <= 0) {
        continue;
      }
      if (excludedThreads.contains(tid)) {
        excluded += seconds;
        continue;
      }
      String name = javaNames.getOrDefault(tid, entry.getValue().name());
      Map<String, Integer> own = samplesByThread.get(tid);
      if (own == null) {
        String component = rules.byThreadName(name);
        cpu.merge(component, seconds, Double::sum);
        byThread.putIfAbsent(component, true);
        threads.add(new ThreadLine(name, seconds, component));
        continue;
      }
      int total = own.values().stream().mapToInt(Integer::intValue).sum();
      for (var c : own.entrySet()) {
        cpu.merge(c.getKey(), seconds * c.getValue() / total, Double::sum);
        sampleCounts.merge(c.getKey(), c.getValue(), Integer::sum);
        byThread.put(c.getKey(), false);
      }
      String most = own.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
      threads.add(new ThreadLine(name, seconds, most));
    }

    // Threads that ended in the window took their last CPU (or, when they lived between two
    // polls, all of it) with them out of /proc; the process's CPU still holds it. Spread it over
    // the samples of the threads that were gone at the window's end, like any thread's CPU.
    double ended =
        endedThreadsCpuSeconds(snapshots, from, to, threadCpuInWindow(snapshots, from, to));
    if (ended > 0) {
      Set<Long> alive = threadsAt(snapshots, to);
      Map<String, Integer> endedSamples = new HashMap<>();
      for (Sample sample : samples) {
        if (sample.epochMillis() >= from
            && sample.epochMillis() <= to
            && !alive.contains(sample.threadId())
            && !excludedThreads.contains(sample.threadId())) {
          endedSamples.merge(sample.component(), 1, Integer::sum);
        }
      }
      int n = endedSamples.values().stream().mapToInt(Integer::intValue).sum();
      if (n == 0) {
        cpu.merge(ComponentRules.ENDED, ended, Double::sum);
        byThread.putIfAbsent(ComponentRules.ENDED, true);
      } else {
        for (var c : endedSamples.entrySet()) {
          cpu.merge(c.getKey(), ended * c.getValue() / n, Double::sum);
          sampleCounts.merge(c.getKey(), c.getValue(), Integer::sum);
        }
      }
    }
    double totalCpu = cpu.values().stream().mapToDouble(Double::doubleValue).sum();
    List<Part> parts = new ArrayList<>();
    for (String component : rules.components()) {
      double seconds = cpu.getOrDefault(component, 0.0);
      boolean builtIn =
          component.equals(ComponentRules.UNLISTED)
              || component.equals(ComponentRules.UNSAMPLED)
              || component.equals(ComponentRules.ENDED);
      if (seconds > 0 || !builtIn) {
        parts.add(
            new Part(
                component,
                rules.group(component),
                sampleCounts.getOrDefault(component, 0),
                byThread.getOrDefault(component, false),
                seconds));
      }
    }
    threads.sort(Comparator.comparingDouble(ThreadLine::cpuSeconds).reversed());
    Map<String, List<FrameShare>> frames = new LinkedHashMap<>();
    for (var entry : deciding.entrySet()) {
      if (cpu.getOrDefault(entry.getKey(), 0.0) < 0.03 * totalCpu) {
        continue;
      }
      int n = entry.getValue().values().stream().mapToInt(Integer::intValue).sum();
      frames.put(
          entry.getKey(),
          entry.getValue().entrySet().stream()
              .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
              .limit(6)
              .map(f -> new FrameShare(f.getKey(), (double) f.getValue() / n))
              .toList());
    }
    return new ComponentSplit(
        from,
        to,
        events,
        inWindow,
        excluded,
        parts,
        threads.subList(0, Math.min(10, threads.size())),
        frames,
        truncated);
  }

  /**
   * The process's CPU in the window less every listed thread's: what threads that ended took with
   * them (never negative).
   */
  static double endedThreadsCpuSeconds(
      List<Snapshot> snapshots, long from, long to, Map<Long, ThreadCpuTimes.ThreadCpu> threads) {
    Snapshot first = null;
    Snapshot last = null;
    for (Snapshot snapshot : snapshots) {
      if (snapshot.epochMillis() <= from) {
        first = snapshot;
      }
      if (snapshot.epochMillis() <= to) {
        last = snapshot;
      }
    }
    if (first == null || last == null || first == last) {
      return 0;
    }
    long listed = threads.values().stream().mapToLong(ThreadCpuTimes.ThreadCpu::cpuNanos).sum();
    return Math.max(0, last.processCpuNanos() - first.processCpuNanos() - listed) / 1e9;
  }

  private static Set<Long> threadsAt(List<Snapshot> snapshots, long to) {
    Set<Long> alive = Set.of();
    for (Snapshot snapshot : snapshots) {
      if (snapshot.epochMillis() <= to) {
        alive = snapshot.threads().keySet();
      }
    }
    return alive;
  }

  /**
   * Each thread's CPU between the last snapshot at or before {@code from} and its last snapshot at
   * or before {@code to}: a thread born in the window counts from zero, a thread that ended in it
   * up to its last snapshot, a thread that ended before the window not at all.
   */
  static Map<Long, ThreadCpuTimes.ThreadCpu> threadCpuInWindow(
      List<Snapshot> snapshots, long from, long to) {
    Map<Long, ThreadCpuTimes.ThreadCpu> atFrom = Map.of();
    Map<Long, ThreadCpuTimes.ThreadCpu> atTo = new HashMap<>();
    for (Snapshot snapshot : snapshots) {
      if (snapshot.epochMillis() <= from) {
        atFrom = snapshot.threads();
      }
      if (snapshot.epochMillis() >= from && snapshot.epochMillis() <= to) {
        atTo.putAll(snapshot.threads());
      }
    }
    Map<Long, ThreadCpuTimes.ThreadCpu> delta = new HashMap<>();
    for (var entry : atTo.entrySet()) {
      ThreadCpuTimes.ThreadCpu start = atFrom.get(entry.getKey());
      long before = start == null ? 0 : start.cpuNanos();
      delta.put(
          entry.getKey(),
          new ThreadCpuTimes.ThreadCpu(
              entry.getValue().name(), entry.getValue().cpuNanos() - before));
    }
    return delta;
  }

  /**
   * The split as the report holds it: µs of pipeline CPU per event and share, by component and
   * group, rounded as written.
   */
  public SplitFigures figures(ComponentRules rules) {
    double total = totalCpuSeconds();
    List<SplitFigures.Group> groups = new ArrayList<>();
    cpuByGroup(rules)
        .forEach(
            (group, seconds) ->
                groups.add(
                    new SplitFigures.Group(group, perEvent(seconds), share(seconds, total))));
    List<SplitFigures.Component> components = new ArrayList<>();
    Map<String, List<SplitFigures.Frame>> frames = new LinkedHashMap<>();
    for (Part part : parts) {
      components.add(
          new SplitFigures.Component(
              part.component(),
              part.group(),
              part.samples(),
              part.byThread(),
              perEvent(part.cpuSeconds()),
              share(part.cpuSeconds(), total)));
      List<FrameShare> shares = decidingFrames.get(part.component());
      if (shares != null) {
        frames.put(
            part.component(),
            shares.stream().map(f -> new SplitFigures.Frame(f.frame(), f.share())).toList());
      }
    }
    Map<String, Long> truncated = new TreeMap<>();
    truncatedSamples.forEach((component, n) -> truncated.put(component, n.longValue()));
    return new SplitFigures(
        fromEpochMillis,
        toEpochMillis,
        round((toEpochMillis - fromEpochMillis) / 1000.0, 1),
        events,
        samplesInWindow,
        round(total, 2),
        round(excludedCpuSeconds, 2),
        perEvent(total),
        groups,
        components,
        topThreads.stream()
            .map(t -> new SplitFigures.TopThread(t.name(), round(t.cpuSeconds(), 2), t.component()))
            .toList(),
        frames,
        truncated);
  }

  private double perEvent(double seconds) {
    return events == 0 ? 0 : round(seconds * 1e6 / events, 1);
  }

  private static double share(double part, double total) {
    return total == 0 ? 0 : round(part / total, 4);
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
