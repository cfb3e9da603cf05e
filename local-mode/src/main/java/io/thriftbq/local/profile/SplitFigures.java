package io.thriftbq.local.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One window's component split as the report holds it ({@link ComponentSplit#figures}): figures
 * rounded as written, each JSON key spelled here only, so that the report's JSON is written from
 * these values and read back into them ({@link #fromJson}) in one place.
 *
 * @param seconds the window's length
 * @param events rows and dead letters counted in the window
 * @param executionSamples execution samples of the counted threads in the window
 * @param cpuSec the pipeline's CPU in the window
 * @param excludedCpuSec CPU of the threads left out (publisher, poller)
 * @param usPerEvent µs of pipeline CPU per event
 * @param groups by group, in the rules' order
 * @param components by component, in the rules' order
 * @param topThreads the ten threads with most CPU
 * @param decidingFrames for each component of 3% or more, in component order, the frames that
 *     decided its samples
 * @param truncatedSamples samples whose stack JFR cut, by component, sorted
 */
public record SplitFigures(
    long fromEpochMillis,
    long toEpochMillis,
    double seconds,
    long events,
    long executionSamples,
    double cpuSec,
    double excludedCpuSec,
    double usPerEvent,
    List<Group> groups,
    List<Component> components,
    List<TopThread> topThreads,
    Map<String, List<Frame>> decidingFrames,
    Map<String, Long> truncatedSamples) {

  /** A group's µs per event and its share of the pipeline's CPU. */
  public record Group(String group, double usPerEvent, double share) {}

  /**
   * A component's figures.
   *
   * @param byThreadName charged by thread name (no execution samples)
   */
  public record Component(
      String component,
      String group,
      long samples,
      boolean byThreadName,
      double usPerEvent,
      double share) {}

  /** One thread's CPU in the window and the component of most of its samples. */
  public record TopThread(String name, double cpuSec, String component) {}

  /** A frame that decided a share of a component's samples. */
  public record Frame(String frame, double share) {}

  private static final String FROM_EPOCH_MS = "from_epoch_ms";
  private static final String TO_EPOCH_MS = "to_epoch_ms";
  private static final String SECONDS = "seconds";
  private static final String EVENTS = "events";
  private static final String EXECUTION_SAMPLES = "execution_samples";
  private static final String CPU_SEC = "cpu_sec";
  private static final String EXCLUDED_CPU_SEC = "excluded_cpu_sec";
  private static final String US_PER_EVENT = "us_per_event";
  private static final String GROUPS = "groups";
  private static final String GROUP = "group";
  private static final String SHARE = "share";
  private static final String COMPONENTS = "components";
  private static final String COMPONENT = "component";
  private static final String SAMPLES = "samples";
  private static final String BY_THREAD_NAME = "by_thread_name";
  private static final String TOP_THREADS = "top_threads";
  private static final String NAME = "name";
  private static final String DECIDING_FRAMES = "deciding_frames";
  private static final String FRAME = "frame";
  private static final String TRUNCATED_SAMPLES = "truncated_samples";

  public SplitFigures {
    groups = List.copyOf(groups);
    components = List.copyOf(components);
    topThreads = List.copyOf(topThreads);
    decidingFrames = Collections.unmodifiableMap(new LinkedHashMap<>(decidingFrames));
    truncatedSamples = Collections.unmodifiableMap(new TreeMap<>(truncatedSamples));
  }

  /** The group shares, in order: what the compare-steps bars split the pipeline's CPU by. */
  public Map<String, Double> shareByGroup() {
    Map<String, Double> shares = new LinkedHashMap<>();
    groups.forEach(g -> shares.put(g.group(), g.share()));
    return shares;
  }

  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put(FROM_EPOCH_MS, fromEpochMillis);
    node.put(TO_EPOCH_MS, toEpochMillis);
    node.put(SECONDS, seconds);
    node.put(EVENTS, events);
    node.put(EXECUTION_SAMPLES, executionSamples);
    node.put(CPU_SEC, cpuSec);
    node.put(EXCLUDED_CPU_SEC, excludedCpuSec);
    node.put(US_PER_EVENT, usPerEvent);
    ArrayNode groupList = node.putArray(GROUPS);
    groups.forEach(
        g ->
            groupList
                .addObject()
                .put(GROUP, g.group())
                .put(US_PER_EVENT, g.usPerEvent())
                .put(SHARE, g.share()));
    ArrayNode componentList = node.putArray(COMPONENTS);
    for (Component c : components) {
      componentList
          .addObject()
          .put(COMPONENT, c.component())
          .put(GROUP, c.group())
          .put(SAMPLES, c.samples())
          .put(BY_THREAD_NAME, c.byThreadName())
          .put(US_PER_EVENT, c.usPerEvent())
          .put(SHARE, c.share());
    }
    ArrayNode threads = node.putArray(TOP_THREADS);
    topThreads.forEach(
        t ->
            threads
                .addObject()
                .put(NAME, t.name())
                .put(CPU_SEC, t.cpuSec())
                .put(COMPONENT, t.component()));
    ObjectNode frames = node.putObject(DECIDING_FRAMES);
    decidingFrames.forEach(
        (component, list) -> {
          ArrayNode array = frames.putArray(component);
          list.forEach(f -> array.addObject().put(FRAME, f.frame()).put(SHARE, f.share()));
        });
    ObjectNode truncated = node.putObject(TRUNCATED_SAMPLES);
    truncatedSamples.forEach(truncated::put);
    return node;
  }

  /** The figures of {@link #toJson}'s JSON. */
  public static SplitFigures fromJson(JsonNode node) {
    List<Group> groups = new ArrayList<>();
    for (JsonNode g : node.path(GROUPS)) {
      groups.add(
          new Group(
              g.path(GROUP).asText(), g.path(US_PER_EVENT).asDouble(), g.path(SHARE).asDouble()));
    }
    List<Component> components = new ArrayList<>();
    for (JsonNode c : node.path(COMPONENTS)) {
      components.add(
          new Component(
              c.path(COMPONENT).asText(),
              c.path(GROUP).asText(),
              c.path(SAMPLES).asLong(),
              c.path(BY_THREAD_NAME).asBoolean(),
              c.path(US_PER_EVENT).asDouble(),
              c.path(SHARE).asDouble()));
    }
    List<TopThread> threads = new ArrayList<>();
    for (JsonNode t : node.path(TOP_THREADS)) {
      threads.add(
          new TopThread(
              t.path(NAME).asText(), t.path(CPU_SEC).asDouble(), t.path(COMPONENT).asText()));
    }
    Map<String, List<Frame>> frames = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.path(DECIDING_FRAMES).fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> component = it.next();
      List<Frame> list = new ArrayList<>();
      for (JsonNode f : component.getValue()) {
        list.add(new Frame(f.path(FRAME).asText(), f.path(SHARE).asDouble()));
      }
      frames.put(component.getKey(), list);
    }
    Map<String, Long> truncated = new TreeMap<>();
    node.path(TRUNCATED_SAMPLES)
        .fields()
        .forEachRemaining(e -> truncated.put(e.getKey(), e.getValue().asLong()));
    return new SplitFigures(
        node.path(FROM_EPOCH_MS).asLong(),
        node.path(TO_EPOCH_MS).asLong(),
        node.path(SECONDS).asDouble(),
        node.path(EVENTS).asLong(),
        node.path(EXECUTION_SAMPLES).asLong(),
        node.path(CPU_SEC).asDouble(),
        node.path(EXCLUDED_CPU_SEC).asDouble(),
        node.path(US_PER_EVENT).asDouble(),
        groups,
        components,
        threads,
        frames,
        truncated);
  }
}
