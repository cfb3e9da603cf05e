package io.thriftbq.ingest.format;

import java.util.Objects;

/**
 * An element of a write to several tables: the element and the index of its table among the write's
 * tables. A many-types job writes every struct with one BigQueryIO write where the format allows it
 * (see {@link Format#hasSchemaPerTable}); the index is how that write's dynamic destinations and
 * coder know which struct an element is, without looking inside the row.
 *
 * @param table the index of the element's table, from 0
 * @param element the row, or the row with its payload
 * @param <E> the element type, see {@link EventSink}
 */
public record ToTable<E>(int table, E element) {
  public ToTable {
    if (table < 0) {
      throw new IllegalArgumentException("table index " + table + " is negative");
    }
    Objects.requireNonNull(element, "element");
  }
}
