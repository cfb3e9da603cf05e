package io.thriftbq.local.source;

import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One message as a local run publishes it, whatever the source: the payload, its attributes and,
 * for Kafka, the record key (null: the {@code event_id} attribute).
 */
public record SourceMessage(
    byte[] data, Map<String, String> attributes, @Nullable String recordKey) {

  public SourceMessage(byte[] data, Map<String, String> attributes) {
    this(data, attributes, null);
  }
}
