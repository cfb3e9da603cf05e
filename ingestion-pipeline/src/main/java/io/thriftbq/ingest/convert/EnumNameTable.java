package io.thriftbq.ingest.convert;

import io.thriftbq.schema.ThriftEnum;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An enum's names by wire value in a dense table from its smallest value, built once for the
 * one-pass readers that look a value up per event ({@link SchemaNodes} for {@link
 * CheckingProtocol}, and {@link DirectProtoWriter}), with what each name adds to the row-size
 * estimate ({@link DecodingRules#enumNameCost}).
 */
final class EnumNameTable {
  /** Values spread over this many numbers or more are not tabled: {@link #of} gives null. */
  static final int MAX_SPAN = 4096;

  /** The smallest value: index 0 of the tables. */
  final int min;

  /** The names by value minus {@link #min}; null where the IDL names no value. */
  final @Nullable String[] names;

  /**
   * {@link DecodingRules#enumNameCost} of each name, by value minus {@link #min}; -1 where none.
   */
  final int[] costs;

  private EnumNameTable(int min, @Nullable String[] names, int[] costs) {
    this.min = min;
    this.names = names;
    this.costs = costs;
  }

  /** The table of {@code type}, or null when it has no values or they spread too far. */
  static @Nullable EnumNameTable of(ThriftEnum type) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (ThriftEnum.Member member : type.members()) {
      min = Math.min(min, member.value());
      max = Math.max(max, member.value());
    }
    if (min > max || max - min >= MAX_SPAN) {
      return null;
    }
    int span = (int) (max - min + 1);
    String[] names = new String[span];
    int[] costs = new int[span];
    for (int i = 0; i < span; i++) {
      String name = type.nameOf((int) min + i);
      names[i] = name;
      costs[i] = name == null ? -1 : DecodingRules.enumNameCost(name);
    }
    return new EnumNameTable((int) min, names, costs);
  }
}
