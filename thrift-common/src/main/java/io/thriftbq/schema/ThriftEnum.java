package io.thriftbq.schema;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TEnum;

/** A Thrift enum: its class and its values, with a fast lookup from wire value to name. */
public final class ThriftEnum {

  private final Class<? extends TEnum> enumClass;
  private final List<TEnum> values;
  private final int minValue;
  private final String[] namesByOffset;
  private final Map<Integer, String> namesByValue;

  ThriftEnum(Class<? extends TEnum> enumClass) {
    this.enumClass = enumClass;
    TEnum[] constants = enumClass.getEnumConstants();
    if (constants == null || constants.length == 0) {
      throw new IllegalArgumentException(enumClass.getName() + " has no enum constants");
    }
    this.values = List.of(constants);
    int min = Arrays.stream(constants).mapToInt(TEnum::getValue).min().orElseThrow();
    int max = Arrays.stream(constants).mapToInt(TEnum::getValue).max().orElseThrow();
    this.minValue = min;
    Map<Integer, String> byValue = new HashMap<>();
    for (TEnum constant : constants) {
      byValue.put(constant.getValue(), ((Enum<?>) constant).name());
    }
    this.namesByValue = Collections.unmodifiableMap(byValue);
    // Dense enums (the common case) get an array lookup; sparse ones fall back to the map.
    if ((long) max - min < 4096) {
      namesByOffset = new String[max - min + 1];
      byValue.forEach((value, name) -> namesByOffset[value - min] = name);
    } else {
      namesByOffset = null;
    }
  }

  public Class<? extends TEnum> enumClass() {
    return enumClass;
  }

  public List<TEnum> values() {
    return values;
  }

  /** The IDL name of the value, or null when the value is unknown to this version of the IDL. */
  public String nameOf(int wireValue) {
    if (namesByOffset != null) {
      long offset = (long) wireValue - minValue;
      return offset >= 0 && offset < namesByOffset.length ? namesByOffset[(int) offset] : null;
    }
    return namesByValue.get(wireValue);
  }

  @Override
  public String toString() {
    return "enum " + enumClass.getName();
  }
}
