package io.thriftbq.local.result;

import java.util.List;

/**
 * With {@code --id-field}: the field's values in the event tables against those of the generated
 * events that were not dead-lettered.
 *
 * @param missing generated values absent from the tables
 * @param unexpected values in the tables that no generated event has
 */
public record IdFieldCheck(String field, List<String> missing, List<String> unexpected) {
  public IdFieldCheck {
    missing = List.copyOf(missing);
    unexpected = List.copyOf(unexpected);
  }
}
