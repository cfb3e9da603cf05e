package io.thriftbq.local.profile;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A run's pipeline CPU by component: over the window of the run's CPU figures, and over its second
 * half (where the JVM is warmer).
 *
 * @param jvmSetup the JVM flags the profile's exactness depends on, as set
 */
public record PipelineProfile(
    ComponentSplit window, @Nullable ComponentSplit secondHalf, String jvmSetup) {

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

  /** The report's {@code pipeline_cpu_by_component}. */
  public ObjectNode toJson() {
    ComponentRules rules = ComponentRules.standard();
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("how", HOW);
    node.put("jvm_setup", jvmSetup);
    node.set("window", window.toJson(rules));
    if (secondHalf != null) {
      node.set("second_half", secondHalf.toJson(rules));
    }
    return node;
  }
}
