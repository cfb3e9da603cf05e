package io.thriftbq.local.profile;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Profiles the pipeline while it runs embedded in this JVM: Java Flight Recorder's execution
 * samples (the {@link Recording} API; nothing but {@code jdk.ExecutionSample} is recorded, to keep
 * the recorder's cost low) and every thread's CPU from {@code /proc/self/task}, read at each of the
 * progress poller's polls ({@link #mark}) so that the split can be cut to exactly the window local
 * mode's own CPU figure uses.
 *
 * <p>The JVM should run with {@code -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints} (so
 * that samples in inlined code name the inlined method) and {@code
 * -XX:FlightRecorderOptions=stackdepth=256} (Flink's call chains are deep); {@code
 * scripts/run-local.sh} adds both when the run profiles, and {@link #jvmSetup} says what was set.
 */
public final class PipelineProfiler implements AutoCloseable {
  /**
   * JFR's sampling period for Java threads: 10 ms as in JFR's own "profile" settings, or the system
   * property {@code thriftbq.profile.periodMs}. JFR only samples threads running Java code at that
   * instant, so a run of a few seconds gets few samples (the report gives their count).
   */
  static final Duration SAMPLING_PERIOD =
      Duration.ofMillis(Long.getLong("thriftbq.profile.periodMs", 10));

  /**
   * Classes that only local mode's publisher or its progress poller run: a thread with a sample in
   * one of them is left out, as local mode's own CPU figure leaves their CPU out.
   */
  static final List<String> EXCLUDED_FRAMES =
      List.of(
          "io.thriftbq.local.source.PacedPublisher",
          "io.thriftbq.local.progress.ProgressFollower",
          "io.thriftbq.local.run.LocalRun",
          PipelineProfiler.class.getName());

  /** A window of the run, by the poller's elapsed times (as {@link #mark} was given them). */
  public record Window(long fromElapsedMillis, long toElapsedMillis, long events) {}

  private record Mark(long elapsedMillis, ComponentSplit.Snapshot snapshot) {}

  private final Recording recording;
  private final ComponentRules rules;
  private final List<Mark> marks = new ArrayList<>();
  private final Set<Long> markingThreads = new HashSet<>();

  private PipelineProfiler(Recording recording, ComponentRules rules) {
    this.recording = recording;
    this.rules = rules;
  }

  /** Starts recording. */
  public static PipelineProfiler start() {
    Recording recording = new Recording();
    recording.setName("thriftbq-local-profile");
    recording.enable("jdk.ExecutionSample").withPeriod(SAMPLING_PERIOD).withStackTrace();
    recording.setToDisk(true);
    recording.start();
    return new PipelineProfiler(recording, ComponentRules.standard());
  }

  /**
   * Takes every thread's CPU now; called by the progress poller at each poll, with the elapsed time
   * it records for the poll. The calling thread is the poller's, so it is left out.
   */
  public synchronized void mark(long elapsedMillis) {
    markingThreads.add(ThreadCpuTimes.currentThreadId());
    long now = System.currentTimeMillis();
    marks.add(
        new Mark(
            elapsedMillis,
            new ComponentSplit.Snapshot(
                now, processCpuNanos(), ThreadCpuTimes.read(ThreadCpuTimes.OWN_TASKS))));
  }

  /**
   * Stops recording and splits each window; null for a window whose ends were not marked.
   *
   * @param keepRecording where to keep the recording (for JDK Mission Control), or null
   */
  public synchronized List<@Nullable ComponentSplit> finish(
      List<Window> windows, @Nullable Path keepRecording) throws IOException {
    recording.stop();
    Path file = keepRecording != null ? keepRecording : Files.createTempFile("thriftbq-", ".jfr");
    List<ComponentSplit.Sample> samples = new ArrayList<>();
    Set<Long> excluded = new HashSet<>(markingThreads);
    try {
      recording.dump(file);
      readSamples(file, samples, excluded);
    } finally {
      recording.close();
      if (keepRecording == null) {
        Files.deleteIfExists(file);
      }
    }
    List<ComponentSplit.Snapshot> snapshots = marks.stream().map(Mark::snapshot).toList();
    List<@Nullable ComponentSplit> splits = new ArrayList<>();
    for (Window window : windows) {
      Long from = epochOf(window.fromElapsedMillis());
      Long to = epochOf(window.toElapsedMillis());
      splits.add(
          from != null && to != null && to > from
              ? ComponentSplit.of(rules, samples, excluded, snapshots, from, to, window.events())
              : null);
    }
    return splits;
  }

  @Override
  public synchronized void close() {
    recording.close();
  }

  private @Nullable Long epochOf(long elapsedMillis) {
    for (Mark mark : marks) {
      if (mark.elapsedMillis() == elapsedMillis) {
        return mark.snapshot().epochMillis();
      }
    }
    return null;
  }

  private void readSamples(Path file, List<ComponentSplit.Sample> samples, Set<Long> excluded)
      throws IOException {
    try (RecordingFile events = new RecordingFile(file)) {
      while (events.hasMoreEvents()) {
        RecordedEvent event = events.readEvent();
        if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
          continue;
        }
        RecordedThread thread = event.getThread("sampledThread");
        RecordedStackTrace stack = event.getStackTrace();
        if (thread == null || stack == null) {
          continue;
        }
        List<ComponentRules.Frame> frames = new ArrayList<>(stack.getFrames().size());
        for (RecordedFrame frame : stack.getFrames()) {
          boolean known = frame.getMethod() != null && frame.getMethod().getType() != null;
          String type = known ? frame.getMethod().getType().getName() : "";
          frames.add(new ComponentRules.Frame(type, known ? frame.getMethod().getName() : "?"));
          if (EXCLUDED_FRAMES.stream().anyMatch(type::startsWith)) {
            excluded.add(thread.getOSThreadId());
          }
        }
        samples.add(
            new ComponentSplit.Sample(
                thread.getOSThreadId(),
                String.valueOf(thread.getJavaName()),
                event.getStartTime().toEpochMilli(),
                rules.classify(frames),
                rules.decidingFrame(frames),
                stack.isTruncated()));
      }
    }
  }

  /** This process's CPU so far, ended threads included (the clock local mode's CPU figure uses). */
  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean bean
        ? bean.getProcessCpuTime()
        : 0;
  }

  /** The JVM flags that make a profile exact, as this JVM has them (for the report). */
  public static String jvmSetup() {
    List<String> flags = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.contains("DebugNonSafepoints") || arg.startsWith("-XX:FlightRecorderOptions")) {
        flags.add(arg);
      }
    }
    return flags.isEmpty()
        ? "no -XX:+DebugNonSafepoints nor stack depth set: samples in inlined code may name their"
            + " caller, and stacks deeper than 64 frames are cut (run through scripts/run-local.sh)"
        : String.join(" ", flags);
  }
}
