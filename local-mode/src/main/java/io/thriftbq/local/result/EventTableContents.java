package io.thriftbq.local.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One event table as queried from the emulator after the run.
 *
 * @param exists false when the pipeline never created it
 * @param eventIds distinct {@code event_id} attribute values found
 * @param duplicates event id → rows holding it, for ids in more than one row
 * @param sampleRows a few rows as JSON objects
 */
public record EventTableContents(
    String table,
    boolean exists,
    long rows,
    long rowsWithoutEventId,
    Set<Long> eventIds,
    Map<Long, Long> duplicates,
    List<JsonNode> sampleRows) {
  public EventTableContents {
    eventIds = Set.copyOf(eventIds);
    duplicates = Map.copyOf(duplicates);
    sampleRows = List.copyOf(sampleRows);
  }

  public static EventTableContents missing(String table) {
    return new EventTableContents(table, false, 0, 0, Set.of(), Map.of(), List.of());
  }
}
