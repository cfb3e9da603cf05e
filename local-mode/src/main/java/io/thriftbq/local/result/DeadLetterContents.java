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
 * @param byStruct rows by their {@code struct} column ("" when empty: UNPACK, ROUTE)
 * @param malformedStructs malformed message id → the {@code struct} column of its dead letter
 */
public record DeadLetterContents(
    String table,
    boolean exists,
    long rows,
    Map<String, Long> byStage,
    Map<String, String> malformedStages,
    Map<Long, String> validEvents,
    List<String> unreadableEventIds,
    List<JsonNode> samples,
    Map<String, Long> byStruct,
    Map<String, String> malformedStructs) {
  public DeadLetterContents {
    byStruct = Map.copyOf(byStruct);
    malformedStructs = Map.copyOf(malformedStructs);
    byStage = Map.copyOf(byStage);
    malformedStages = Map.copyOf(malformedStages);
    validEvents = Map.copyOf(validEvents);
    unreadableEventIds = List.copyOf(unreadableEventIds);
    samples = List.copyOf(samples);
  }

  public static DeadLetterContents missing(String table) {
    return new DeadLetterContents(
        table, false, 0, Map.of(), Map.of(), Map.of(), List.of(), List.of(), Map.of(), Map.of());
  }
}
