package io.thriftbq.datagen;

import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.thrift.TBase;
import org.apache.thrift.TEnum;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Random instances of any Thrift struct, without a pipeline: the core of the data generator, also
 * used by the local mode, the benchmarks and other modules' tests.
 *
 * <p><b>Deterministic.</b> Event number {@code sequence} is a pure function of ({@link
 * GeneratorConfig#seed()}, {@code sequence}) and the other options: the random stream is reseeded
 * from the pair for every event, so output does not depend on which worker generates which events
 * or in which order. {@link #serialize(long)} and {@link #generate(long)} describe the same event:
 * serializing {@code generate(n)} with the configured protocol gives exactly {@code serialize(n)}.
 *
 * <p><b>Fast.</b> The struct's metadata ({@link ThriftStruct}) is compiled once into a tree of
 * value generators; {@link #serializeToBuffer(long)} writes straight to the Thrift protocol into a
 * reused buffer, cutting strings from a shared text without copying, and builds objects only for
 * set elements and map keys (which must be de-duplicated before the container's size is written).
 *
 * <p><b>Values.</b> Required (and default-requirement) fields are always set; optional fields with
 * probability {@link GeneratorConfig#optionalFieldProbability()}, or always with {@link
 * GeneratorConfig#completeObjects()}. A union gets exactly one field, chosen uniformly. Strings are
 * windows of a fixed English-word text; string fields whose name or typedef contains "uuid" get a
 * random UUID; i64 fields whose name or typedef looks like a timestamp ({@code *_at}, {@code
 * *time}, {@code *_ms}, {@code *_ts}, {@code *millis*}, {@code *timestamp*}) get epoch milliseconds
 * in 2024; other integers are non-negative and moderate (i16 &lt; 10^4, i32 &lt; 10^6, i64 &lt;
 * 10^12), i8 covers its range, doubles are in [0, 1000) with two decimals, enums take only declared
 * values. Lists have 0..maxCollectionSize elements; sets and maps the distinct ones among as many
 * draws. Fields named in {@link GeneratorConfig#fieldsWithSkew()} take one of {@code
 * skewCardinality} values (each a full random value of the field's type, subtree included) with
 * Zipf-like frequencies.
 *
 * <p>Not thread-safe: use one instance per thread.
 */
public final class RandomEventGenerator {
  private static final long TIMESTAMP_BASE_MS = 1_704_067_200_000L; // 2024-01-01T00:00:00Z
  private static final long YEAR_MS = 366L * 24 * 3600 * 1000;
  private static final int UUID_LENGTH = 36;
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final GeneratorConfig config;
  private final ThriftStruct struct;
  private final Gen root;
  private final SplitMixRandom random = new SplitMixRandom(0);
  private final GrowableOutputTransport transport = new GrowableOutputTransport(4096);
  private final TProtocol protocol;
  private final byte[] text = TextCorpus.text();
  private final ByteBuffer textView = ByteBuffer.wrap(text);
  private final byte[] scratch;
  private final ByteBuffer scratchView;
  private final List<String> fieldPaths = new ArrayList<>();

  /** The generator of {@link #struct} itself (inside the union when wrapped): overrides apply. */
  private final StructGen top;

  /** Values replacing top-level fields during one {@link #serialize(long, int[], Object[])}. */
  private Object @Nullable [] topOverrides;

  /**
   * Builds a generator.
   *
   * @throws IllegalArgumentException if the configuration is invalid, the class is not a Thrift
   *     struct, or a skewed field path does not exist; the message says what to change
   */
  public RandomEventGenerator(GeneratorConfig config) {
    this(requireOneType(config), null);
  }

  private static GeneratorConfig requireOneType(GeneratorConfig config) {
    if (config.isMix()) {
      // One generator writes one struct; quietly generating the first type of a mix would publish
      // the wrong shares.
      throw new IllegalArgumentException(
          "The configuration names several event types ("
              + config.describeEvents()
              + "): generate them with EventMix");
    }
    return config;
  }

  /**
   * A generator of {@code config.source()}, written as the member {@code wrapping.member()} of the
   * union {@code wrapping.union()} when {@code wrapping} is set ({@code --thriftUnion}). The member
   * struct draws exactly the random numbers it would draw alone, so event {@code n} of a member is
   * event {@code n} of the struct, wrapped; skewed field paths start at the member struct.
   */
  RandomEventGenerator(GeneratorConfig config, @Nullable UnionWrapping wrapping) {
    List<String> problems = config.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    this.config = config;
    this.struct = config.source().resolve();
    this.scratch = new byte[Math.max(UUID_LENGTH, config.maxStringLength())];
    this.scratchView = ByteBuffer.wrap(scratch);
    this.protocol = config.protocol().newWriter(transport);

    Set<String> skewed = new LinkedHashSet<>(config.fieldsWithSkew());
    Set<String> matched = new LinkedHashSet<>();
    StructGen member = compileStruct(struct, "", skewed, matched);
    this.top = member;
    this.root = wrapping == null ? member : wrapInUnion(wrapping, member);
    skewed.removeAll(matched);
    if (!skewed.isEmpty()) {
      throw new IllegalArgumentException(
          "--fieldsWithSkew names "
              + skewed
              + ", which "
              + (skewed.size() == 1 ? "is not a field path" : "are not field paths")
              + " of "
              + struct.qualifiedName()
              + ": use dotted IDL field names from the top-level struct, one of "
              + describePaths());
    }
  }

  public GeneratorConfig config() {
    return config;
  }

  public ThriftStruct struct() {
    return struct;
  }

  /** Every field path {@code --fieldsWithSkew} accepts for this struct, in IDL order. */
  public List<String> fieldPaths() {
    return List.copyOf(fieldPaths);
  }

  /**
   * Event number {@code sequence} as an object (allocates; see {@link #serialize(long)}). An
   * optional field left out is unset here, IDL default or not, because it is absent from the wire;
   * a Thrift reader that decodes into a new instance sees the IDL default in its place.
   */
  public TBase<?, ?> generate(long sequence) {
    if (!struct.hasJavaClass() || !root.buildsObjects()) {
      throw new IllegalStateException(
          struct.qualifiedName()
              + " was read from an IDL: generate(n) builds generated objects, so use serialize(n)");
    }
    random.reseed(SplitMixRandom.seedFor(config.seed(), sequence));
    return (TBase<?, ?>) root.build(random);
  }

  /** Event number {@code sequence}, serialized with the configured protocol, in a new array. */
  public byte[] serialize(long sequence) {
    int length = serializeToBuffer(sequence);
    return Arrays.copyOf(transport.array(), length);
  }

  /**
   * Serializes event number {@code sequence} into this generator's buffer and returns its length;
   * the bytes are {@code buffer()[0..length)} until the next call.
   */
  public int serializeToBuffer(long sequence) {
    random.reseed(SplitMixRandom.seedFor(config.seed(), sequence));
    transport.reset();
    try {
      protocol.reset();
      root.write(protocol, random);
    } catch (TException e) {
      // The in-memory transport cannot fail; an exception here is a bug in a value generator.
      throw new IllegalStateException("cannot serialize event " + sequence, e);
    }
    return transport.length();
  }

  /**
   * The index of the top-level field {@code name} of {@link #struct()} for {@link #serialize(long,
   * int[], Object[])}, or -1 if the struct has no such field.
   */
  int topLevelSlot(String name) {
    for (int i = 0; i < top.slots.length; i++) {
      if (top.slots[i].field.name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The top-level field at {@code slot} (see {@link #topLevelSlot}). */
  ThriftField topLevelField(int slot) {
    return top.slots[slot].field;
  }

  /**
   * Event number {@code sequence} with the top-level fields at {@code slots} set to {@code values}
   * (set even when optional, the rest of the event unchanged: the replaced fields still draw their
   * random numbers). A value is what the field's type holds: Boolean, Byte, Short, Integer (also an
   * enum's value), Long or String. Not for a struct that is itself a union.
   */
  byte[] serialize(long sequence, int[] slots, Object[] values) {
    if (top.target.isUnion()) {
      throw new IllegalStateException(struct.qualifiedName() + " is a union: no field to replace");
    }
    Object[] overrides = new Object[top.slots.length];
    for (int i = 0; i < slots.length; i++) {
      overrides[slots[i]] = values[i];
    }
    topOverrides = overrides;
    try {
      return serialize(sequence);
    } finally {
      topOverrides = null;
    }
  }

  /**
   * The buffer {@link #serializeToBuffer(long)} wrote to. Call it after {@code serializeToBuffer}:
   * the buffer is replaced when an event does not fit.
   */
  public byte[] buffer() {
    return transport.array();
  }

  private String describePaths() {
    if (fieldPaths.size() <= 60) {
      return String.join(", ", fieldPaths);
    }
    return String.join(", ", fieldPaths.subList(0, 60)) + ", ...";
  }

  /**
   * The union a generator wraps its struct in: the union and its member field that holds the struct
   * (a field whose type is the generator's struct).
   */
  record UnionWrapping(ThriftStruct union, ThriftField member) {
    UnionWrapping {
      if (!union.isUnion()) {
        throw new IllegalArgumentException(union.qualifiedName() + " is not a union");
      }
      if (!(member.type() instanceof ThriftType.StructRef)) {
        throw new IllegalArgumentException(
            member.name() + " of " + union.qualifiedName() + " does not hold a struct");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Compiling the metadata into value generators

  private Gen wrapInUnion(UnionWrapping wrapping, Gen member) {
    ThriftField field = wrapping.member();
    FieldSlot slot =
        new FieldSlot(
            field, new TField(field.name(), field.type().wireType(), field.id()), member, true);
    return new UnionMemberGen(wrapping.union(), new TStruct(wrapping.union().name()), slot);
  }

  private StructGen compileStruct(
      ThriftStruct target, String path, Set<String> skewed, Set<String> matched) {
    List<ThriftField> fields = new ArrayList<>(target.fields());
    // Generated code writes fields in id order; following it keeps serialize(n) byte-identical to
    // serializing generate(n).
    fields.sort(Comparator.comparingInt(ThriftField::id));
    FieldSlot[] slots = new FieldSlot[fields.size()];
    for (int i = 0; i < slots.length; i++) {
      ThriftField field = fields.get(i);
      String fieldPath =
          path == null ? null : path.isEmpty() ? field.name() : path + "." + field.name();
      if (fieldPath != null) {
        fieldPaths.add(fieldPath);
      }
      Gen gen = compile(field.type(), fieldPath, field.name(), skewed, matched);
      if (fieldPath != null && skewed.contains(fieldPath)) {
        matched.add(fieldPath);
        gen =
            new SkewGen(
                gen,
                new ZipfSampler(config.skewCardinality(), config.skewExponent()),
                SplitMixRandom.seedFor(config.seed(), fnv64(fieldPath)));
      }
      boolean always = field.requirement() != ThriftField.Requirement.OPTIONAL || target.isUnion();
      slots[i] =
          new FieldSlot(
              field, new TField(field.name(), field.type().wireType(), field.id()), gen, always);
    }
    return new StructGen(target, new TStruct(target.name()), slots);
  }

  /** {@code path} is null inside map keys, which skew cannot address. */
  private Gen compile(
      ThriftType type, String path, String fieldName, Set<String> skewed, Set<String> matched) {
    if (type instanceof ThriftType.Primitive primitive) {
      String hint =
          (fieldName + " " + (primitive.typedefName() == null ? "" : primitive.typedefName()))
              .toLowerCase(Locale.ROOT);
      switch (primitive.kind()) {
        case BOOL:
          return new BoolGen();
        case I8:
          return new I8Gen();
        case I16:
          return new I16Gen();
        case I32:
          return new I32Gen();
        case I64:
          return new I64Gen(looksLikeTimestamp(fieldName, primitive.typedefName()));
        case DOUBLE:
          return new DoubleGen();
        case STRING:
          return hint.contains("uuid") ? new UuidGen() : new TextGen();
        case BINARY:
          return new BinaryGen();
      }
      throw new IllegalArgumentException("unsupported primitive " + primitive);
    }
    if (type instanceof ThriftType.EnumRef enumRef) {
      return new EnumGen(enumRef.enumType());
    }
    if (type instanceof ThriftType.StructRef structRef) {
      return compileStruct(structRef.struct(), path, skewed, matched);
    }
    if (type instanceof ThriftType.ListOf list) {
      return new CollectionGen(
          Container.LIST, compile(list.element(), path, fieldName, skewed, matched));
    }
    if (type instanceof ThriftType.SetOf set) {
      return new CollectionGen(
          Container.SET, compile(set.element(), path, fieldName, skewed, matched));
    }
    ThriftType.MapOf map = (ThriftType.MapOf) type;
    return new MapGen(
        compile(map.key(), null, fieldName, skewed, matched),
        compile(map.value(), path, fieldName, skewed, matched));
  }

  static boolean looksLikeTimestamp(String fieldName, String typedefName) {
    for (String name : new String[] {fieldName, typedefName}) {
      if (name == null) {
        continue;
      }
      String n = name.toLowerCase(Locale.ROOT);
      if (n.endsWith("_at")
          || n.endsWith("time")
          || n.endsWith("_ms")
          || n.endsWith("_ts")
          || n.contains("millis")
          || n.contains("timestamp")) {
        return true;
      }
    }
    return false;
  }

  /** FNV-1a: a hash of the path that is the same in every JVM. */
  private static long fnv64(String s) {
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      hash ^= s.charAt(i);
      hash *= 0x100000001b3L;
    }
    return hash;
  }

  private int stringLength(SplitMixRandom r) {
    int min = config.minStringLength();
    return min + r.nextInt(config.maxStringLength() - min + 1);
  }

  private int collectionSize(SplitMixRandom r) {
    return r.nextInt(config.maxCollectionSize() + 1);
  }

  /**
   * Writes {@code scratch[0..length)} as a string or binary: the same bytes as writeString for
   * ASCII, without encoding a String or copying the array.
   */
  private void writeScratch(TProtocol out, int length) throws TException {
    scratchView.clear();
    scratchView.limit(length);
    out.writeBinary(scratchView);
  }

  private boolean present(FieldSlot slot, SplitMixRandom r) {
    if (!slot.always && !slot.hasValues) {
      return false;
    }
    return slot.always
        || config.completeObjects()
        || r.nextDouble() < config.optionalFieldProbability();
  }

  /**
   * False for a union with no members: no value of it is valid (a union holds exactly one), so an
   * optional field of it is never set and a union never chooses it.
   */
  private static boolean hasValues(ThriftType type) {
    return !(type instanceof ThriftType.StructRef ref
        && ref.struct().isUnion()
        && ref.struct().fields().isEmpty());
  }

  // ---------------------------------------------------------------------------------------------
  // Value generators. write() and build() must draw exactly the same random numbers in the same
  // order, which is what keeps serialize(n) and generate(n) the same event.

  private abstract static class Gen {
    abstract void write(TProtocol out, SplitMixRandom r) throws TException;

    abstract Object build(SplitMixRandom r);

    /** Writes a value made by {@link #build}; used for set elements and map entries. */
    abstract void writeValue(TProtocol out, Object value) throws TException;

    abstract byte wireType();

    /** Whether {@link #build} makes generated objects when the structs have classes. */
    boolean buildsObjects() {
      return true;
    }
  }

  /** {@code hasValues}: {@link #hasValues} of the field's type, decided once, not per event. */
  private record FieldSlot(
      ThriftField field, TField descriptor, Gen gen, boolean always, boolean hasValues) {
    FieldSlot(ThriftField field, TField descriptor, Gen gen, boolean always) {
      this(field, descriptor, gen, always, RandomEventGenerator.hasValues(field.type()));
    }
  }

  /**
   * A built struct without a generated class (set elements and map keys of an IDL struct): equal
   * when the field values are, as generated classes are, so sets and maps de-duplicate alike.
   */
  private record StructValue(Object[] values) {
    @Override
    public boolean equals(Object other) {
      return other instanceof StructValue that && Arrays.deepEquals(values, that.values);
    }

    @Override
    public int hashCode() {
      return Arrays.deepHashCode(values);
    }
  }

  /** A struct, or a union: the same fields, but a union sets exactly one, chosen uniformly. */
  private final class StructGen extends Gen {
    private final ThriftStruct target;
    private final TStruct descriptor;
    private final FieldSlot[] slots;

    /** The slots of a union's members that have values ({@link #hasValues}): it sets one. */
    private final int[] choices;

    StructGen(ThriftStruct target, TStruct descriptor, FieldSlot[] slots) {
      this.target = target;
      this.descriptor = descriptor;
      this.slots = slots;
      this.choices = IntStream.range(0, slots.length).filter(i -> slots[i].hasValues).toArray();
    }

    /** The slot of the member a union sets, or -1 for a union none of whose members has one. */
    private int choose(SplitMixRandom r) {
      return choices.length == 0 ? -1 : choices[r.nextInt(choices.length)];
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeStructBegin(descriptor);
      if (target.isUnion()) {
        int chosen = choose(r);
        if (chosen >= 0) {
          writeField(out, slots[chosen], r);
        }
      } else if (this == top && topOverrides != null) {
        Object[] overrides = topOverrides;
        for (int i = 0; i < slots.length; i++) {
          FieldSlot slot = slots[i];
          boolean present = present(slot, r);
          if (overrides[i] == null) {
            if (present) {
              writeField(out, slot, r);
            }
            continue;
          }
          if (present) {
            slot.gen.build(r); // the draws the field would have made, so the rest is unchanged
          }
          out.writeFieldBegin(slot.descriptor);
          slot.gen.writeValue(out, overrides[i]);
          out.writeFieldEnd();
        }
      } else {
        for (FieldSlot slot : slots) {
          if (present(slot, r)) {
            writeField(out, slot, r);
          }
        }
      }
      out.writeFieldStop();
      out.writeStructEnd();
    }

    private void writeField(TProtocol out, FieldSlot slot, SplitMixRandom r) throws TException {
      out.writeFieldBegin(slot.descriptor);
      slot.gen.write(out, r);
      out.writeFieldEnd();
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    Object build(SplitMixRandom r) {
      if (!target.hasJavaClass()) {
        return buildFields(r);
      }
      TBase instance = target.newInstance();
      if (target.isUnion()) {
        int chosen = choose(r);
        if (chosen >= 0) {
          instance.setFieldValue(slots[chosen].field.fieldEnum(), slots[chosen].gen.build(r));
        }
      } else {
        for (FieldSlot slot : slots) {
          // null unsets the field, which also clears an IDL default the constructor filled in.
          Object value = present(slot, r) ? slot.gen.build(r) : null;
          instance.setFieldValue(slot.field.fieldEnum(), value);
        }
      }
      return instance;
    }

    /** A struct read from an IDL has no class: its value is the fields' values, null if unset. */
    private StructValue buildFields(SplitMixRandom r) {
      Object[] values = new Object[slots.length];
      if (target.isUnion()) {
        int chosen = choose(r);
        if (chosen >= 0) {
          values[chosen] = slots[chosen].gen.build(r);
        }
      } else {
        for (int i = 0; i < slots.length; i++) {
          values[i] = present(slots[i], r) ? slots[i].gen.build(r) : null;
        }
      }
      return new StructValue(values);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      if (value instanceof StructValue struct) {
        // Fields in id order, unset ones left out: what a generated class's write() does.
        out.writeStructBegin(descriptor);
        for (int i = 0; i < slots.length; i++) {
          if (struct.values()[i] != null) {
            out.writeFieldBegin(slots[i].descriptor);
            slots[i].gen.writeValue(out, struct.values()[i]);
            out.writeFieldEnd();
          }
        }
        out.writeFieldStop();
        out.writeStructEnd();
        return;
      }
      ((TBase<?, ?>) value).write(out);
    }

    @Override
    byte wireType() {
      return TType.STRUCT;
    }
  }

  /**
   * A union whose member is fixed ({@code --thriftUnion}, the member chosen per message by weight
   * outside the random stream): the same calls {@link StructGen} makes for a union, without the
   * uniform draw of the member, so the member's random stream is the struct's own.
   */
  private static final class UnionMemberGen extends Gen {
    private final ThriftStruct union;
    private final TStruct descriptor;
    private final FieldSlot member;

    UnionMemberGen(ThriftStruct union, TStruct descriptor, FieldSlot member) {
      this.union = union;
      this.descriptor = descriptor;
      this.member = member;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      // What TUnion.write does: struct begin, the set field's header, its value, field stop.
      out.writeStructBegin(descriptor);
      out.writeFieldBegin(member.descriptor);
      member.gen.write(out, r);
      out.writeFieldEnd();
      out.writeFieldStop();
      out.writeStructEnd();
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    Object build(SplitMixRandom r) {
      TBase instance = union.newInstance();
      instance.setFieldValue(member.field.fieldEnum(), member.gen.build(r));
      return instance;
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      ((TBase<?, ?>) value).write(out);
    }

    @Override
    byte wireType() {
      return TType.STRUCT;
    }

    @Override
    boolean buildsObjects() {
      return union.hasJavaClass();
    }
  }

  /** The two element containers: the same generator serves both, with a different header. */
  private enum Container {
    LIST(TType.LIST),
    SET(TType.SET);

    final byte wireType;

    Container(byte wireType) {
      this.wireType = wireType;
    }
  }

  /** A list or set of 0..maxCollectionSize draws; a set keeps only the distinct ones. */
  private final class CollectionGen extends Gen {
    private final Container container;
    private final Gen element;

    CollectionGen(Container container, Gen element) {
      this.container = container;
      this.element = element;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      if (container == Container.SET) {
        // A set's header holds the number of distinct elements, known only once all are drawn.
        writeValue(out, build(r));
        return;
      }
      // A list streams its elements straight to the protocol, without building them.
      int size = collectionSize(r);
      writeBegin(out, size);
      for (int i = 0; i < size; i++) {
        element.write(out, r);
      }
      writeEnd(out);
    }

    @Override
    Object build(SplitMixRandom r) {
      int size = collectionSize(r);
      // A set keeps insertion order, not hash order: enum hash codes differ between JVMs, and the
      // wire bytes must not.
      Collection<Object> values =
          container == Container.SET ? new LinkedHashSet<>() : new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        values.add(element.build(r));
      }
      return values;
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      Collection<?> values = (Collection<?>) value;
      writeBegin(out, values.size());
      for (Object item : values) {
        element.writeValue(out, item);
      }
      writeEnd(out);
    }

    // The set and list calls write the same bytes in both Thrift protocols today, but calling the
    // one that matches the IDL type keeps this right for any TProtocol.
    private void writeBegin(TProtocol out, int size) throws TException {
      if (container == Container.SET) {
        out.writeSetBegin(new TSet(element.wireType(), size));
      } else {
        out.writeListBegin(new TList(element.wireType(), size));
      }
    }

    private void writeEnd(TProtocol out) throws TException {
      if (container == Container.SET) {
        out.writeSetEnd();
      } else {
        out.writeListEnd();
      }
    }

    @Override
    byte wireType() {
      return container.wireType;
    }
  }

  private final class MapGen extends Gen {
    private final Gen key;
    private final Gen value;

    MapGen(Gen key, Gen value) {
      this.key = key;
      this.value = value;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      writeValue(out, build(r));
    }

    @Override
    Object build(SplitMixRandom r) {
      int size = collectionSize(r);
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        Object k = key.build(r);
        Object v = value.build(r);
        map.putIfAbsent(k, v);
      }
      return map;
    }

    @Override
    void writeValue(TProtocol out, Object object) throws TException {
      Map<?, ?> map = (Map<?, ?>) object;
      out.writeMapBegin(new TMap(key.wireType(), value.wireType(), map.size()));
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        key.writeValue(out, entry.getKey());
        value.writeValue(out, entry.getValue());
      }
      out.writeMapEnd();
    }

    @Override
    byte wireType() {
      return TType.MAP;
    }
  }

  /** Draws a rank, then generates the field's value from a stream seeded by (field, rank). */
  private static final class SkewGen extends Gen {
    private final Gen inner;
    private final ZipfSampler ranks;
    private final long salt;
    private final SplitMixRandom valueRandom = new SplitMixRandom(0);

    SkewGen(Gen inner, ZipfSampler ranks, long salt) {
      this.inner = inner;
      this.ranks = ranks;
      this.salt = salt;
    }

    /** The stream of the value of the rank drawn from {@code r}. */
    private SplitMixRandom valueStream(SplitMixRandom r) {
      valueRandom.reseed(SplitMixRandom.seedFor(salt, ranks.sample(r)));
      return valueRandom;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      inner.write(out, valueStream(r));
    }

    @Override
    Object build(SplitMixRandom r) {
      return inner.build(valueStream(r));
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      inner.writeValue(out, value);
    }

    @Override
    byte wireType() {
      return inner.wireType();
    }
  }

  /** Declared values only; built values are the generated constants, or the number (IDL). */
  private static final class EnumGen extends Gen {
    private final int[] values;
    private final TEnum @Nullable [] constants;

    EnumGen(ThriftEnum type) {
      this.values = type.members().stream().mapToInt(ThriftEnum.Member::value).toArray();
      if (type.hasJavaClass()) {
        constants = new TEnum[values.length];
        for (int i = 0; i < values.length; i++) {
          constants[i] = type.constant(values[i]);
        }
      } else {
        constants = null;
      }
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeI32(values[r.nextInt(values.length)]);
    }

    @Override
    Object build(SplitMixRandom r) {
      int index = r.nextInt(values.length);
      return constants == null ? (Object) values[index] : constants[index];
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeI32(value instanceof TEnum constant ? constant.getValue() : (Integer) value);
    }

    @Override
    byte wireType() {
      return TType.I32;
    }
  }

  private static final class BoolGen extends Gen {
    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeBool(r.nextBoolean());
    }

    @Override
    Object build(SplitMixRandom r) {
      return r.nextBoolean();
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeBool((Boolean) value);
    }

    @Override
    byte wireType() {
      return TType.BOOL;
    }
  }

  private static final class I8Gen extends Gen {
    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeByte((byte) r.nextLong());
    }

    @Override
    Object build(SplitMixRandom r) {
      return (byte) r.nextLong();
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeByte((Byte) value);
    }

    @Override
    byte wireType() {
      return TType.BYTE;
    }
  }

  private static final class I16Gen extends Gen {
    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeI16((short) r.nextInt(10_000));
    }

    @Override
    Object build(SplitMixRandom r) {
      return (short) r.nextInt(10_000);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeI16((Short) value);
    }

    @Override
    byte wireType() {
      return TType.I16;
    }
  }

  private static final class I32Gen extends Gen {
    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeI32(r.nextInt(1_000_000));
    }

    @Override
    Object build(SplitMixRandom r) {
      return r.nextInt(1_000_000);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeI32((Integer) value);
    }

    @Override
    byte wireType() {
      return TType.I32;
    }
  }

  private static final class I64Gen extends Gen {
    private final boolean timestamp;

    I64Gen(boolean timestamp) {
      this.timestamp = timestamp;
    }

    private long next(SplitMixRandom r) {
      return timestamp ? TIMESTAMP_BASE_MS + r.nextLong(YEAR_MS) : r.nextLong(1_000_000_000_000L);
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeI64(next(r));
    }

    @Override
    Object build(SplitMixRandom r) {
      return next(r);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeI64((Long) value);
    }

    @Override
    byte wireType() {
      return TType.I64;
    }
  }

  private static final class DoubleGen extends Gen {
    private static double next(SplitMixRandom r) {
      return r.nextInt(100_000) / 100.0;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      out.writeDouble(next(r));
    }

    @Override
    Object build(SplitMixRandom r) {
      return next(r);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeDouble((Double) value);
    }

    @Override
    byte wireType() {
      return TType.DOUBLE;
    }
  }

  /** A window of the shared text; written from the text itself, without a copy. */
  private final class TextGen extends Gen {
    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      int length = stringLength(r);
      int offset = r.nextInt(text.length - length + 1);
      textView.clear();
      textView.position(offset);
      textView.limit(offset + length);
      // Same bytes on the wire as writeString for ASCII, without encoding a String.
      out.writeBinary(textView);
    }

    @Override
    Object build(SplitMixRandom r) {
      int length = stringLength(r);
      int offset = r.nextInt(text.length - length + 1);
      return new String(text, offset, length, StandardCharsets.ISO_8859_1);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeString((String) value);
    }

    @Override
    byte wireType() {
      return TType.STRING;
    }
  }

  private final class UuidGen extends Gen {
    private void fill(SplitMixRandom r) {
      long high = (r.nextLong() & ~0xF000L) | 0x4000L; // version 4
      long low = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
      int p = 0;
      for (int i = 60; i >= 0; i -= 4) {
        if (p == 8 || p == 13) {
          scratch[p++] = '-';
        }
        scratch[p++] = HEX[(int) (high >>> i) & 0xF];
      }
      for (int i = 60; i >= 0; i -= 4) {
        if (p == 18 || p == 23) {
          scratch[p++] = '-';
        }
        scratch[p++] = HEX[(int) (low >>> i) & 0xF];
      }
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      fill(r);
      writeScratch(out, UUID_LENGTH);
    }

    @Override
    Object build(SplitMixRandom r) {
      fill(r);
      return new String(scratch, 0, UUID_LENGTH, StandardCharsets.ISO_8859_1);
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeString((String) value);
    }

    @Override
    byte wireType() {
      return TType.STRING;
    }
  }

  private final class BinaryGen extends Gen {
    private int fill(SplitMixRandom r) {
      int length = stringLength(r);
      int i = 0;
      for (; i + 8 <= length; i += 8) {
        long bits = r.nextLong();
        for (int b = 0; b < 8; b++) {
          scratch[i + b] = (byte) (bits >>> (8 * b));
        }
      }
      if (i < length) {
        long bits = r.nextLong();
        for (; i < length; i++) {
          scratch[i] = (byte) bits;
          bits >>>= 8;
        }
      }
      return length;
    }

    @Override
    void write(TProtocol out, SplitMixRandom r) throws TException {
      writeScratch(out, fill(r));
    }

    @Override
    Object build(SplitMixRandom r) {
      int length = fill(r);
      return ByteBuffer.wrap(Arrays.copyOf(scratch, length));
    }

    @Override
    void writeValue(TProtocol out, Object value) throws TException {
      out.writeBinary(((ByteBuffer) value).duplicate());
    }

    @Override
    byte wireType() {
      return TType.STRING;
    }
  }
}
