package io.thriftbq.ingest.plan;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.write.WriteSettings;
import io.thriftbq.schema.EventTypes;
import java.util.Objects;

/**
 * What the plan decided for one event type: how its events are decoded and where and how its rows
 * are written. A single-type job has one; a many-types job one per struct.
 *
 * @param type the struct, its name and (for a union) its member id
 * @param decoding the struct, protocol, limits and metadata columns its decoder works with
 * @param write its table and every tuning knob (the same knobs for every type)
 */
public record TypePlan(EventTypes.EventType type, ConverterConfig decoding, WriteSettings write) {
  public TypePlan {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(decoding, "decoding");
    Objects.requireNonNull(write, "write");
  }

  /** The schemas of its rows, derived once from the struct. */
  public EventSchemas schemas() {
    return decoding.schemas();
  }

  /** Its output table. */
  public String table() {
    return write.table();
  }

  /** The struct's IDL name, as dead letters and metrics carry it. */
  public String name() {
    return type.name();
  }
}
