package io.thriftbq.ingest.convert;

import java.util.Map;

/**
 * Fields the decoder skipped because the IDL does not know them (or knows them with another wire
 * type), for the {@code unknown_fields} metric and the log.
 *
 * @param count every skipped field
 * @param byField counts for the first few distinct {@code Struct.id} keys
 */
public record UnknownFields(long count, Map<String, Long> byField) {
  public static final UnknownFields NONE = new UnknownFields(0, Map.of());
}
