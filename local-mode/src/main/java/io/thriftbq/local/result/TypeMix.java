package io.thriftbq.local.result;

import java.util.List;
import java.util.Map;

/**
 * A run of many event types: which struct each generated event was (the publisher knows, since the
 * generator's choice is deterministic), and each struct's table.
 *
 * @param structs the structs' IDL names, in type order
 * @param tables struct → its event table
 * @param typeOfEvent type index (into {@code structs}) of each generated event, by sequence number
 */
public record TypeMix(List<String> structs, Map<String, String> tables, byte[] typeOfEvent) {
  public TypeMix {
    structs = List.copyOf(structs);
    tables = Map.copyOf(tables);
  }

  /** The struct of generated event {@code id}. */
  public String structOf(long id) {
    return structs.get(typeOfEvent[(int) id]);
  }
}
