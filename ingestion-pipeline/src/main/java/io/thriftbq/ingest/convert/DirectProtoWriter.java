package io.thriftbq.ingest.convert;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.schema.ColumnShape;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.thrift.protocol.TType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The PROTO_MESSAGE fast path: reads the Thrift bytes and writes the row's protocol buffer bytes in
 * one pass, with its own readers of the binary and compact protocols over the payload array, so
 * nothing is allocated per event but the row itself: no protocol objects, no boxed values, no
 * intermediate records.
 *
 * <p>It handles the events that need no judgement: every field known to the IDL, in column order,
 * each once, valid UTF-8, declared enum values, no defaults to fill in, required fields present,
 * unions with one member, containers whose elements need no wrapper record. Anything else (and any
 * malformed input) makes it give up, and the converter decodes the event with the general codec
 * tree ({@link StructCodec}), which gives the canonical row or dead letter and counts what the
 * rules count. So its output is either exactly the general path's bytes or nothing; {@code
 * EventConvertersTest}, {@code IdlParityTest} and the differential fuzz tests compare both.
 *
 * <p>The row-size estimate is accumulated in the {@link DecodingRules} exactly as the codec tree
 * does it. Not thread-safe: one per converter.
 */
final class DirectProtoWriter implements OnePassWriter<EncodedRow> {

  /** Thrown (preallocated, no stack trace) to hand the event to the general path. */
  private static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();

  // Value kinds.
  private static final int BOOL = 1;
  private static final int I8 = 2;
  private static final int I16 = 3;
  private static final int I32 = 4;
  private static final int I64 = 5;
  private static final int DOUBLE = 6;
  private static final int STRING = 7;
  private static final int BINARY = 8;
  private static final int ENUM = 9;
  private static final int STRUCT = 10;
  private static final int LIST = 11;
  private static final int MAP = 12;

  /** A container of containers (its elements need a wrapper record): not handled here. */
  private static final int UNSUPPORTED = 13;

  /** How to read one value and write it as a proto field. */
  private static final class ValuePlan {
    final int kind;
    final byte wireType;
    @Nullable StructPlan struct;
    @Nullable ValuePlan element; // list and set
    @Nullable ValuePlan key; // map
    @Nullable ValuePlan value; // map
    int elementCost; // the row-size estimate per element or entry, as the codec tree adds it
    byte @Nullable [][] enumNames; // by value - enumMin
    int @Nullable [] enumNameLengths;
    int enumMin;

    ValuePlan(int kind, byte wireType) {
      this.kind = kind;
      this.wireType = wireType;
    }
  }

  private static final class FieldPlan {
    final int column;
    final int number;
    final ValuePlan value;
    final int rowCost;

    FieldPlan(int column, int number, ValuePlan value, int rowCost) {
      this.column = column;
      this.number = number;
      this.value = value;
      this.rowCost = rowCost;
    }
  }

  private static final class StructPlan {
    final boolean union;
    final int minId;
    final FieldPlan[] byId;
    final long requiredMask;

    /** Columns with a non-repeated default: absent, they need the general path to fill them. */
    final long defaultMask;

    StructPlan(boolean union, int minId, FieldPlan[] byId, long requiredMask, long defaultMask) {
      this.union = union;
      this.minId = minId;
      this.byId = byId;
      this.requiredMask = requiredMask;
      this.defaultMask = defaultMask;
    }
  }

  private final @Nullable StructPlan root;
  private final boolean compact;
  private final DecodingRules rules;
  // The metadata columns other than _unknown_fields (NULL on this path, which gives up on unknown
  // fields), and their field numbers.
  private final MetadataColumn[] metadataColumns;
  private final int[] metadataNumbers;

  private byte[] in;
  private int pos;
  private int limit;
  private byte[] out = new byte[4096];
  private int outPos;
  private boolean pendingBool; // compact protocol: a bool field's value is in its header
  private final @Nullable RowSuffix suffix;

  DirectProtoWriter(
      ThriftStruct struct,
      ProtoMessageAssembler.Shape shape,
      DecodingRules rules,
      ThriftProtocol protocol,
      MetadataColumns metadata,
      @Nullable RowSuffix suffix) {
    this.rules = rules;
    this.suffix = suffix;
    this.compact = protocol == ThriftProtocol.COMPACT;
    this.root = plan(struct, shape);
    int column = struct.fields().size();
    List<MetadataColumn> columns = metadata.inOrder();
    int written = 0;
    for (MetadataColumn c : columns) {
      written += c == MetadataColumn.UNKNOWN_FIELDS ? 0 : 1;
    }
    this.metadataColumns = new MetadataColumn[written];
    this.metadataNumbers = new int[written];
    int next = 0;
    for (MetadataColumn c : columns) {
      if (c != MetadataColumn.UNKNOWN_FIELDS) {
        metadataColumns[next] = c;
        metadataNumbers[next++] = shape.number(column);
      }
      column++;
    }
  }

  /** Whether any event can take the fast path (false for structs too wide for its bookkeeping). */
  boolean enabled() {
    return root != null;
  }

  // ---------------------------------------------------------------------------------------------
  // Plans

  private static @Nullable StructPlan plan(ThriftStruct struct, ProtoMessageAssembler.Shape shape) {
    java.util.List<ThriftField> fields = struct.fields();
    if (fields.isEmpty() || fields.size() > 64 || shape == null) {
      return null;
    }
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (ThriftField field : fields) {
      min = Math.min(min, field.id());
      max = Math.max(max, field.id());
    }
    FieldPlan[] byId = new FieldPlan[max - min + 1];
    long required = 0;
    long defaults = 0;
    org.apache.thrift.TBase<?, ?> empty = struct.hasJavaClass() ? struct.newInstance() : null;
    for (int i = 0; i < fields.size(); i++) {
      ThriftField field = fields.get(i);
      ValuePlan value = valuePlan(field.type(), shape.child(i));
      if (value == null) {
        return null;
      }
      byId[field.id() - min] =
          new FieldPlan(
              i, shape.number(i), value, DecodingRules.fieldCost(field.name(), field.type()));
      if (field.isRequired() && !struct.isUnion()) {
        required |= 1L << i;
      }
      if (DecodingRules.takesDefault(struct, empty, field)) {
        defaults |= 1L << i;
      }
    }
    return new StructPlan(struct.isUnion(), min, byId, required, defaults);
  }

  private static @Nullable ValuePlan valuePlan(
      ThriftType type, ProtoMessageAssembler.@Nullable Shape child) {
    if (type instanceof ThriftType.Primitive primitive) {
      return switch (primitive.kind()) {
        case BOOL -> new ValuePlan(BOOL, TType.BOOL);
        case I8 -> new ValuePlan(I8, TType.BYTE);
        case I16 -> new ValuePlan(I16, TType.I16);
        case I32 -> new ValuePlan(I32, TType.I32);
        case I64 -> new ValuePlan(I64, TType.I64);
        case DOUBLE -> new ValuePlan(DOUBLE, TType.DOUBLE);
        case STRING -> new ValuePlan(STRING, TType.STRING);
        case BINARY -> new ValuePlan(BINARY, TType.STRING);
      };
    }
    if (type instanceof ThriftType.EnumRef ref) {
      EnumNameTable table = EnumNameTable.of(ref.enumType());
      if (table == null) {
        return new ValuePlan(UNSUPPORTED, TType.I32); // sparse: left to the general path
      }
      ValuePlan plan = new ValuePlan(ENUM, TType.I32);
      plan.enumMin = table.min;
      plan.enumNames = new byte[table.names.length][];
      for (int i = 0; i < table.names.length; i++) {
        String name = table.names[i];
        plan.enumNames[i] = name == null ? null : name.getBytes(StandardCharsets.UTF_8);
      }
      plan.enumNameLengths = table.costs;
      return plan;
    }
    if (ColumnShape.isFieldlessStruct(type)) {
      return new ValuePlan(UNSUPPORTED, TType.STRUCT); // a BOOLEAN column: the general path
    }
    if (type instanceof ThriftType.StructRef ref) {
      ValuePlan plan = new ValuePlan(STRUCT, TType.STRUCT);
      plan.struct = plan(ref.struct(), child);
      return plan.struct == null ? new ValuePlan(UNSUPPORTED, TType.STRUCT) : plan;
    }
    if (type instanceof ThriftType.MapOf map) {
      ValuePlan plan = new ValuePlan(MAP, TType.MAP);
      if (child == null) {
        return null;
      }
      plan.key = valuePlan(map.key(), child.child(0));
      plan.value = valuePlan(map.value(), child.child(1));
      if (plan.key == null || plan.value == null || child.number(0) != 1 || child.number(1) != 2) {
        return new ValuePlan(UNSUPPORTED, TType.MAP);
      }
      plan.elementCost = DecodingRules.mapEntryCost(map.key(), map.value());
      return plan;
    }
    ThriftType elementType = ThriftType.elementOf(type);
    byte wire = type instanceof ThriftType.SetOf ? TType.SET : TType.LIST;
    if (ColumnShape.needsWrapper(elementType)) {
      return new ValuePlan(UNSUPPORTED, wire);
    }
    ValuePlan plan = new ValuePlan(LIST, wire);
    plan.element = valuePlan(elementType, child);
    if (plan.element == null) {
      return new ValuePlan(UNSUPPORTED, wire);
    }
    plan.elementCost = DecodingRules.listElementCost(elementType);
    return plan;
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /**
   * The row of {@code payload}, or null when the general path must decode it. Adds to the rules'
   * row-size estimate as the codec tree would; the caller checks the total.
   */
  @Override
  public @Nullable EncodedRow write(byte[] buffer, int offset, int length, EventMetadata metadata) {
    if (root == null || buffer == null || length == 0) {
      return null;
    }
    in = buffer;
    pos = offset;
    limit = offset + length;
    outPos = 0;
    pendingBool = false;
    try {
      writeStructContent(root);
      if (pos != limit) {
        return null; // trailing bytes: the general path names them
      }
      writeMetadata(metadata);
    } catch (InvalidFieldValueException | RuntimeException e) {
      return null; // GiveUp, a limit, or anything unexpected: the general path decides
    }
    if (suffix == null) {
      return new EncodedRow(Arrays.copyOf(out, outPos));
    }
    // Outside the try: a row that can have no suffix is refused as it is, not decoded again.
    int extra = suffix.prepare(out, outPos, metadata);
    ensureOut(extra);
    outPos = suffix.write(out, outPos);
    return new EncodedRow(Arrays.copyOf(out, outPos), true);
  }

  private void writeStructContent(StructPlan plan) throws InvalidFieldValueException {
    long seen = 0;
    int lastColumn = -1;
    int count = 0;
    int lastFieldId = 0; // compact protocol: ids are deltas within a struct
    while (true) {
      int type;
      int id;
      if (compact) {
        int header = readByte() & 0xff;
        int compactType = header & 0x0f;
        if (compactType == 0) {
          break;
        }
        int delta = header >>> 4;
        id = delta != 0 ? lastFieldId + delta : (short) zigzagToInt(readVarint32());
        lastFieldId = (short) id;
        id = (short) id;
        type = ttypeOfCompact(compactType);
        if (type == TType.BOOL) {
          pendingBool = compactType == 1;
        }
      } else {
        type = readByte();
        if (type == TType.STOP) {
          break;
        }
        id = (short) readI16Big();
      }
      int offset = id - plan.minId;
      FieldPlan field = offset >= 0 && offset < plan.byId.length ? plan.byId[offset] : null;
      if (field == null || field.value.wireType != type || field.column <= lastColumn) {
        throw GIVE_UP; // unknown, retyped, repeated or out-of-order field
      }
      lastColumn = field.column;
      seen |= 1L << field.column;
      count++;
      writeValueAsField(field.number, field.value, true);
      rules.addRowBytes(field.rowCost);
    }
    if (!DecodingRules.requiredPresent(seen, plan.requiredMask)
        || (~seen & plan.defaultMask) != 0
        || (plan.union && !DecodingRules.unionHoldsOne(count, 0))) {
      throw GIVE_UP; // the rules refuse it, or defaults to fill in: the codec tree decides
    }
  }

  /**
   * Reads one value of {@code plan} and writes it as field {@code number}; a list, set or map
   * writes one field per element or entry. {@code field}: the value is a struct field (in the
   * compact protocol a bool field's value is in its header).
   */
  private void writeValueAsField(int number, ValuePlan plan, boolean field)
      throws InvalidFieldValueException {
    switch (plan.kind) {
      case BOOL -> {
        boolean value = field && compact ? pendingBool : readBoolValue();
        writeTag(number, 0);
        writeByteOut(value ? 1 : 0);
      }
      case I8 -> {
        writeTag(number, 0);
        writeVarint64(readByte());
      }
      case I16 -> {
        writeTag(number, 0);
        writeVarint64(compact ? (short) zigzagToInt(readVarint32()) : (short) readI16Big());
      }
      case I32 -> {
        writeTag(number, 0);
        writeVarint64(readI32());
      }
      case I64 -> {
        writeTag(number, 0);
        writeVarint64(readI64());
      }
      case DOUBLE -> {
        double value = Double.longBitsToDouble(compact ? readLongLittle() : readLongBig());
        writeTag(number, 1);
        writeFixed64(Double.doubleToRawLongBits(DecodingRules.canonical(value)));
      }
      case STRING -> {
        int length = readLength();
        rules.checkLength(length);
        int start = pos;
        if (!DecodingRules.isWellFormed(in, start, length)) {
          throw GIVE_UP; // the rules decide: a dead letter, or replaced and counted
        }
        writeTag(number, 2);
        writeVarint32(length);
        writeBytes(in, start, length);
        pos += length;
      }
      case BINARY -> {
        int length = readLength();
        rules.checkBinary(length);
        writeTag(number, 2);
        writeVarint32(length);
        writeBytes(in, pos, length);
        pos += length;
      }
      case ENUM -> {
        int value = readI32();
        long offset = (long) value - plan.enumMin;
        byte[] name =
            offset >= 0 && offset < plan.enumNames.length ? plan.enumNames[(int) offset] : null;
        if (name == null) {
          throw GIVE_UP; // an unknown value: the rules decide and count it
        }
        rules.addRowBytes(plan.enumNameLengths[(int) offset]);
        writeTag(number, 2);
        writeVarint32(name.length);
        writeBytes(name, 0, name.length);
      }
      case STRUCT -> {
        writeTag(number, 2);
        int start = beginNested();
        writeStructContent(plan.struct);
        endNested(start);
      }
      case LIST -> {
        int size;
        int elementType;
        if (compact) {
          int header = readByte() & 0xff;
          size = (header >>> 4) & 0x0f;
          if (size == 15) {
            size = readVarint32();
          }
          elementType = ttypeOfCompact(header & 0x0f);
        } else {
          elementType = readByte();
          size = readI32Big();
        }
        checkSize(size);
        rules.checkElements(size);
        rules.addRowBytes((long) size * plan.elementCost);
        // libthrift checks a binary header's type code even for an empty container: on that
        // protocol any other type is left to it.
        if (!DecodingRules.elementsMatch(size, elementType, plan.element.wireType)
            || (!compact && elementType != plan.element.wireType)) {
          throw GIVE_UP;
        }
        for (int i = 0; i < size; i++) {
          writeValueAsField(number, plan.element, false);
        }
      }
      case MAP -> {
        int size;
        int keyType;
        int valueType;
        if (compact) {
          size = readVarint32();
          int types = size == 0 ? 0 : readByte() & 0xff;
          keyType = size == 0 ? TType.STOP : ttypeOfCompact(types >>> 4);
          valueType = size == 0 ? TType.STOP : ttypeOfCompact(types & 0x0f);
        } else {
          keyType = readByte();
          valueType = readByte();
          size = readI32Big();
        }
        checkSize(size);
        rules.checkElements(size);
        rules.addRowBytes((long) size * plan.elementCost);
        if (!DecodingRules.elementsMatch(size, keyType, plan.key.wireType)
            || !DecodingRules.elementsMatch(size, valueType, plan.value.wireType)
            || (!compact && (keyType != plan.key.wireType || valueType != plan.value.wireType))) {
          throw GIVE_UP; // as for a list: the binary protocol leaves any other type to libthrift
        }
        for (int i = 0; i < size; i++) {
          writeTag(number, 2);
          int start = beginNested();
          writeValueAsField(1, plan.key, false);
          writeValueAsField(2, plan.value, false);
          endNested(start);
        }
      }
      default -> throw GIVE_UP;
    }
  }

  private void writeMetadata(EventMetadata metadata) {
    KafkaOrigin kafka = metadata.kafka();
    for (int i = 0; i < metadataColumns.length; i++) {
      int number = metadataNumbers[i];
      switch (metadataColumns[i]) {
        case MESSAGE_ID -> {
          if (metadata.messageId() != null) {
            writeStringField(number, metadata.messageId());
          }
        }
        case PUBLISH_TIME, KAFKA_TIMESTAMP -> {
          if (metadata.hasPublishTime()) {
            writeTag(number, 0);
            writeVarint64(metadata.publishTimeMillis() * 1000L);
          }
        }
        case ATTRIBUTES, KAFKA_HEADERS -> writeEntries(number, metadata.attributes());
        case KAFKA_TOPIC -> {
          if (kafka != null) {
            writeStringField(number, kafka.topic());
          }
        }
        case KAFKA_PARTITION -> {
          if (kafka != null) {
            writeTag(number, 0);
            writeVarint64(kafka.partition());
          }
        }
        case KAFKA_OFFSET -> {
          if (kafka != null) {
            writeTag(number, 0);
            writeVarint64(kafka.offset());
          }
        }
        case KAFKA_KEY -> {
          if (kafka != null && kafka.key() != null) {
            writeTag(number, 2);
            writeVarint32(kafka.key().length);
            writeBytes(kafka.key(), 0, kafka.key().length);
          }
        }
        case UNKNOWN_FIELDS -> throw new IllegalStateException("not a column of this path");
      }
    }
  }

  private void writeEntries(int number, Map<String, String> entries) {
    if (entries.isEmpty()) {
      return;
    }
    // Sorted, as the general path writes them.
    String[] keys = entries.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    for (String key : keys) {
      writeTag(number, 2);
      int start = beginNested();
      writeStringField(1, key);
      String value = entries.get(key);
      if (value != null) {
        writeStringField(2, value);
      }
      endNested(start);
    }
  }

  private void writeStringField(int number, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    writeTag(number, 2);
    writeVarint32(bytes.length);
    writeBytes(bytes, 0, bytes.length);
  }

  // ---------------------------------------------------------------------------------------------
  // Thrift input, read from the payload's bytes (the layouts in BinaryWire); an overrun gives up

  private int readByte() {
    if (pos >= limit) {
      throw GIVE_UP;
    }
    return in[pos++];
  }

  private boolean readBoolValue() {
    // Outside a field header both protocols read one byte: 1 is true, anything else false.
    return readByte() == 1;
  }

  private short readI16Big() {
    ensure(2);
    short value = (short) BinaryWire.I16.get(in, pos);
    pos += 2;
    return value;
  }

  private int readI32Big() {
    ensure(4);
    int value = (int) BinaryWire.I32.get(in, pos);
    pos += 4;
    return value;
  }

  private long readLongBig() {
    ensure(8);
    long value = (long) BinaryWire.I64.get(in, pos);
    pos += 8;
    return value;
  }

  private long readLongLittle() {
    ensure(8);
    long value = (long) BinaryWire.LITTLE_I64.get(in, pos);
    pos += 8;
    return value;
  }

  private int readI32() {
    return compact ? zigzagToInt(readVarint32()) : readI32Big();
  }

  private long readI64() {
    if (compact) {
      long raw = readVarint64();
      return (raw >>> 1) ^ -(raw & 1);
    }
    return readLongBig();
  }

  /** A string or binary length: negative or beyond the payload gives up. */
  private int readLength() {
    int length = compact ? readVarint32() : readI32Big();
    if (length < 0 || length > limit - pos) {
      throw GIVE_UP;
    }
    return length;
  }

  private void checkSize(int size) {
    // Every element takes at least one byte on the wire in both protocols (an empty struct is its
    // STOP byte), so a declared size beyond the bytes left cannot be read.
    if (size < 0 || size > limit - pos) {
      throw GIVE_UP;
    }
  }

  private void ensure(int bytes) {
    if (limit - pos < bytes) {
      throw GIVE_UP;
    }
  }

  /** A varint of at most 32 bits; a longer or wider one is left to the general path. */
  private int readVarint32() {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = readByte();
      if (shift == 28 && (b & 0xf0) != 0) {
        throw GIVE_UP;
      }
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw GIVE_UP;
  }

  private long readVarint64() {
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = readByte();
      if (shift == 63 && (b & 0xfe) != 0) {
        throw GIVE_UP;
      }
      result |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw GIVE_UP;
  }

  private static int zigzagToInt(int n) {
    return (n >>> 1) ^ -(n & 1);
  }

  /** The TType of a compact-protocol type code, as libthrift maps it. */
  private static int ttypeOfCompact(int code) {
    return switch (code) {
      case 1, 2 -> TType.BOOL;
      case 3 -> TType.BYTE;
      case 4 -> TType.I16;
      case 5 -> TType.I32;
      case 6 -> TType.I64;
      case 7 -> TType.DOUBLE;
      case 8 -> TType.STRING;
      case 9 -> TType.LIST;
      case 10 -> TType.SET;
      case 11 -> TType.MAP;
      case 12 -> TType.STRUCT;
      default -> throw GIVE_UP;
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Proto output

  private void ensureOut(int bytes) {
    if (out.length - outPos < bytes) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, outPos + bytes));
    }
  }

  private void writeByteOut(int b) {
    ensureOut(1);
    out[outPos++] = (byte) b;
  }

  private void writeTag(int number, int wireType) {
    writeVarint32((number << 3) | wireType);
  }

  private void writeVarint32(int value) {
    ensureOut(5);
    while ((value & ~0x7f) != 0) {
      out[outPos++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out[outPos++] = (byte) value;
  }

  private void writeVarint64(long value) {
    ensureOut(10);
    while ((value & ~0x7fL) != 0) {
      out[outPos++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out[outPos++] = (byte) value;
  }

  private void writeFixed64(long value) {
    ensureOut(8);
    for (int i = 0; i < 8; i++) {
      out[outPos++] = (byte) (value >>> (8 * i));
    }
  }

  private void writeBytes(byte[] bytes, int offset, int length) {
    ensureOut(length);
    System.arraycopy(bytes, offset, out, outPos, length);
    outPos += length;
  }

  /** Reserves one byte for a nested message's length; {@link #endNested} fixes it up. */
  private int beginNested() {
    ensureOut(1);
    return outPos++;
  }

  private void endNested(int lengthAt) {
    int length = outPos - lengthAt - 1;
    if (length < 0x80) {
      out[lengthAt] = (byte) length;
      return;
    }
    int size = varint32Size(length);
    ensureOut(size - 1);
    System.arraycopy(out, lengthAt + 1, out, lengthAt + size, length);
    int at = lengthAt;
    int value = length;
    while ((value & ~0x7f) != 0) {
      out[at++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out[at] = (byte) value;
    outPos += size - 1;
  }

  private static int varint32Size(int value) {
    if ((value & (~0 << 7)) == 0) {
      return 1;
    }
    if ((value & (~0 << 14)) == 0) {
      return 2;
    }
    if ((value & (~0 << 21)) == 0) {
      return 3;
    }
    if ((value & (~0 << 28)) == 0) {
      return 4;
    }
    return 5;
  }
}
