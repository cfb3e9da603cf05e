package io.thriftbq.ingest.convert;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The columns of one TableRow, kept as the converter produced them: a column-name array shared by
 * every row of the same record type and this row's value array. Beam's TableRow → proto converter
 * and the JSON encoders only iterate the entries, so nothing is hashed per row; a {@code HashMap}
 * behind each row was the largest cost of the TABLE_ROW format. NULL and empty REPEATED values are
 * not entries (BigQuery reads both back the same). Lookups by name scan the columns, which is fine
 * for the few times anything looks a column up.
 */
public final class ColumnMap extends AbstractMap<String, Object> {
  private String[] names;
  private Object[] values;
  private int length;
  private int size;
  private boolean namesShared;

  /** An empty map; needed by google-http-client's {@code Data.clone} of a TableRow. */
  public ColumnMap() {
    this(new String[0], new Object[0], 0);
    namesShared = false;
  }

  /**
   * Wraps {@code values} without copying; {@code names} is shared and never written through.
   *
   * @param length how many leading entries of both arrays are columns
   */
  ColumnMap(String[] names, Object[] values, int length) {
    this.names = names;
    this.values = values;
    this.length = length;
    this.namesShared = true;
    int present = 0;
    for (int i = 0; i < length; i++) {
      if (isPresent(values[i])) {
        present++;
      }
    }
    this.size = present;
  }

  private static boolean isPresent(Object value) {
    return value != null && !(value instanceof List<?> list && list.isEmpty());
  }

  private int indexOf(Object key) {
    for (int i = 0; i < length; i++) {
      if (names[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    int index = indexOf(key);
    return index >= 0 && isPresent(values[index]);
  }

  @Override
  public Object get(Object key) {
    int index = indexOf(key);
    return index >= 0 && isPresent(values[index]) ? values[index] : null;
  }

  @Override
  public Object put(String key, Object value) {
    int index = indexOf(key);
    if (index < 0) {
      if (namesShared || length == names.length) {
        names = Arrays.copyOf(names, Math.max(4, length * 2));
        namesShared = false;
      }
      if (length == values.length) {
        values = Arrays.copyOf(values, names.length);
      }
      index = length++;
      names[index] = key;
    }
    Object previous = isPresent(values[index]) ? values[index] : null;
    values[index] = value;
    size += (isPresent(value) ? 1 : 0) - (previous != null ? 1 : 0);
    return previous;
  }

  @Override
  public Object remove(Object key) {
    int index = indexOf(key);
    if (index < 0 || !isPresent(values[index])) {
      return null;
    }
    Object previous = values[index];
    values[index] = null;
    size--;
    return previous;
  }

  @Override
  public void clear() {
    Arrays.fill(values, 0, length, null);
    size = 0;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next = advance(0);
          private int last = -1;

          private int advance(int from) {
            int i = from;
            while (i < length && !isPresent(values[i])) {
              i++;
            }
            return i;
          }

          @Override
          public boolean hasNext() {
            return next < length;
          }

          @Override
          public Entry<String, Object> next() {
            if (next >= length) {
              throw new NoSuchElementException();
            }
            last = next;
            next = advance(next + 1);
            return new SimpleEntry<>(names[last], values[last]) {
              @Override
              public Object setValue(Object value) {
                Object previous = super.setValue(value);
                ColumnMap.this.put(getKey(), value);
                return previous;
              }
            };
          }

          @Override
          public void remove() {
            if (last < 0) {
              throw new IllegalStateException();
            }
            ColumnMap.this.remove(names[last]);
            last = -1;
          }
        };
      }
    };
  }
}
