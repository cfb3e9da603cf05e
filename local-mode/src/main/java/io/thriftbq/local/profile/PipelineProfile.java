package io.thriftbq.local.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A run's pipeline CPU by component: over the steady window of the run's CPU figures, and over its
 * second half (where the JVM is warmer). The report's {@value #KEY} section, written from this
 * record and read back into it here only.
 *
 * @param jvmSetup the JVM flags the profile's exactness depends on, as set
 */
public record PipelineProfile(
    String jvmSetup, SplitFigures window, @Nullable SplitFigures secondHalf) {

  /** The report's key for the profile. */
  public static final String KEY = "pipeline_cpu_by_component";

  /** What the figures mean, for the report. */
  public static final String HOW =
      "Java Flight Recorder in the runner's JVM (execution samples every "
          + PipelineProfiler.SAMPLING_PERIOD.toMillis()
          + " ms) and each thread's CPU from /proc/self/task, read at the same polls as the"
          + " run's CPU figures and over the same window: each thread's CPU is spread over the"
          + " components of its samples in the window (the innermost frame a rule of"
          + " components.tsv names decides); threads without samples (GC, JIT, JVM) are charged"
          + " by name; the publisher's and the poller's threads are left out. µs per event:"
          + " per row written or dead-lettered in the window.";

  private static final String HOW_KEY = "how";
  private static final String JVM_SETUP = "jvm_setup";
  private static final String WINDOW = "window";
  private static final String SECOND_HALF = "second_half";

  /** The profile of the splits of the window and of its second half (null when not split). */
  public static PipelineProfile of(
      ComponentSplit window, @Nullable ComponentSplit secondHalf, String jvmSetup) {
    ComponentRules rules = ComponentRules.standard();
    return new PipelineProfile(
        jvmSetup, window.figures(rules), secondHalf == null ? null : secondHalf.figures(rules));
  }

  /** The report's {@value #KEY}. */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put(HOW_KEY, HOW);
    node.put(JVM_SETUP, jvmSetup);
    node.set(WINDOW, window.toJson());
    if (secondHalf != null) {
      node.set(SECOND_HALF, secondHalf.toJson());
    }
    return node;
  }

  /** The profile of a report's {@value #KEY}; null when the report has none (not profiled). */
  public static @Nullable PipelineProfile fromJson(JsonNode node) {
    if (!node.path(WINDOW).isObject()) {
      return null;
    }
    return new PipelineProfile(
        node.path(JVM_SETUP).asText(),
        SplitFigures.fromJson(node.path(WINDOW)),
        node.path(SECOND_HALF).isObject() ? SplitFigures.fromJson(node.path(SECOND_HALF)) : null);
  }
}
