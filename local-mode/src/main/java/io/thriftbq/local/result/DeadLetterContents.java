package io.thriftbq.local.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One dead-letter table as queried from the emulator after the run.
 *
 * @param malformedStages malformed message id → stage(s) it was dead-lettered at
 * @param validEvents generated event id → stage, for valid events that were dead-lettered
 * @param unreadableEventIds {@code event_id} values that are not numbers
 */
public record DeadLetterContents(
    String table,
    boolean exists,
    long rows,
    Map<String, Long> byStage,
    Map<String, String> malformedStages,
    Map<Long, String> validEvents,
    List<String> unreadableEventIds,
    List<JsonNode> samples) {
  public DeadLetterContents {
    byStage = Map.copyOf(byStage);
    malformedStages = Map.copyOf(malformedStages);
    validEvents = Map.copyOf(validEvents);
    unreadableEventIds = List.copyOf(unreadableEventIds);
    samples = List.copyOf(samples);
  }

  public static DeadLetterContents missing(String table) {
    return new DeadLetterContents(
        table, false, 0, Map.of(), Map.of(), Map.of(), List.of(), List.of());
  }
}
