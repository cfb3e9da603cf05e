package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.schema.ColumnShape;
import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Utf8;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * The decoding contract in the same pass as the generated reader: a reading protocol that walks the
 * schema in step with a generated class's {@code read} (the begin and end calls say where it is)
 * and looks at every value libthrift would take without judgement. It refuses nothing itself: it
 * only tells whether the payload is one the codec tree ({@link StructCodec} under {@link
 * DecodingRules}) would accept as it is, with the same skipped unknown fields and the same row-size
 * estimate. Anything else, and any exception, makes the caller decode the payload again the
 * two-pass way (codec tree, then the generated reader), which gives the dead letter and its reason;
 * so what the object path accepts and refuses, and why, cannot differ from that path.
 *
 * <p>It gives up ({@link #GIVE_UP}) on: a string or binary over {@code --maxThriftStringBytes}, a
 * string that is not well-formed UTF-8 (under either {@code --invalidUtf8}), an enum number the IDL
 * does not name, a container over {@code --maxThriftContainerElements} or declaring more elements
 * than bytes are left, container elements, keys or values of a wire type other than the IDL's, a
 * required field absent from the wire, a union without exactly one known member, unknown fields
 * nested deeper than {@value #MAX_SKIP_DEPTH} levels (the codec tree's limit is 64), more than
 * {@value #MAX_UNKNOWN_FIELDS} unknown fields, and a call the schema does not expect (a generated
 * class out of step with the schema). The caller checks the trailing bytes and the row size.
 *
 * <p>Skipped unknown fields are held until the caller commits them ({@link #commitUnknownFields}),
 * so that a payload given up on is not counted twice. One instance per converter, not thread-safe;
 * it allocates nothing per payload with the binary protocol.
 */
final class CheckingProtocol extends TProtocol {
  /** Thrown to abandon the one-pass read; no stack trace, one instance. */
  static final TException GIVE_UP =
      new TException("the payload needs the two-pass decode") {
        @Override
        public synchronized Throwable fillInStackTrace() {
          return this;
        }
      };

  /** Nesting of struct and container headers inside a skipped field before giving up. */
  static final int MAX_SKIP_DEPTH = 32;

  /** Unknown fields held per payload before giving up (the two-pass path counts any number). */
  static final int MAX_UNKNOWN_FIELDS = 1024;

  // Value kinds of the schema, as the generated reader reads them.
  private static final int K_BOOL = 1;
  private static final int K_BYTE = 2;
  private static final int K_I16 = 3;
  private static final int K_I32 = 4;
  private static final int K_I64 = 5;
  private static final int K_DOUBLE = 6;
  private static final int K_STRING = 7;
  private static final int K_BINARY = 8;
  private static final int K_ENUM = 9;
  private static final int K_STRUCT = 10;
  private static final int K_LIST = 11;
  private static final int K_SET = 12;
  private static final int K_MAP = 13;

  /** A value's type, compiled from the schema once. */
  private static final class Node {
    final int kind;
    ThriftEnum enumType;
    StructNode struct;
    Node element;
    Node key;
    Node value;
    byte elementWire;
    byte keyWire;
    byte valueWire;

    /** The row-size estimate per list or set element, or per map entry (as the codec tree). */
    int elementCost;

    Node(int kind) {
      this.kind = kind;
    }
  }

  private static final class FieldNode {
    final int index;
    final Node type;
    final byte wireType;
    final int rowCost;

    FieldNode(int index, Node type, byte wireType, int rowCost) {
      this.index = index;
      this.type = type;
      this.wireType = wireType;
      this.rowCost = rowCost;
    }
  }

  private static final class StructNode {
    final String name;
    final boolean union;
    int minFieldId;
    FieldNode[] byId;

    /** Bits of the required fields by field index (none for a union, as in the codec tree). */
    long[] required;

    StructNode(ThriftStruct struct) {
      this.name = struct.name();
      this.union = struct.isUnion();
    }
  }

  private static final int FRAME_STRUCT = 1;
  private static final int FRAME_LIST = 2;
  private static final int FRAME_MAP = 3;

  /** Where the generated reader is: a struct, a list or set, or a map being read. */
  private static final class Frame {
    int kind;
    StructNode struct;
    FieldNode field;
    long[] seen;
    int headers;
    Node element;
    Node key;
    Node value;
    boolean valueNext;
  }

  private final Node root;
  private final int maxStringBytes;
  private final int maxContainerElements;
  private final TMemoryInputTransport transport;
  private final int seenWords;
  private TProtocol delegate;
  private boolean binary;
  private Frame[] frames = new Frame[8];
  private Frame top;
  private int depth;

  /** -1 outside a skipped field; else the struct and container nesting inside it. */
  private int skipDepth;

  private long rowBytes;

  private final String[] unknownStructs = new String[MAX_UNKNOWN_FIELDS];
  private final short[] unknownIds = new short[MAX_UNKNOWN_FIELDS];
  private final byte[] unknownTypes = new byte[MAX_UNKNOWN_FIELDS];
  private final boolean[] unknownKnownIds = new boolean[MAX_UNKNOWN_FIELDS];
  private int unknownCount;

  CheckingProtocol(
      ThriftStruct struct,
      int maxStringBytes,
      int maxContainerElements,
      TMemoryInputTransport transport) {
    super(transport);
    this.maxStringBytes = maxStringBytes;
    this.maxContainerElements = maxContainerElements;
    this.transport = transport;
    Map<ThriftStruct, StructNode> structs = new IdentityHashMap<>();
    this.root = new Node(K_STRUCT);
    this.root.struct = compile(struct, structs);
    int maxFields = 1;
    for (ThriftStruct each : structs.keySet()) {
      maxFields = Math.max(maxFields, each.fields().size());
    }
    this.seenWords = (maxFields + 63) / 64;
    for (int i = 0; i < frames.length; i++) {
      frames[i] = newFrame();
    }
  }

  private Frame newFrame() {
    Frame frame = new Frame();
    frame.seen = new long[seenWords];
    return frame;
  }

  private static StructNode compile(ThriftStruct struct, Map<ThriftStruct, StructNode> structs) {
    StructNode known = structs.get(struct);
    if (known != null) {
      return known;
    }
    StructNode node = new StructNode(struct);
    structs.put(struct, node); // the schema rejects recursive structs, but be safe
    List<ThriftField> fields = struct.fields();
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (ThriftField field : fields) {
      min = Math.min(min, field.id());
      max = Math.max(max, field.id());
    }
    node.minFieldId = fields.isEmpty() ? 0 : min;
    node.byId = new FieldNode[fields.isEmpty() ? 0 : max - min + 1];
    node.required = new long[(fields.size() + 63) / 64];
    for (int i = 0; i < fields.size(); i++) {
      ThriftField field = fields.get(i);
      node.byId[field.id() - node.minFieldId] =
          new FieldNode(
              i,
              compile(field.type(), structs),
              field.type().wireType(),
              DecodingRules.fieldCost(field.name(), field.type()));
      if (field.isRequired() && !struct.isUnion()) {
        node.required[i >>> 6] |= 1L << i;
      }
    }
    return node;
  }

  private static Node compile(ThriftType type, Map<ThriftStruct, StructNode> structs) {
    if (type instanceof ThriftType.Primitive primitive) {
      return new Node(
          switch (primitive.kind()) {
            case BOOL -> K_BOOL;
            case I8 -> K_BYTE;
            case I16 -> K_I16;
            case I32 -> K_I32;
            case I64 -> K_I64;
            case DOUBLE -> K_DOUBLE;
            case STRING -> K_STRING;
            case BINARY -> K_BINARY;
          });
    }
    if (type instanceof ThriftType.EnumRef ref) {
      Node node = new Node(K_ENUM);
      node.enumType = ref.enumType();
      return node;
    }
    if (type instanceof ThriftType.StructRef ref) {
      Node node = new Node(K_STRUCT);
      node.struct = compile(ref.struct(), structs);
      return node;
    }
    if (type instanceof ThriftType.MapOf map) {
      Node node = new Node(K_MAP);
      node.key = compile(map.key(), structs);
      node.value = compile(map.value(), structs);
      node.keyWire = map.key().wireType();
      node.valueWire = map.value().wireType();
      node.elementCost =
          20 + DecodingRules.valueCost(map.key()) + DecodingRules.valueCost(map.value());
      return node;
    }
    ThriftType element = ThriftType.elementOf(type);
    Node node = new Node(type instanceof ThriftType.SetOf ? K_SET : K_LIST);
    node.element = compile(element, structs);
    node.elementWire = element.wireType();
    node.elementCost =
        DecodingRules.valueCost(element) + (ColumnShape.needsWrapper(element) ? 12 : 1);
    return node;
  }

  // ---------------------------------------------------------------------------------------------
  // One payload.

  /** Starts a payload read through {@code protocol} (the converter's, over its transport). */
  void start(TProtocol protocol) {
    if (protocol != delegate) {
      delegate = protocol;
      binary = protocol instanceof TBinaryProtocol;
    }
    depth = -1;
    top = null;
    skipDepth = -1;
    rowBytes = 0;
    unknownCount = 0;
  }

  /** Whether the generated reader has read exactly the root struct, and nothing is left open. */
  boolean finished() {
    return depth == -1 && skipDepth == -1;
  }

  /** The row-size estimate of the payload read, as {@link DecodingRules#rowBytes()} would be. */
  long rowBytes() {
    return rowBytes;
  }

  /** Unknown fields skipped in the payload read. */
  int unknownFields() {
    return unknownCount;
  }

  /**
   * Counts the payload's skipped fields in {@code rules}, in wire order, as the codec tree does.
   */
  void commitUnknownFields(DecodingRules rules) {
    for (int i = 0; i < unknownCount; i++) {
      rules.unknownField(unknownStructs[i], unknownIds[i], unknownTypes[i], unknownKnownIds[i]);
      unknownStructs[i] = null;
    }
    unknownCount = 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Where the reader is.

  /** The type of the value the generated reader starts reading now. */
  private Node nextValue() throws TException {
    Frame frame = top;
    if (frame == null) {
      return root;
    }
    switch (frame.kind) {
      case FRAME_STRUCT:
        FieldNode field = frame.field;
        if (field == null) {
          throw GIVE_UP;
        }
        frame.field = null; // one value per field
        return field.type;
      case FRAME_LIST:
        return frame.element;
      default:
        boolean value = frame.valueNext;
        frame.valueNext = !value;
        return value ? frame.value : frame.key;
    }
  }

  private Frame push(int kind) throws TException {
    int next = depth + 1;
    if (next == frames.length) {
      if (next >= 256) {
        throw GIVE_UP;
      }
      Frame[] grown = java.util.Arrays.copyOf(frames, next * 2);
      for (int i = next; i < grown.length; i++) {
        grown[i] = newFrame();
      }
      frames = grown;
    }
    Frame frame = frames[next];
    frame.kind = kind;
    depth = next;
    top = frame;
    return frame;
  }

  private void pop(int kind) throws TException {
    if (top == null || top.kind != kind) {
      throw GIVE_UP;
    }
    depth--;
    top = depth < 0 ? null : frames[depth];
  }

  private Node expect(int kind) throws TException {
    Node node = nextValue();
    if (node.kind != kind) {
      throw GIVE_UP;
    }
    return node;
  }

  private void checkContainer(int size) throws TException {
    // A declared size larger than the bytes left cannot be honest (every element takes a byte at
    // least): give up before the generated reader reserves room for that many elements.
    if (size < 0 || size > maxContainerElements || size > transport.getBytesRemainingInBuffer()) {
      throw GIVE_UP;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Structs and fields.

  @Override
  public TStruct readStructBegin() throws TException {
    if (skipDepth >= 0) {
      if (++skipDepth > MAX_SKIP_DEPTH) {
        throw GIVE_UP;
      }
      return delegate.readStructBegin();
    }
    StructNode struct = expect(K_STRUCT).struct;
    Frame frame = push(FRAME_STRUCT);
    frame.struct = struct;
    frame.field = null;
    frame.headers = 0;
    long[] seen = frame.seen;
    for (int i = 0; i < struct.required.length; i++) {
      seen[i] = 0L;
    }
    return delegate.readStructBegin();
  }

  @Override
  public TField readFieldBegin() throws TException {
    if (skipDepth > 0) {
      return delegate.readFieldBegin();
    }
    Frame frame = top;
    if (skipDepth == 0 || frame == null || frame.kind != FRAME_STRUCT) {
      throw GIVE_UP;
    }
    TField header = delegate.readFieldBegin();
    StructNode struct = frame.struct;
    if (struct.union) {
      // The generated union reader takes one field and then one header for the STOP.
      if (++frame.headers == 2) {
        if (header.type != TType.STOP) {
          throw GIVE_UP;
        }
        return header;
      }
      if (header.type == TType.STOP) {
        throw GIVE_UP;
      }
    } else if (header.type == TType.STOP) {
      return header;
    }
    int offset = header.id - struct.minFieldId;
    FieldNode field = offset >= 0 && offset < struct.byId.length ? struct.byId[offset] : null;
    if (field == null || field.wireType != header.type) {
      // The generated reader skips it, as the codec tree does: count it as the codec tree would.
      if (struct.union || unknownCount == MAX_UNKNOWN_FIELDS) {
        throw GIVE_UP;
      }
      unknownStructs[unknownCount] = struct.name;
      unknownIds[unknownCount] = header.id;
      unknownTypes[unknownCount] = header.type;
      unknownKnownIds[unknownCount] = field != null;
      unknownCount++;
      frame.field = null;
      skipDepth = 0;
      return header;
    }
    frame.field = field;
    frame.seen[field.index >>> 6] |= 1L << field.index;
    rowBytes += field.rowCost;
    return header;
  }

  @Override
  public void readFieldEnd() throws TException {
    if (skipDepth == 0) {
      skipDepth = -1;
    }
    delegate.readFieldEnd();
  }

  @Override
  public void readStructEnd() throws TException {
    if (skipDepth > 0) {
      skipDepth--;
      delegate.readStructEnd();
      return;
    }
    Frame frame = top;
    if (skipDepth == 0 || frame == null || frame.kind != FRAME_STRUCT) {
      throw GIVE_UP;
    }
    long[] required = frame.struct.required;
    long[] seen = frame.seen;
    for (int i = 0; i < required.length; i++) {
      if ((seen[i] & required[i]) != required[i]) {
        throw GIVE_UP; // a required field is missing
      }
    }
    pop(FRAME_STRUCT);
    delegate.readStructEnd();
  }

  // ---------------------------------------------------------------------------------------------
  // Containers.

  @Override
  public TList readListBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(delegate.readListBegin());
    }
    Node node = expect(K_LIST);
    TList header = delegate.readListBegin();
    startList(node, header.size, header.elemType);
    return header;
  }

  @Override
  public TSet readSetBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(delegate.readSetBegin());
    }
    Node node = expect(K_SET);
    TSet header = delegate.readSetBegin();
    startList(node, header.size, header.elemType);
    return header;
  }

  private <T> T skippedContainer(T header) throws TException {
    if (++skipDepth > MAX_SKIP_DEPTH) {
      throw GIVE_UP;
    }
    return header;
  }

  private void startList(Node node, int size, byte elementType) throws TException {
    checkContainer(size);
    if (size > 0 && elementType != node.elementWire) {
      throw GIVE_UP;
    }
    rowBytes += (long) size * node.elementCost;
    Frame frame = push(FRAME_LIST);
    frame.element = node.element;
  }

  @Override
  public TMap readMapBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(delegate.readMapBegin());
    }
    Node node = expect(K_MAP);
    TMap header = delegate.readMapBegin();
    checkContainer(header.size);
    if (header.size > 0 && (header.keyType != node.keyWire || header.valueType != node.valueWire)) {
      throw GIVE_UP;
    }
    rowBytes += (long) header.size * node.elementCost;
    Frame frame = push(FRAME_MAP);
    frame.key = node.key;
    frame.value = node.value;
    frame.valueNext = false;
    return header;
  }

  @Override
  public void readListEnd() throws TException {
    endContainer(FRAME_LIST);
    delegate.readListEnd();
  }

  @Override
  public void readSetEnd() throws TException {
    endContainer(FRAME_LIST);
    delegate.readSetEnd();
  }

  @Override
  public void readMapEnd() throws TException {
    endContainer(FRAME_MAP);
    delegate.readMapEnd();
  }

  private void endContainer(int kind) throws TException {
    if (skipDepth > 0) {
      skipDepth--;
    } else if (skipDepth == 0) {
      throw GIVE_UP;
    } else {
      pop(kind);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Scalars.

  @Override
  public boolean readBool() throws TException {
    if (skipDepth < 0) {
      expect(K_BOOL);
    }
    return delegate.readBool();
  }

  @Override
  public byte readByte() throws TException {
    if (skipDepth < 0) {
      expect(K_BYTE);
    }
    return delegate.readByte();
  }

  @Override
  public short readI16() throws TException {
    if (skipDepth < 0) {
      expect(K_I16);
    }
    return delegate.readI16();
  }

  @Override
  public int readI32() throws TException {
    if (skipDepth >= 0) {
      return delegate.readI32();
    }
    Node node = nextValue();
    int value = delegate.readI32();
    if (node.kind == K_ENUM) {
      String name = node.enumType.nameOf(value);
      if (name == null) {
        throw GIVE_UP; // the generated object cannot hold it
      }
      rowBytes += name.length();
    } else if (node.kind != K_I32) {
      throw GIVE_UP;
    }
    return value;
  }

  @Override
  public long readI64() throws TException {
    if (skipDepth < 0) {
      expect(K_I64);
    }
    return delegate.readI64();
  }

  @Override
  public double readDouble() throws TException {
    if (skipDepth < 0) {
      expect(K_DOUBLE);
    }
    return delegate.readDouble();
  }

  /**
   * A string as the JDK's UTF-8 decoder gives it (what the two-pass path stores), once it is known
   * to be well-formed and within the length limit.
   */
  @Override
  public String readString() throws TException {
    if (skipDepth >= 0) {
      throw GIVE_UP; // the skipping code reads binary
    }
    expect(K_STRING);
    byte[] bytes;
    int offset;
    int length;
    if (binary) {
      // TBinaryProtocol.readString's own fast path (no ByteBuffer), with the checks it lacks.
      length = delegate.readI32();
      if (length < 0 || length > maxStringBytes || length > transport.getBytesRemainingInBuffer()) {
        throw GIVE_UP;
      }
      bytes = transport.getBuffer();
      offset = transport.getBufferPosition();
      transport.consumeBuffer(length);
    } else {
      ByteBuffer buffer = delegate.readBinary();
      length = buffer.remaining();
      if (length > maxStringBytes || !buffer.hasArray()) {
        throw GIVE_UP;
      }
      bytes = buffer.array();
      offset = buffer.arrayOffset() + buffer.position();
    }
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    // As DecodingRules.string: one char per byte and no U+FFFD means every byte was ASCII.
    if ((text.length() != length || text.indexOf('\uFFFD') >= 0)
        && !Utf8.isWellFormed(bytes, offset, length)) {
      throw GIVE_UP;
    }
    rowBytes += length;
    return text;
  }

  @Override
  public ByteBuffer readBinary() throws TException {
    if (skipDepth >= 0) {
      return delegate.readBinary();
    }
    expect(K_BINARY);
    ByteBuffer buffer = delegate.readBinary();
    int length = buffer.remaining();
    if (length > maxStringBytes) {
      throw GIVE_UP;
    }
    rowBytes += length + length / 3 + 4; // its bytes, and base64 in JSON
    return buffer;
  }

  // ---------------------------------------------------------------------------------------------
  // The rest of TProtocol: nothing the generated reader of a struct calls.

  @Override
  public int getMinSerializedSize(byte type) throws TException {
    return delegate.getMinSerializedSize(type);
  }

  @Override
  public TMessage readMessageBegin() throws TException {
    throw GIVE_UP;
  }

  @Override
  public void readMessageEnd() throws TException {
    throw GIVE_UP;
  }

  @Override
  public void writeMessageBegin(TMessage message) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeMessageEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeStructBegin(TStruct struct) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeStructEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeFieldBegin(TField field) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeFieldEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeFieldStop() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeMapBegin(TMap map) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeMapEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeListBegin(TList list) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeListEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeSetBegin(TSet set) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeSetEnd() {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeBool(boolean b) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeByte(byte b) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeI16(short i16) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeI32(int i32) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeI64(long i64) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeDouble(double dub) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeString(String str) {
    throw new UnsupportedOperationException("a reading protocol");
  }

  @Override
  public void writeBinary(ByteBuffer buf) {
    throw new UnsupportedOperationException("a reading protocol");
  }
}
