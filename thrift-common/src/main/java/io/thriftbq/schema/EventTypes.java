package io.thriftbq.schema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.beam.sdk.io.FileSystems;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The event types one job handles, each to its own table, and how a message says which one it
 * holds: one struct ({@link Layout#SINGLE}, today's single-type job), several structs named by a
 * message attribute ({@link Layout#ATTRIBUTE}), or a union whose set member is the event ({@link
 * Layout#UNION}). Chosen once, at launch, from the shared IDL options, by the ingestion pipeline,
 * the data generator and the schema exporter alike.
 *
 * @param layout how messages name their type
 * @param types the types, in the order the options name them
 * @param attribute the attribute naming the struct ({@link Layout#ATTRIBUTE}), else null
 * @param union the union ({@link Layout#UNION}), else null
 */
public record EventTypes(
    Layout layout, List<EventType> types, @Nullable String attribute, @Nullable ThriftStruct union)
    implements Serializable {

  /** Default of {@code --structAttribute}. */
  public static final String DEFAULT_STRUCT_ATTRIBUTE = "thrift_struct";

  /** How a message says which type it holds. */
  public enum Layout {
    /** One type; messages carry nothing else. */
    SINGLE,
    /** Several structs; an attribute (a header on Kafka) names each message's struct. */
    ATTRIBUTE,
    /** A union wraps every type; the member that is set is the event. */
    UNION
  }

  /**
   * One event type.
   *
   * @param source the struct, to decode and to derive the table from
   * @param unionFieldId the union member's field id ({@link Layout#UNION}), else 0
   * @param weight the generator's share of this type (1 unless given)
   */
  public record EventType(ThriftSource source, short unionFieldId, double weight)
      implements Serializable {
    public EventType {
      Objects.requireNonNull(source, "source");
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("weight must be positive, not " + weight);
      }
    }

    /**
     * The struct's IDL name (a generated class's simple name): what {@code {struct}} in a table
     * name and the attribute use. Known without loading a class, so a launch can report a class
     * that is not a struct with everything else.
     */
    public String name() {
      if (source instanceof ThriftSource.GeneratedClass generated) {
        String className = generated.className();
        return className.substring(
            Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
      }
      return source.resolve().name();
    }

    /** {@code program.Name} for an IDL struct, the class name for a generated one. */
    public String qualifiedName() {
      if (source instanceof ThriftSource.GeneratedClass generated) {
        return generated.className();
      }
      return source.resolve().qualifiedName();
    }

    /** The name in snake_case, for {@code {struct}} in a table name: RefundV2 → refund_v2. */
    public String tableName() {
      return snakeCase(name());
    }
  }

  public EventTypes {
    Objects.requireNonNull(layout, "layout");
    types = List.copyOf(types);
    if (types.isEmpty()) {
      throw new IllegalArgumentException("no event type");
    }
  }

  /** One type from one source, as every single-type job has. */
  public static EventTypes single(ThriftSource source) {
    return new EventTypes(Layout.SINGLE, List.of(new EventType(source, (short) 0, 1)), null, null);
  }

  public boolean isSingle() {
    return layout == Layout.SINGLE;
  }

  /** The type the name a message carries points at (its IDL name or FILE.Name), or null. */
  public @Nullable EventType byName(@Nullable String name) {
    if (name == null) {
      return null;
    }
    String wanted = name.trim();
    for (EventType type : types) {
      if (type.name().equals(wanted) || type.qualifiedName().equals(wanted)) {
        return type;
      }
    }
    return null;
  }

  /** The names messages may carry, for a reason that says what is allowed. */
  public String allowedNames() {
    return types.stream().map(EventType::name).collect(Collectors.joining(", "));
  }

  /**
   * The types the options name: {@code --thriftUnion} (members, narrowed by {@code
   * --thriftStructs}), {@code --thriftStructs} (two or more: routed by {@code --structAttribute};
   * one is a single type), or else the one struct of {@link ThriftSources#choose}. Reads and checks
   * the IDL now (at launch).
   *
   * @param classOption the tool's option for a generated class, as the user writes it
   * @param weightsAllowed whether {@code --thriftStructs} may give weights (the generator)
   * @throws IllegalArgumentException listing what is wrong and what to change
   */
  public static EventTypes choose(
      ThriftSchemaOptions options,
      String classOption,
      @Nullable String className,
      boolean weightsAllowed) {
    boolean structs = isSet(options.getThriftStructs());
    boolean union = isSet(options.getThriftUnion());
    if (!structs && !union) {
      return single(ThriftSources.choose(options, classOption, className));
    }
    String given = union ? "--thriftUnion" : "--thriftStructs";
    if (isSet(options.getThriftStruct())) {
      throw new IllegalArgumentException(
          "--thriftStruct and "
              + given
              + " both name the event types: keep --thriftStruct for one struct, or "
              + given
              + " for several");
    }
    if (isSet(className)) {
      throw new IllegalArgumentException(
          given
              + " names types of an IDL read at launch, but "
              + classOption
              + " names a generated class: drop "
              + classOption
              + " and give --thriftIdl=PATH to your .thrift file");
    }
    if (!isSet(options.getThriftIdl())) {
      throw new IllegalArgumentException(
          given + " names types of an IDL: add --thriftIdl=PATH to your .thrift file");
    }
    List<Weighted> wanted = structs ? parse(options.getThriftStructs(), weightsAllowed) : List.of();
    // Registers gs:// and the other file systems the options enable.
    FileSystems.setDefaultPipelineOptions(options);
    List<String> includes = ThriftSources.splitList(options.getThriftIdlIncludePath());
    if (union) {
      return ofUnion(options.getThriftIdl(), includes, options.getThriftUnion().trim(), wanted);
    }
    List<ThriftSource> sources =
        ThriftSource.idls(
            options.getThriftIdl(),
            includes,
            wanted.stream().map(Weighted::name).toList(),
            "--thriftStructs");
    List<EventType> types = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      types.add(new EventType(sources.get(i), (short) 0, wanted.get(i).weight()));
    }
    checkDistinct(types, "--thriftStructs");
    if (types.size() == 1) {
      return new EventTypes(Layout.SINGLE, types, null, null);
    }
    String attribute = options.getStructAttribute();
    if (!isSet(attribute)) {
      throw new IllegalArgumentException(
          "--structAttribute is empty: name the attribute that holds each message's struct"
              + " (default "
              + DEFAULT_STRUCT_ATTRIBUTE
              + ")");
    }
    return new EventTypes(Layout.ATTRIBUTE, types, attribute.trim(), null);
  }

  private static EventTypes ofUnion(
      String idlPath, List<String> includes, String unionName, List<Weighted> wanted) {
    ThriftSource unionSource =
        ThriftSource.idls(idlPath, includes, List.of(unionName), "--thriftUnion").get(0);
    ThriftStruct union = unionSource.resolve();
    if (!union.isUnion()) {
      throw new IllegalArgumentException(
          "--thriftUnion="
              + unionName
              + " is a struct, not a union: name a union that wraps the event types, or list the"
              + " structs with --thriftStructs");
    }
    // A struct may be the type of several members (1: Order order; 2: Order legacy): it is one
    // event type, named by its first member; the router sends every such member to it.
    Map<String, ThriftField> members = new LinkedHashMap<>();
    for (ThriftField field : union.fields()) {
      if (field.type() instanceof ThriftType.StructRef ref) {
        members.putIfAbsent(ref.struct().name(), field);
        members.putIfAbsent(ref.struct().qualifiedName(), field);
      }
    }
    List<EventType> types = new ArrayList<>();
    if (wanted.isEmpty()) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (ThriftField field : union.fields()) {
        if (field.type() instanceof ThriftType.StructRef ref
            && seen.add(ref.struct().qualifiedName())) {
          types.add(member(idlPath, includes, field, ref.struct(), 1));
        }
      }
    } else {
      for (Weighted each : wanted) {
        ThriftField field = members.get(each.name());
        if (field == null) {
          throw new IllegalArgumentException(
              "--thriftStructs="
                  + each.name()
                  + " is not a struct member of --thriftUnion="
                  + unionName
                  + "; its struct members: "
                  + union.fields().stream()
                      .filter(f -> f.type() instanceof ThriftType.StructRef)
                      .map(f -> ((ThriftType.StructRef) f.type()).struct().name())
                      .collect(Collectors.joining(", ")));
        }
        types.add(
            member(
                idlPath,
                includes,
                field,
                ((ThriftType.StructRef) field.type()).struct(),
                each.weight()));
      }
    }
    checkDistinct(types, "--thriftStructs");
    return new EventTypes(Layout.UNION, types, null, union);
  }

  private static EventType member(
      String idlPath,
      List<String> includes,
      ThriftField field,
      ThriftStruct struct,
      double weight) {
    return new EventType(
        ThriftSource.ofIdlStruct(idlPath, includes, struct.qualifiedName(), struct),
        field.id(),
        weight);
  }

  /** Two types must differ in struct and in {@code {struct}} name (one table each). */
  private static void checkDistinct(List<EventType> types, String option) {
    Map<String, EventType> byQualified = new HashMap<>();
    Map<String, EventType> byTable = new HashMap<>();
    for (EventType type : types) {
      if (byQualified.put(type.qualifiedName(), type) != null) {
        throw new IllegalArgumentException(
            option + " names " + type.qualifiedName() + " twice: name each struct once");
      }
      EventType clash = byTable.put(type.tableName(), type);
      if (clash != null) {
        throw new IllegalArgumentException(
            option
                + ": "
                + clash.qualifiedName()
                + " and "
                + type.qualifiedName()
                + " share the name "
                + type.tableName()
                + ", so messages and tables could not tell them apart: rename one in the IDL");
      }
    }
  }

  /** A name from {@code --thriftStructs} with its weight (1 when none is given). */
  record Weighted(String name, double weight) {}

  static List<Weighted> parse(String list, boolean weightsAllowed) {
    List<Weighted> parsed = new ArrayList<>();
    for (String item : ThriftSources.splitList(list)) {
      int colon = item.lastIndexOf(':');
      if (colon < 0) {
        parsed.add(new Weighted(item, 1));
        continue;
      }
      if (!weightsAllowed) {
        throw new IllegalArgumentException(
            "--thriftStructs="
                + list
                + ": a weight ("
                + item
                + ") is for the data generator; the pipeline takes struct names only (drop the"
                + " :N parts)");
      }
      String name = item.substring(0, colon).trim();
      String weight = item.substring(colon + 1).trim();
      double value;
      try {
        value = Double.parseDouble(weight);
      } catch (NumberFormatException e) {
        value = Double.NaN;
      }
      if (name.isEmpty() || !(value > 0) || Double.isInfinite(value)) {
        throw new IllegalArgumentException(
            "--thriftStructs: "
                + item
                + " is not NAME or NAME:WEIGHT with a positive weight (for example Order:5)");
      }
      parsed.add(new Weighted(name, value));
    }
    if (parsed.isEmpty()) {
      throw new IllegalArgumentException(
          "--thriftStructs is empty: list the structs, for example Order,Refund,Click");
    }
    return parsed;
  }

  /** {@code RefundV2} → {@code refund_v2}, {@code HTTPRequest} → {@code http_request}. */
  public static String snakeCase(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) || (Character.isDigit(c) && i > 0 && !isDigitAt(name, i - 1))) {
        boolean afterLower = i > 0 && Character.isLowerCase(name.charAt(i - 1));
        boolean beforeLower =
            i + 1 < name.length()
                && Character.isLowerCase(name.charAt(i + 1))
                && i > 0
                && Character.isUpperCase(name.charAt(i - 1));
        if (i > 0 && (afterLower || beforeLower) && out.charAt(out.length() - 1) != '_') {
          out.append('_');
        }
      }
      out.append(Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : '_');
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }

  private static boolean isDigitAt(String name, int index) {
    return Character.isDigit(name.charAt(index));
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
