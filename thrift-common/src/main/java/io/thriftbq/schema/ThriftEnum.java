package io.thriftbq.schema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TEnum;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Thrift enum: its values, with a fast lookup from wire value to name. Described either from a
 * generated class or from an IDL; an IDL enum has no class, and works everywhere except where a
 * generated object is built.
 */
public final class ThriftEnum implements Serializable {
  private static final long serialVersionUID = 1L;

  /** One declared value. */
  public record Member(String name, int value) implements Serializable {}

  private final String name;
  private final @Nullable Class<? extends TEnum> enumClass;
  private final List<Member> members;
  private final int minValue;
  private final String @Nullable [] namesByOffset;
  private final Map<Integer, String> namesByValue;

  private ThriftEnum(
      String name, @Nullable Class<? extends TEnum> enumClass, List<Member> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("enum " + name + " has no values");
    }
    this.name = name;
    this.enumClass = enumClass;
    this.members = List.copyOf(members);
    int min = members.stream().mapToInt(Member::value).min().orElseThrow();
    int max = members.stream().mapToInt(Member::value).max().orElseThrow();
    this.minValue = min;
    Map<Integer, String> byValue = new HashMap<>();
    for (Member member : members) {
      byValue.putIfAbsent(member.value(), member.name());
    }
    this.namesByValue = Collections.unmodifiableMap(byValue);
    // Dense enums (the common case) get an array lookup; sparse ones fall back to the map.
    if ((long) max - min < 4096) {
      String[] names = new String[max - min + 1];
      byValue.forEach((value, n) -> names[value - min] = n);
      namesByOffset = names;
    } else {
      namesByOffset = null;
    }
  }

  /** The enum of a Thrift-generated class. */
  static ThriftEnum ofClass(Class<? extends TEnum> enumClass) {
    TEnum[] constants = enumClass.getEnumConstants();
    if (constants == null || constants.length == 0) {
      throw new IllegalArgumentException(enumClass.getName() + " has no enum constants");
    }
    List<Member> members = new ArrayList<>(constants.length);
    for (TEnum constant : constants) {
      members.add(new Member(((Enum<?>) constant).name(), constant.getValue()));
    }
    return new ThriftEnum(enumClass.getSimpleName(), enumClass, members);
  }

  /** An enum described by an IDL, in declaration order. */
  static ThriftEnum ofIdl(String name, List<Member> members) {
    return new ThriftEnum(name, null, members);
  }

  /** The IDL name of the enum. */
  public String name() {
    return name;
  }

  /** Declared values in declaration order. */
  public List<Member> members() {
    return members;
  }

  /** True when a generated class stands behind this enum (so {@link #constant} works). */
  public boolean hasJavaClass() {
    return enumClass != null;
  }

  /**
   * The generated constant for a declared value.
   *
   * @throws IllegalStateException when the enum comes from an IDL, which has no class
   */
  public TEnum constant(int value) {
    if (enumClass == null) {
      throw new IllegalStateException(
          "enum " + name + " was read from an IDL: it has no generated class to build values of");
    }
    for (TEnum constant : enumClass.getEnumConstants()) {
      if (constant.getValue() == value) {
        return constant;
      }
    }
    throw new IllegalArgumentException(value + " is not a value of " + enumClass.getName());
  }

  /** The IDL name of the value, or null when the value is unknown to this version of the IDL. */
  public @Nullable String nameOf(int wireValue) {
    if (namesByOffset != null) {
      long offset = (long) wireValue - minValue;
      return offset >= 0 && offset < namesByOffset.length ? namesByOffset[(int) offset] : null;
    }
    return namesByValue.get(wireValue);
  }

  @Override
  public String toString() {
    return "enum " + (enumClass == null ? name : enumClass.getName());
  }
}
