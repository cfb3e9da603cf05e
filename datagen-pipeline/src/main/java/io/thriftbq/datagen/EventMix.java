package io.thriftbq.datagen;

import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.EventTypes.EventType;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The generator's event types and one {@link RandomEventGenerator} per type, built once: one struct
 * (today's single-type run), several structs named by a message attribute ({@code
 * --thriftStructs}), or the struct members of a union ({@code --thriftUnion}), each written wrapped
 * in the union.
 *
 * <p><b>Which type.</b> {@link #chooseType(long)} picks the type of message number {@code m} by
 * weight from a random stream of its own, seeded by ({@code --seed}, {@code m}): the same seed
 * gives the same type for each message whichever worker generates it, and the events themselves
 * draw from the per-event streams they always used, so event {@code n} of type Order is exactly
 * event {@code n} of a run with {@code --thriftStruct=Order}. A plain message's number is its
 * event's sequence number; an envelope (a batch) holds events of one type, since the attribute
 * naming the type belongs to the message. With one type nothing is drawn.
 *
 * <p><b>Skew.</b> A {@code --fieldsWithSkew} path starts at each type's struct (a union member's
 * struct, not the union) and applies to every type that has it; a path no type has is an error.
 *
 * <p>Not thread-safe, like the generators it holds: use one per thread (one per DoFn instance).
 */
public final class EventMix {
  /** Keeps the type stream apart from the event streams, which are seeded by (seed, sequence). */
  private static final long TYPE_STREAM_SALT = 0x7E57_C401_CE0F_7195L;

  private final EventTypes types;
  private final RandomEventGenerator[] generators;
  private final String[] names;
  private final long typeStreamSeed;

  /** Cumulative shares of the types, the last exactly 1; null with one type (nothing to draw). */
  private final double @Nullable [] cumulativeShares;

  /**
   * Builds a generator per type.
   *
   * @throws IllegalArgumentException if the configuration is invalid or a skewed path is a field of
   *     no type; the message says what to change
   */
  public EventMix(GeneratorConfig config) {
    this.types = config.eventTypes();
    List<EventType> list = types.types();
    this.typeStreamSeed = config.seed() ^ TYPE_STREAM_SALT;
    this.generators = new RandomEventGenerator[list.size()];
    this.names = list.stream().map(EventType::name).toArray(String[]::new);
    if (!config.isMix()) {
      generators[0] = new RandomEventGenerator(config);
      cumulativeShares = null;
      return;
    }
    Map<String, List<String>> pathsByType = new LinkedHashMap<>();
    Set<String> unmatched = new LinkedHashSet<>(config.fieldsWithSkew());
    for (int i = 0; i < generators.length; i++) {
      EventType type = list.get(i);
      GeneratorConfig typeConfig = config.toBuilder().source(type.source()).build();
      RandomEventGenerator.UnionWrapping wrapping = wrappingOf(type);
      // The paths a type has are known once its tree is compiled: compile it without skew first.
      List<String> paths =
          new RandomEventGenerator(
                  typeConfig.toBuilder().fieldsWithSkew(List.of()).build(), wrapping)
              .fieldPaths();
      List<String> skewedHere = config.fieldsWithSkew().stream().filter(paths::contains).toList();
      unmatched.removeAll(skewedHere);
      pathsByType.put(type.name(), paths);
      generators[i] =
          new RandomEventGenerator(
              typeConfig.toBuilder().fieldsWithSkew(skewedHere).build(), wrapping);
    }
    if (!unmatched.isEmpty()) {
      throw new IllegalArgumentException(
          "--fieldsWithSkew names "
              + unmatched
              + ", which "
              + (unmatched.size() == 1 ? "is a field path" : "are field paths")
              + " of none of the event types: use dotted IDL field names from a type's struct, "
              + describePaths(pathsByType));
    }
    this.cumulativeShares = list.size() == 1 ? null : cumulativeShares(list);
  }

  private RandomEventGenerator.@Nullable UnionWrapping wrappingOf(EventType type) {
    ThriftStruct union = types.union();
    if (types.layout() != EventTypes.Layout.UNION || union == null) {
      return null;
    }
    for (ThriftField field : union.fields()) {
      if (field.id() == type.unionFieldId()) {
        return new RandomEventGenerator.UnionWrapping(union, field);
      }
    }
    throw new IllegalArgumentException(
        union.qualifiedName() + " has no field " + type.unionFieldId() + " for " + type.name());
  }

  private static double[] cumulativeShares(List<EventType> list) {
    // Scaled by the largest weight first, so that huge weights (any finite one is allowed) cannot
    // add up to infinity.
    double largest = list.stream().mapToDouble(EventType::weight).max().orElseThrow();
    double total = list.stream().mapToDouble(type -> type.weight() / largest).sum();
    double[] cumulative = new double[list.size()];
    double sum = 0;
    for (int i = 0; i < cumulative.length; i++) {
      sum += list.get(i).weight() / largest;
      cumulative[i] = sum / total;
    }
    // Rounding must not leave a sliver above the last share that no type covers.
    cumulative[cumulative.length - 1] = 1.0;
    return cumulative;
  }

  private static String describePaths(Map<String, List<String>> pathsByType) {
    List<String> parts = new ArrayList<>();
    pathsByType.forEach(
        (type, paths) ->
            parts.add(
                type
                    + ": "
                    + (paths.size() <= 30
                        ? String.join(", ", paths)
                        : String.join(", ", paths.subList(0, 30)) + ", ...")));
    return String.join("; ", parts);
  }

  /** The types, their layout and the attribute that names them. */
  public EventTypes eventTypes() {
    return types;
  }

  public int size() {
    return generators.length;
  }

  public EventType type(int index) {
    return types.types().get(index);
  }

  /** The IDL name of type {@code index}: the value of {@link #attribute()} for its messages. */
  public String name(int index) {
    return names[index];
  }

  /** The generator of type {@code index}: its bytes are the event as published (union-wrapped). */
  public RandomEventGenerator generator(int index) {
    return generators[index];
  }

  /**
   * The attribute that names each message's struct ({@code --structAttribute}), or null when
   * messages need none: one type, or a union (the member that is set names the type).
   */
  public @Nullable String attribute() {
    return types.attribute();
  }

  /**
   * The type of message number {@code messageNumber} (a plain message's event sequence number, or
   * an envelope's batch number): drawn by weight, a pure function of (seed, messageNumber).
   */
  public int chooseType(long messageNumber) {
    double[] cumulative = cumulativeShares;
    if (cumulative == null) {
      return 0;
    }
    double u = (SplitMixRandom.seedFor(typeStreamSeed, messageNumber) >>> 11) * 0x1.0p-53; // [0, 1)
    int index = Arrays.binarySearch(cumulative, u);
    // Type i covers [cumulative[i-1], cumulative[i]): an exact hit on a bound belongs to the next.
    return index >= 0 ? index + 1 : -index - 1;
  }

  /**
   * Event {@code sequence} as a plain message holds it: of the type chosen for {@code sequence}.
   */
  public byte[] serialize(long sequence) {
    return generators[chooseType(sequence)].serialize(sequence);
  }
}
