package io.thriftbq.local.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.local.profile.ComponentSplit.Part;
import io.thriftbq.local.profile.ComponentSplit.Sample;
import io.thriftbq.local.profile.ComponentSplit.Snapshot;
import io.thriftbq.local.profile.ThreadCpuTimes.ThreadCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** Cutting the per-thread CPU and the execution samples to a window, and spreading the CPU. */
public class ComponentSplitTest {
  private static final ComponentRules RULES =
      ComponentRules.parse(
          List.of(
              "group\tsource",
              "group\tengine",
              "group\tJIT",
              "source\tsource\tcom.source",
              "engine\tengine\tcom.engine",
              "jit\tJIT\tthread:C1 CompilerThread"));

  private static final long SECOND = 1_000_000_000L;
  private static final long FROM = 10_000;
  private static final long TO = 20_000;

  /**
   * Thread 1 (worker), 2 (JIT), 3 (the publisher, left out), 4 (born in window), 5 (ended early);
   * the process's CPU also holds what ended threads used. {@code endedLate}: CPU of threads that
   * were never seen in /proc (born and gone between two polls), in the process's figure only.
   */
  private static List<Snapshot> snapshots(long endedLate) {
    return List.of(
        snap(
            5_000,
            5,
            Map.of(1L, cpu("worker", 1), 2L, cpu("C1 CompilerThre", 1), 5L, cpu("early", 3))),
        snap(
            FROM,
            8,
            Map.of(1L, cpu("worker", 2), 2L, cpu("C1 CompilerThre", 2), 3L, cpu("publisher", 1))),
        snap(
            15_000,
            13,
            Map.of(
                1L, cpu("worker", 4),
                2L, cpu("C1 CompilerThre", 3),
                3L, cpu("publisher", 2),
                4L, cpu("short-lived", 1))),
        // Thread 4 ended before the window's end: its last snapshot counts.
        snap(
            TO,
            18 + endedLate,
            Map.of(1L, cpu("worker", 6), 2L, cpu("C1 CompilerThre", 4), 3L, cpu("publisher", 4))),
        // After the window: ignored.
        snap(25_000, 120, Map.of(1L, cpu("worker", 60), 2L, cpu("C1 CompilerThre", 40))));
  }

  private static List<Snapshot> snapshots() {
    return snapshots(0);
  }

  private static Snapshot snap(long at, long processSeconds, Map<Long, ThreadCpu> threads) {
    return new Snapshot(at, processSeconds * SECOND, threads);
  }

  private static ThreadCpu cpu(String name, long seconds) {
    return new ThreadCpu(name, seconds * SECOND);
  }

  private static List<Sample> samples() {
    List<Sample> samples = new ArrayList<>();
    // Worker: 3 source and 1 engine sample in the window; many engine samples outside it.
    for (long at : new long[] {FROM, 12_000, 19_000}) {
      samples.add(new Sample(1, "worker", at, "source", "com.source.A.m", false));
    }
    samples.add(new Sample(1, "worker", TO, "engine", "com.engine.B.m", true));
    for (long at = 0; at < FROM; at += 100) {
      samples.add(new Sample(1, "worker", at, "engine", "com.engine.B.m", false));
    }
    for (long at = TO + 1; at < 30_000; at += 100) {
      samples.add(new Sample(1, "worker", at, "engine", "com.engine.B.m", false));
    }
    // The publisher's samples in the window are not counted.
    samples.add(new Sample(3, "publisher", 15_000, "source", "com.source.A.m", false));
    return samples;
  }

  private static ComponentSplit split() {
    return ComponentSplit.of(RULES, samples(), Set.of(3L), snapshots(), FROM, TO, 1000);
  }

  private static double cpuOf(ComponentSplit split, String component) {
    return split.parts().stream()
        .filter(p -> p.component().equals(component))
        .mapToDouble(Part::cpuSeconds)
        .sum();
  }

  @Test
  public void eachThreadsCpuInTheWindowIsSpreadOverItsSamplesInTheWindow() {
    ComponentSplit split = split();
    assertEquals(4, split.samplesInWindow());
    // Worker: 6 - 2 = 4 s, 3/4 source and 1/4 engine (its samples outside the window ignored).
    assertEquals(3.0, cpuOf(split, "source"), 1e-9);
    assertEquals(1.0, cpuOf(split, "engine"), 1e-9);
    // JIT thread, no samples, charged by its (cut) name: 4 - 2 = 2 s.
    assertEquals(2.0, cpuOf(split, "jit"), 1e-9);
    // Thread 4, born in the window and gone before its end, has no rule: 1 s from zero.
    assertEquals(1.0, cpuOf(split, ComponentRules.UNSAMPLED), 1e-9);
    // Thread 5 ended before the window: not counted anywhere. The publisher: left out.
    assertEquals(7.0, split.totalCpuSeconds(), 1e-9);
    assertEquals(3.0, split.excludedCpuSeconds(), 1e-9);
    assertEquals(Map.of("engine", 1), split.truncatedSamples());
    assertEquals("worker", split.topThreads().get(0).name());
    assertEquals("source", split.topThreads().get(0).component());
  }

  @Test
  public void aLaterWindowCountsOnlyItsOwnPart() {
    ComponentSplit half =
        ComponentSplit.of(RULES, samples(), Set.of(3L), snapshots(), 15_000, TO, 500);
    // Worker: 6 - 4 = 2 s over its 2 samples in [15 s, 20 s]: one source, one engine.
    assertEquals(1.0, cpuOf(half, "source"), 1e-9);
    assertEquals(1.0, cpuOf(half, "engine"), 1e-9);
    assertEquals(1.0, cpuOf(half, "jit"), 1e-9);
    // Thread 4's CPU all fell before 15 s (its last snapshot), so nothing of it here.
    assertEquals(0.0, cpuOf(half, ComponentRules.UNSAMPLED), 1e-9);
    assertEquals(2, half.samplesInWindow());
  }

  @Test
  public void theJsonGivesMicrosecondsPerEventAndSharesThatAddUp() {
    SplitFigures figures = split().figures(RULES);
    JsonNode json = figures.toJson();
    assertEquals(7000.0, json.path("us_per_event").asDouble(), 1e-9);
    assertEquals(1000, json.path("events").asLong());
    double groups = 0;
    double shares = 0;
    for (JsonNode group : json.path("groups")) {
      groups += group.path("us_per_event").asDouble();
      shares += group.path("share").asDouble();
    }
    assertEquals(7000.0, groups, 0.5);
    assertEquals(1.0, shares, 0.001);
    assertEquals("source", json.path("groups").get(0).path("group").asText());
    assertEquals(3000.0, json.path("groups").get(0).path("us_per_event").asDouble(), 1e-9);
    JsonNode jit =
        json.path("components").findParents("component").stream()
            .filter(c -> c.path("component").asText().equals("jit"))
            .findFirst()
            .orElseThrow();
    assertTrue(jit.path("by_thread_name").asBoolean());
    assertEquals(figures, SplitFigures.fromJson(json));
    String table = ComponentTable.full(figures);
    assertTrue(table, table.contains("| jit | (by thread) | 28.6% | 2000.0 |"));
    assertTrue(table, table.contains("| **total** | | 100% | **7000.0** |"));
    // The publisher's thread is in no line of the table or of the thread list.
    assertFalse(table, table.contains("s  publisher"));
    assertTrue(table, table.contains("4.00 s  worker  [source]"));
  }

  @Test
  public void cpuOfThreadsThatEndedInTheWindowGoesToTheirSamples() {
    List<Sample> samples = new ArrayList<>(samples());
    // Thread 6 lived between two polls (never in /proc) and left three engine samples.
    for (long at : new long[] {16_000, 16_100, 16_200}) {
      samples.add(new Sample(6, "insert-worker", at, "engine", "com.engine.C.m", false));
    }
    ComponentSplit split =
        ComponentSplit.of(RULES, samples, Set.of(3L), snapshots(2), FROM, TO, 1000);
    // The process used 2 s more than its listed threads: thread 6's, charged to its samples.
    assertEquals(9.0, split.totalCpuSeconds(), 1e-9);
    assertEquals(3.0, cpuOf(split, "engine"), 1e-9);
    assertEquals(0.0, cpuOf(split, ComponentRules.ENDED), 1e-9);
    // Without samples of ended threads, it is a line of its own.
    ComponentSplit unsampled =
        ComponentSplit.of(RULES, samples(), Set.of(3L), snapshots(2), FROM, TO, 1000);
    assertEquals(2.0, cpuOf(unsampled, ComponentRules.ENDED), 1e-9);
    assertEquals(9.0, unsampled.totalCpuSeconds(), 1e-9);
  }
}
