package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.schema.ColumnShape;
import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * Reads one Thrift struct into a record of the output format, from the wire or from a generated
 * object. The tree of codecs mirrors the table schema exactly (see {@link ColumnShape}).
 *
 * @param <S> the format's record description
 */
final class StructCodec<S> implements ValueCodec {
  /**
   * The most list, set or map slots reserved before reading the elements. A container header only
   * declares its size: for struct elements libthrift cannot check it against the bytes left (their
   * minimum size is 0 to it), so a 50-byte message declaring a million structs would otherwise
   * reserve megabytes before failing. Larger containers grow as elements arrive.
   */
  static final int MAX_PREALLOCATED_ELEMENTS = 256;

  private final ThriftStruct struct;
  private final DecodingRules rules;
  private final RowAssembler<?, S> assembler;
  private final S shape;
  private final int columnCount;
  private final int minFieldId;
  private final FieldSlot[] slotsById;
  private final FieldSlot[] slots;
  private final int[] requiredSlots;
  private Object[] defaults;

  private record FieldSlot(
      int index,
      ThriftField field,
      TFieldIdEnum fieldEnum,
      ValueCodec codec,
      byte wireType,
      int scalar,
      int rowCost) {}

  // Scalars are read by a switch rather than through the codec interface: that call site sees
  // every codec class and cannot be inlined, and scalars are most of the values of an event.
  private static final int NOT_SCALAR = 0;
  private static final int SCALAR_BOOL = 1;
  private static final int SCALAR_I8 = 2;
  private static final int SCALAR_I16 = 3;
  private static final int SCALAR_I32 = 4;
  private static final int SCALAR_I64 = 5;
  private static final int SCALAR_DOUBLE = 6;
  private static final int SCALAR_STRING = 7;
  private static final int SCALAR_UTF8 = 8;

  static int initialCapacity(int declaredSize) {
    return Math.min(Math.max(declaredSize, 0), MAX_PREALLOCATED_ELEMENTS);
  }

  private static int scalarKind(ValueCodec codec) {
    if (codec instanceof StringCodec) {
      return SCALAR_STRING;
    } else if (codec instanceof Utf8Codec) {
      return SCALAR_UTF8;
    } else if (codec instanceof LongCodec) {
      return SCALAR_I64;
    } else if (codec instanceof IntCodec) {
      return SCALAR_I32;
    } else if (codec instanceof ShortCodec) {
      return SCALAR_I16;
    } else if (codec instanceof ByteCodec) {
      return SCALAR_I8;
    } else if (codec instanceof DoubleCodec) {
      return SCALAR_DOUBLE;
    } else if (codec instanceof BoolCodec) {
      return SCALAR_BOOL;
    }
    return NOT_SCALAR;
  }

  private static Object readValue(ValueCodec codec, int scalar, TProtocol in, DecodingRules rules)
      throws TException, ThriftDecodeException {
    switch (scalar) {
      case SCALAR_STRING:
        return StringCodec.readString(in, rules);
      case SCALAR_UTF8:
        return Utf8Codec.readUtf8(in, rules);
      case SCALAR_I64:
        return in.readI64();
      case SCALAR_I32:
        return (long) in.readI32();
      case SCALAR_I16:
        return (long) in.readI16();
      case SCALAR_I8:
        return (long) in.readByte();
      case SCALAR_DOUBLE:
        return DecodingRules.canonical(in.readDouble());
      case SCALAR_BOOL:
        return in.readBool();
      default:
        return codec.read(in);
    }
  }

  StructCodec(
      ThriftStruct struct,
      RowAssembler<?, S> assembler,
      S shape,
      int extraColumns,
      DecodingRules rules) {
    this.struct = struct;
    this.rules = rules;
    this.assembler = assembler;
    this.shape = shape;
    List<ThriftField> fields = struct.fields();
    this.columnCount = fields.size() + extraColumns;
    this.slots = new FieldSlot[fields.size()];
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    List<Integer> required = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      ThriftField field = fields.get(i);
      ValueCodec codec = columnCodec(field.type(), assembler, shape, i, rules);
      slots[i] =
          new FieldSlot(
              i,
              field,
              field.fieldEnum(),
              codec,
              codec.wireType(),
              scalarKind(codec),
              DecodingRules.fieldCost(field.name(), field.type()));
      min = Math.min(min, field.id());
      max = Math.max(max, field.id());
      if (field.isRequired() && !struct.isUnion()) {
        required.add(i);
      }
    }
    this.minFieldId = fields.isEmpty() ? 0 : min;
    this.slotsById = new FieldSlot[fields.isEmpty() ? 0 : max - min + 1];
    for (FieldSlot slot : slots) {
      slotsById[slot.field().id() - minFieldId] = slot;
    }
    this.requiredSlots = required.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Values a field has when it is absent from the wire: the IDL defaults (what a generated
   * constructor sets, or what an IDL read at launch declares), and an empty list for containers.
   * Computed lazily because it reads the defaults with this very codec.
   */
  private Object[] defaults() {
    if (defaults == null) {
      Object[] values = new Object[columnCount];
      for (FieldSlot slot : slots) {
        if (ColumnShape.isRepeated(slot.field().type())) {
          values[slot.index()] = assembler.emptyRepeated();
        }
      }
      TBase<?, ?> empty = struct.hasJavaClass() ? struct.newInstance() : null;
      for (FieldSlot slot : slots) {
        if (DecodingRules.takesDefault(struct, empty, slot.field())) {
          values[slot.index()] =
              empty != null
                  ? slot.codec().convert(getFieldValue(empty, slot.fieldEnum()))
                  : readDefault(slot, slot.field().idlDefault());
        }
      }
      defaults = values;
    }
    return defaults;
  }

  /** Reads an IDL default (binary-encoded at launch) with the codec of its field. */
  private Object readDefault(FieldSlot slot, byte[] encoded) {
    try {
      return readValue(
          slot.codec(),
          slot.scalar(),
          new TBinaryProtocol(new TMemoryInputTransport(encoded)),
          rules);
    } catch (TException | ThriftDecodeException e) {
      throw new IllegalStateException(
          "The IDL default of " + slot.field().describe() + " cannot be read: " + e.getMessage(),
          e);
    }
  }

  @Override
  public byte wireType() {
    return TType.STRUCT;
  }

  @Override
  public Object read(TProtocol in) throws TException, ThriftDecodeException {
    return assembler.record(shape, readValues(in));
  }

  /** Reads the struct's columns into a fresh array with room for the extra (metadata) columns. */
  Object[] readValues(TProtocol in) throws TException, ThriftDecodeException {
    Object[] values = defaults().clone();
    long seen = 0L;
    int setCount = 0;
    int skipped = 0;
    in.readStructBegin();
    while (true) {
      TField header = in.readFieldBegin();
      if (header.type == TType.STOP) {
        break;
      }
      int offset = header.id - minFieldId;
      FieldSlot slot = offset >= 0 && offset < slotsById.length ? slotsById[offset] : null;
      if (slot == null || slot.wireType() != header.type) {
        // A field from a newer IDL, or one whose type changed: Thrift's own readers skip it too.
        TProtocolUtil.skip(in, header.type, DecodingRules.MAX_SKIP_DEPTH);
        rules.unknownField(struct.name(), header.id, header.type, slot != null);
        skipped++;
      } else {
        try {
          values[slot.index()] = readValue(slot.codec(), slot.scalar(), in, rules);
          rules.addRowBytes(slot.rowCost());
        } catch (InvalidFieldValueException e) {
          throw e.inField(slot.field().name());
        }
        if (slot.index() < 64) {
          seen |= 1L << slot.index();
        }
        setCount++;
      }
      in.readFieldEnd();
    }
    in.readStructEnd();
    for (int index : requiredSlots) {
      boolean present = index < 64 ? (seen & (1L << index)) != 0 : values[index] != null;
      if (!present) {
        throw DecodingRules.missingRequired(struct.name(), slots[index].field().name());
      }
    }
    if (struct.isUnion() && !DecodingRules.unionHoldsOne(setCount, skipped)) {
      throw DecodingRules.notOneMember(struct.name(), setCount, skipped);
    }
    return values;
  }

  @Override
  public Object convert(Object value) {
    return assembler.record(shape, convertValues((TBase<?, ?>) value));
  }

  /** Converts a generated object's fields into a fresh array (with room for extra columns). */
  Object[] convertValues(TBase<?, ?> event) {
    if (!struct.structClass().isInstance(event)) {
      throw new ConversionException(
          "Expected a "
              + struct.structClass().getName()
              + " but got "
              + event.getClass().getName());
    }
    Object[] values = new Object[columnCount];
    for (FieldSlot slot : slots) {
      if (isSet(event, slot.fieldEnum())) {
        Object fieldValue = getFieldValue(event, slot.fieldEnum());
        values[slot.index()] = fieldValue == null ? null : slot.codec().convert(fieldValue);
      } else if (ColumnShape.isRepeated(slot.field().type())) {
        values[slot.index()] = assembler.emptyRepeated();
      }
    }
    for (int index : requiredSlots) {
      if (values[index] == null) {
        throw new ConversionException(
            "Required field '"
                + slots[index].field().name()
                + "' of "
                + struct.name()
                + " is not set");
      }
    }
    return values;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean isSet(TBase event, TFieldIdEnum field) {
    return event.isSet(field);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object getFieldValue(TBase event, TFieldIdEnum field) {
    return event.getFieldValue(field);
  }

  // ---------------------------------------------------------------------------------------------
  // Codec construction: one codec per column, shaped exactly as EventSchemas shapes the column.

  /** The codec of column {@code index} of the record {@code parentShape}. */
  static <S> ValueCodec columnCodec(
      ThriftType type,
      RowAssembler<?, S> assembler,
      S parentShape,
      int index,
      DecodingRules rules) {
    if (type instanceof ThriftType.MapOf map) {
      return new MapCodec<>(map, assembler, assembler.childShape(parentShape, index), rules);
    }
    if (ThriftType.isRepeated(type)) {
      ThriftType element = ThriftType.elementOf(type);
      boolean set = type instanceof ThriftType.SetOf;
      if (ColumnShape.needsWrapper(element)) {
        S wrapperShape = assembler.childShape(parentShape, index);
        // Each element is a record: {"value":element},
        return new ListCodec<>(
            set,
            columnCodec(element, assembler, wrapperShape, 0, rules),
            assembler,
            wrapperShape,
            rules,
            DecodingRules.listElementCost(element));
      }
      return new ListCodec<>(
          set,
          columnCodec(element, assembler, parentShape, index, rules),
          assembler,
          null,
          rules,
          DecodingRules.listElementCost(element));
    }
    if (ColumnShape.isFieldlessStruct(type)) {
      return new PresenceCodec<>(((ThriftType.StructRef) type).struct(), assembler, rules);
    }
    if (type instanceof ThriftType.StructRef ref) {
      return new StructCodec<>(
          ref.struct(), assembler, assembler.childShape(parentShape, index), 0, rules);
    }
    if (type instanceof ThriftType.EnumRef ref) {
      return new EnumCodec(ref.enumType(), rules);
    }
    ThriftType.Primitive primitive = (ThriftType.Primitive) type;
    return switch (primitive.kind()) {
      case BOOL -> new BoolCodec();
      case I8 -> new ByteCodec();
      case I16 -> new ShortCodec();
      case I32 -> new IntCodec();
      case I64 -> new LongCodec();
      case DOUBLE -> new DoubleCodec();
      case STRING -> assembler.stringsAsUtf8() ? new Utf8Codec(rules) : new StringCodec(rules);
      case BINARY -> new BinaryCodec(assembler, rules);
    };
  }

  /**
   * A struct with no fields, as its BOOLEAN column ({@link ColumnShape#isFieldlessStruct}): read as
   * any struct (its unknown fields skipped and counted, a union's one member checked), then true.
   */
  private static final class PresenceCodec<S> implements ValueCodec {
    private final StructCodec<S> struct;

    PresenceCodec(ThriftStruct struct, RowAssembler<?, S> assembler, DecodingRules rules) {
      this.struct = new StructCodec<>(struct, assembler, null, 0, rules);
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      struct.readValues(in);
      return Boolean.TRUE;
    }

    @Override
    public Object convert(Object value) {
      struct.convertValues((TBase<?, ?>) value);
      return Boolean.TRUE;
    }

    @Override
    public byte wireType() {
      return TType.STRUCT;
    }
  }

  private static final class BoolCodec implements ValueCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return in.readBool();
    }

    @Override
    public Object convert(Object value) {
      return value;
    }

    @Override
    public byte wireType() {
      return TType.BOOL;
    }
  }

  private abstract static class IntegerCodec implements ValueCodec {
    @Override
    public Object convert(Object value) {
      return ((Number) value).longValue();
    }
  }

  private static final class ByteCodec extends IntegerCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return (long) in.readByte();
    }

    @Override
    public byte wireType() {
      return TType.BYTE;
    }
  }

  private static final class ShortCodec extends IntegerCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return (long) in.readI16();
    }

    @Override
    public byte wireType() {
      return TType.I16;
    }
  }

  private static final class IntCodec extends IntegerCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return (long) in.readI32();
    }

    @Override
    public byte wireType() {
      return TType.I32;
    }
  }

  private static final class LongCodec extends IntegerCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return in.readI64();
    }

    @Override
    public byte wireType() {
      return TType.I64;
    }
  }

  private static final class DoubleCodec implements ValueCodec {
    @Override
    public Object read(TProtocol in) throws TException {
      return DecodingRules.canonical(in.readDouble());
    }

    @Override
    public Object convert(Object value) {
      return DecodingRules.canonical((Double) value);
    }

    @Override
    public byte wireType() {
      return TType.DOUBLE;
    }
  }

  private static final class StringCodec implements ValueCodec {
    private final DecodingRules rules;

    StringCodec(DecodingRules rules) {
      this.rules = rules;
    }

    /**
     * A string through the decoding rules. Read as binary rather than with readString: the
     * protocols apply the string length limit to both alike only this way, and readString would
     * repair malformed UTF-8 silently.
     */
    static String readString(TProtocol in, DecodingRules rules)
        throws TException, InvalidFieldValueException {
      java.nio.ByteBuffer buffer = in.readBinary();
      if (buffer.hasArray()) {
        return rules.string(
            buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      }
      byte[] bytes = copy(buffer);
      return rules.string(bytes, 0, bytes.length);
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      return readString(in, rules);
    }

    @Override
    public Object convert(Object value) {
      return value;
    }

    @Override
    public byte wireType() {
      return TType.STRING;
    }
  }

  /**
   * Strings kept as their UTF-8 bytes, for a format that writes UTF-8 anyway: no decoding into a
   * String and encoding back. Malformed UTF-8 goes through the {@link DecodingRules}, as in every
   * other format: a dead letter, or (REPLACE) each bad sequence becomes U+FFFD.
   */
  private static final class Utf8Codec implements ValueCodec {
    private final DecodingRules rules;

    Utf8Codec(DecodingRules rules) {
      this.rules = rules;
    }

    static byte[] readUtf8(TProtocol in, DecodingRules rules)
        throws TException, InvalidFieldValueException {
      java.nio.ByteBuffer buffer = in.readBinary();
      rules.checkLength(buffer.remaining());
      byte[] bytes = copy(buffer);
      return rules.acceptUtf8(bytes, 0, bytes.length)
          ? bytes
          : new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      return readUtf8(in, rules);
    }

    @Override
    public Object convert(Object value) {
      // Generated objects hold Strings; the format accepts either form.
      return value;
    }

    @Override
    public byte wireType() {
      return TType.STRING;
    }
  }

  /** The bytes of a buffer, without copying when the buffer is exactly a whole array. */
  private static byte[] copy(java.nio.ByteBuffer buffer) {
    int length = buffer.remaining();
    if (buffer.hasArray()) {
      byte[] array = buffer.array();
      int offset = buffer.arrayOffset() + buffer.position();
      if (offset == 0 && length == array.length) {
        return array;
      }
      // The protocols hand out slices of the payload: copy the slice without a duplicate().
      byte[] bytes = new byte[length];
      System.arraycopy(array, offset, bytes, 0, length);
      return bytes;
    }
    byte[] bytes = new byte[length];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static final class BinaryCodec implements ValueCodec {
    private final RowAssembler<?, ?> assembler;
    private final DecodingRules rules;

    BinaryCodec(RowAssembler<?, ?> assembler, DecodingRules rules) {
      this.assembler = assembler;
      this.rules = rules;
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      java.nio.ByteBuffer buffer = in.readBinary();
      rules.checkBinary(buffer.remaining());
      return assembler.bytes(copy(buffer));
    }

    @Override
    public Object convert(Object value) {
      if (value instanceof byte[] bytes) {
        return assembler.bytes(bytes.clone());
      }
      java.nio.ByteBuffer buffer = ((java.nio.ByteBuffer) value).duplicate();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return assembler.bytes(bytes);
    }

    @Override
    public byte wireType() {
      return TType.STRING;
    }
  }

  private static final class EnumCodec implements ValueCodec {
    private final ThriftEnum enumType;
    private final DecodingRules rules;

    EnumCodec(ThriftEnum enumType, DecodingRules rules) {
      this.enumType = enumType;
      this.rules = rules;
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      return rules.enumName(enumType, in.readI32());
    }

    @Override
    public Object convert(Object value) {
      return ((Enum<?>) value).name();
    }

    @Override
    public byte wireType() {
      return TType.I32;
    }
  }

  /** list and set; elements that are themselves containers are wrapped in a one-column record. */
  private static final class ListCodec<S> implements ValueCodec {
    private final boolean set;
    private final ValueCodec element;
    private final int elementScalar;
    private final RowAssembler<?, S> assembler;
    private final S wrapperShape;
    private final DecodingRules rules;
    private final int elementCost;

    ListCodec(
        boolean set,
        ValueCodec element,
        RowAssembler<?, S> assembler,
        S wrapperShape,
        DecodingRules rules,
        int elementCost) {
      this.set = set;
      this.elementCost = elementCost;
      this.rules = rules;
      this.element = element;
      this.elementScalar = scalarKind(element);
      this.assembler = assembler;
      this.wrapperShape = wrapperShape;
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      int size;
      byte elementType;
      if (set) {
        TSet header = in.readSetBegin();
        size = header.size;
        elementType = header.elemType;
      } else {
        TList header = in.readListBegin();
        size = header.size;
        elementType = header.elemType;
      }
      rules.checkElements(size);
      rules.addRowBytes((long) size * elementCost);
      if (!DecodingRules.elementsMatch(size, elementType, element.wireType())) {
        throw DecodingRules.elementsMismatch(elementType, element.wireType());
      }
      List<Object> values = new ArrayList<>(initialCapacity(size));
      for (int i = 0; i < size; i++) {
        values.add(wrap(readValue(element, elementScalar, in, rules)));
      }
      if (set) {
        in.readSetEnd();
      } else {
        in.readListEnd();
      }
      return values;
    }

    @Override
    public Object convert(Object value) {
      Collection<?> collection = (Collection<?>) value;
      List<Object> values = new ArrayList<>(collection.size());
      for (Object item : collection) {
        if (item == null) {
          throw new ConversionException("A list or set holds null, which Thrift cannot encode");
        }
        values.add(wrap(element.convert(item)));
      }
      return values;
    }

    private Object wrap(Object value) {
      return wrapperShape == null ? value : assembler.record(wrapperShape, new Object[] {value});
    }

    @Override
    public byte wireType() {
      return set ? TType.SET : TType.LIST;
    }
  }

  /** map, as a repeated record of key and value in wire (or iteration) order. */
  private static final class MapCodec<S> implements ValueCodec {
    private final ValueCodec key;
    private final ValueCodec value;
    private final int keyScalar;
    private final int valueScalar;
    private final RowAssembler<?, S> assembler;
    private final S entryShape;
    private final DecodingRules rules;
    private final int entryCost;

    MapCodec(
        ThriftType.MapOf type, RowAssembler<?, S> assembler, S entryShape, DecodingRules rules) {
      this.entryCost = DecodingRules.mapEntryCost(type.key(), type.value());
      this.assembler = assembler;
      this.entryShape = entryShape;
      this.rules = rules;
      this.key = columnCodec(type.key(), assembler, entryShape, 0, rules);
      this.value = columnCodec(type.value(), assembler, entryShape, 1, rules);
      this.keyScalar = scalarKind(key);
      this.valueScalar = scalarKind(value);
    }

    @Override
    public Object read(TProtocol in) throws TException, ThriftDecodeException {
      TMap header = in.readMapBegin();
      rules.checkElements(header.size);
      rules.addRowBytes((long) header.size * entryCost);
      if (!DecodingRules.elementsMatch(header.size, header.keyType, key.wireType())
          || !DecodingRules.elementsMatch(header.size, header.valueType, value.wireType())) {
        throw DecodingRules.entriesMismatch(
            header.keyType, header.valueType, key.wireType(), value.wireType());
      }
      List<Object> entries = new ArrayList<>(initialCapacity(header.size));
      for (int i = 0; i < header.size; i++) {
        Object k = readValue(key, keyScalar, in, rules);
        Object v = readValue(value, valueScalar, in, rules);
        entries.add(assembler.record(entryShape, new Object[] {k, v}));
      }
      in.readMapEnd();
      return entries;
    }

    @Override
    public Object convert(Object map) {
      Map<?, ?> entries = (Map<?, ?>) map;
      List<Object> values = new ArrayList<>(entries.size());
      for (Map.Entry<?, ?> entry : entries.entrySet()) {
        if (entry.getKey() == null || entry.getValue() == null) {
          throw new ConversionException(
              "A map holds a null key or value, which Thrift cannot encode");
        }
        values.add(
            assembler.record(
                entryShape,
                new Object[] {key.convert(entry.getKey()), value.convert(entry.getValue())}));
      }
      return values;
    }

    @Override
    public byte wireType() {
      return TType.MAP;
    }
  }
}
