package io.thriftbq.ingest.convert;

import static io.thriftbq.ingest.convert.SchemaNodes.K_BINARY;
import static io.thriftbq.ingest.convert.SchemaNodes.K_BOOL;
import static io.thriftbq.ingest.convert.SchemaNodes.K_BYTE;
import static io.thriftbq.ingest.convert.SchemaNodes.K_DOUBLE;
import static io.thriftbq.ingest.convert.SchemaNodes.K_ENUM;
import static io.thriftbq.ingest.convert.SchemaNodes.K_I16;
import static io.thriftbq.ingest.convert.SchemaNodes.K_I32;
import static io.thriftbq.ingest.convert.SchemaNodes.K_I64;
import static io.thriftbq.ingest.convert.SchemaNodes.K_LIST;
import static io.thriftbq.ingest.convert.SchemaNodes.K_MAP;
import static io.thriftbq.ingest.convert.SchemaNodes.K_SET;
import static io.thriftbq.ingest.convert.SchemaNodes.K_STRING;
import static io.thriftbq.ingest.convert.SchemaNodes.K_STRUCT;
import static io.thriftbq.ingest.convert.SchemaNodes.NONE;

import io.thriftbq.ingest.convert.SchemaNodes.FieldNode;
import io.thriftbq.ingest.convert.SchemaNodes.Node;
import io.thriftbq.ingest.convert.SchemaNodes.StructNode;
import io.thriftbq.schema.ThriftStruct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * nested deeper than {@value #MAX_SKIP_DEPTH} levels (the rule's limit is {@value
 * DecodingRules#MAX_SKIP_DEPTH}), more than {@value #MAX_UNKNOWN_FIELDS} unknown fields, and a call
 * the schema does not expect (a generated class out of step with the schema). The caller checks the
 * trailing bytes and the row size.
 *
 * <p>With the binary protocol it does not decorate {@code TBinaryProtocol} but reads the payload's
 * bytes itself, exactly as {@code TBinaryProtocol} does (the same values, strings decoded by the
 * JDK, binaries wrapping the payload) and giving up wherever it would throw; so the generated
 * reader makes one call per value, not two, and a known field's header is a {@link TField} made
 * once. Other protocols are decorated.
 *
 * <p>Its parts live apart: the schema compiled into the tables it walks in {@link SchemaNodes}, the
 * binary protocol's layouts (shared with {@link DirectProtoWriter}) in {@link BinaryWire}, every
 * rule it asks in {@link DecodingRules}, and the writes a reading protocol must refuse in {@link
 * ReadOnlyProtocol}.
 *
 * <p>Skipped unknown fields are held until the caller commits them ({@link #commitUnknownFields}),
 * so that a payload given up on is not counted twice. One instance per converter, not thread-safe;
 * with the binary protocol it allocates nothing per payload but the container headers.
 */
final class CheckingProtocol extends ReadOnlyProtocol {
  /** Thrown to abandon the one-pass read; no stack trace, one instance. */
  static final TException GIVE_UP =
      new TException("the payload needs the two-pass decode") {
        @Override
        public synchronized Throwable fillInStackTrace() {
          return this;
        }
      };

  /**
   * Nesting of struct and container headers inside a skipped field before giving up: below the
   * rule's {@link DecodingRules#MAX_SKIP_DEPTH}, so the codec tree decides every payload that
   * reaches either.
   */
  static final int MAX_SKIP_DEPTH = 32;

  /** Unknown fields held per payload before giving up (the two-pass path counts any number). */
  static final int MAX_UNKNOWN_FIELDS = 1024;

  private static final TStruct ANONYMOUS_STRUCT = new TStruct();
  private static final TField STOP_FIELD = new TField("", TType.STOP, (short) 0);

  /** Frame kinds other than a struct's (a struct's frame holds its node's index, > 0). */
  private static final int FRAME_LIST = -1;

  private static final int FRAME_MAP = -2;

  /** Nesting of structs and containers before giving up. */
  private static final int MAX_DEPTH = 256;

  /** The compiled schema's tables ({@link SchemaNodes}), held here for one load fewer per value. */
  private final Node[] nodes;

  private final int[] kinds;
  private final FieldNode[][] fieldsOf;

  private final int[] minFieldIdOf;
  private final StructNode[] structOf;
  private final boolean[] unionOf;

  private final DecodingRules rules;
  private final TMemoryInputTransport transport;
  private final int seenWords;
  private TProtocol delegate;
  private boolean binary;

  /** Not the fast path: another protocol than binary, or inside a skipped field. */
  private boolean slow;

  /**
   * The frames being read, innermost at {@link #depth}: per frame, the struct node's index or
   * {@link #FRAME_LIST} or {@link #FRAME_MAP}; the parent's state when the frame started (restored
   * when it ends: {@link #expected}, {@link #alternate}, {@link #struct}, {@link #seenFields}); a
   * union's headers so far; the required fields seen past the first 64 ({@link #seenWords} words
   * per frame, for the rare struct with more).
   */
  private int[] frameNode = new int[8];

  private int[] frameExpected = new int[8];
  private int[] frameAlternate = new int[8];
  private int[] frameStruct = new int[8];
  private long[] frameSeen = new long[8];
  private int[] frameHeaders = new int[8];
  private long[] seenWide;
  private int depth;

  /** The node index of the struct being read if the innermost frame is a struct's, else 0. */
  private int struct;

  /** The first 64 required fields of {@link #struct} seen so far. */
  private long seenFields;

  /**
   * The type of the next value the generated reader may read, and of the one after it: each value
   * read swaps the two. A field header sets (its type, {@link #NONE}), so a field has one value; a
   * list or set sets (element, element); a map (key, value), so keys and values alternate.
   */
  private int expected;

  private int alternate;

  /** The payload, and where the binary protocol is in it (the transport is not moved). */
  private byte[] buf;

  private int pos;
  private int end;

  /** -1 outside a skipped field; else the struct and container nesting inside it. */
  private int skipDepth;

  private long rowBytes;

  private final String[] unknownStructs = new String[MAX_UNKNOWN_FIELDS];
  private final short[] unknownIds = new short[MAX_UNKNOWN_FIELDS];
  private final byte[] unknownTypes = new byte[MAX_UNKNOWN_FIELDS];
  private final boolean[] unknownKnownIds = new boolean[MAX_UNKNOWN_FIELDS];
  private int unknownCount;

  /**
   * A checking reader of {@code struct} under {@code rules}, which it asks but does not change (it
   * counts nothing until {@link #commitUnknownFields}).
   */
  CheckingProtocol(ThriftStruct struct, DecodingRules rules, TMemoryInputTransport transport) {
    super(transport);
    this.rules = rules;
    this.transport = transport;
    // The tables are copied into this object's own fields: one load fewer per value read.
    SchemaNodes schema = new SchemaNodes(struct);
    this.nodes = schema.nodes;
    this.kinds = schema.kinds;
    this.fieldsOf = schema.fieldsOf;
    this.minFieldIdOf = schema.minFieldIdOf;
    this.structOf = schema.structOf;
    this.unionOf = schema.unionOf;
    this.seenWords = schema.seenWords;
    this.seenWide = new long[frameNode.length * seenWords];
  }

  // ---------------------------------------------------------------------------------------------
  // One payload.

  /**
   * Starts reading {@code payload} through {@code protocol} (the converter's, over {@link
   * #transport}). With the binary protocol the payload's bytes are read here directly, as {@code
   * TBinaryProtocol} reads them, and the transport is not used: ask {@link #bytesLeft}.
   */
  void start(TProtocol protocol, byte[] payload) throws TException {
    if (protocol != delegate) {
      delegate = protocol;
      binary = protocol instanceof TBinaryProtocol;
    }
    if (binary) {
      buf = payload;
      pos = 0;
      end = payload.length;
    } else {
      transport.reset(payload);
      transport.updateKnownMessageSize(payload.length);
    }
    depth = -1;
    struct = 0;
    seenFields = 0;
    expected = 1; // the root struct
    alternate = NONE;
    skipDepth = -1;
    slow = !binary;
    rowBytes = 0;
    unknownCount = 0;
  }

  /** Whether the generated reader has read exactly the root struct, and nothing is left open. */
  boolean finished() {
    return depth == -1 && skipDepth == -1 && expected == NONE && alternate == 1;
  }

  /** The payload's bytes the generated reader has not read. */
  int bytesLeft() {
    return binary ? end - pos : transport.getBytesRemainingInBuffer();
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

  /** The type of the value the generated reader starts reading now ({@link #NONE}: none). */
  private int take() {
    int node = expected;
    expected = alternate;
    alternate = node;
    return node;
  }

  /**
   * Starts a frame ({@code node}: a struct node's index, or a container frame kind), saving the
   * parent's state.
   */
  private int push(int node) throws TException {
    int next = depth + 1;
    if (next == frameNode.length) {
      grow(next);
    }
    frameNode[next] = node;
    frameExpected[next] = expected;
    frameAlternate[next] = alternate;
    frameStruct[next] = struct;
    frameSeen[next] = seenFields;
    depth = next;
    return next;
  }

  private void grow(int size) throws TException {
    if (size >= MAX_DEPTH) {
      throw GIVE_UP;
    }
    frameNode = Arrays.copyOf(frameNode, size * 2);
    frameExpected = Arrays.copyOf(frameExpected, size * 2);
    frameAlternate = Arrays.copyOf(frameAlternate, size * 2);
    frameStruct = Arrays.copyOf(frameStruct, size * 2);
    frameSeen = Arrays.copyOf(frameSeen, size * 2);
    frameHeaders = Arrays.copyOf(frameHeaders, size * 2);
    seenWide = Arrays.copyOf(seenWide, size * 2 * seenWords);
  }

  /** Ends the innermost frame, which must be a container of {@code kind}. */
  private void pop(int kind) throws TException {
    int frame = depth;
    if (frame < 0 || frameNode[frame] != kind) {
      throw GIVE_UP;
    }
    popFrame(frame);
  }

  private void popFrame(int frame) {
    expected = frameExpected[frame];
    alternate = frameAlternate[frame];
    struct = frameStruct[frame];
    seenFields = frameSeen[frame];
    depth = frame - 1;
  }

  private void checkContainer(int size) throws TException {
    // A declared size larger than the bytes left cannot be honest (every element takes a byte at
    // least): give up before the generated reader reserves room for that many elements.
    if (size < 0 || !rules.sizeFits(size) || size > bytesLeft()) {
      throw GIVE_UP;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The binary protocol's reads, from the payload's bytes; where TBinaryProtocol would throw
  // (the payload ends, a negative or too large size, an unknown type code in a container header),
  // these give up.

  private byte nextByte() throws TException {
    int p = pos;
    if (p >= end) {
      throw GIVE_UP;
    }
    pos = p + 1;
    return buf[p];
  }

  private short nextI16() throws TException {
    int p = pos;
    if (end - p < 2) {
      throw GIVE_UP;
    }
    pos = p + 2;
    return (short) BinaryWire.I16.get(buf, p);
  }

  private int nextI32() throws TException {
    int p = pos;
    if (end - p < 4) {
      throw GIVE_UP;
    }
    pos = p + 4;
    return (int) BinaryWire.I32.get(buf, p);
  }

  private long nextI64() throws TException {
    int p = pos;
    if (end - p < 8) {
      throw GIVE_UP;
    }
    pos = p + 8;
    return (long) BinaryWire.I64.get(buf, p);
  }

  /** The length of a string or binary, within the limit and the bytes left. */
  private int nextLength() throws TException {
    int length = nextI32();
    if (length < 0 || length > end - pos || !rules.lengthFits(length)) {
      throw GIVE_UP;
    }
    return length;
  }

  /** The binary protocol's check of a container header: known type codes, and room left. */
  private void checkHeader(int size, int minElementSize) throws TException {
    if (minElementSize == 0
        || size < 0
        || !rules.sizeFits(size)
        || (long) size * minElementSize > end - pos) {
      throw GIVE_UP;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Structs and fields. Each read has a small fast path (the binary protocol, outside skipped
  // fields), so that the generated reader's methods, which are large, can inline as many of them as
  // C2 allows; the rest is in the slow* methods.

  @Override
  public TStruct readStructBegin() throws TException {
    if (slow) {
      return slowStructBegin();
    }
    enterStruct(take());
    return ANONYMOUS_STRUCT;
  }

  private TStruct slowStructBegin() throws TException {
    if (skipDepth >= 0) {
      if (++skipDepth > MAX_SKIP_DEPTH) {
        throw GIVE_UP;
      }
    } else {
      enterStruct(take());
    }
    return binary ? ANONYMOUS_STRUCT : delegate.readStructBegin();
  }

  private void enterStruct(int node) throws TException {
    if (kinds[node] != K_STRUCT) {
      throw GIVE_UP;
    }
    int frame = push(node);
    frameHeaders[frame] = 0;
    struct = node;
    seenFields = 0;
    if (seenWords > 0) {
      Arrays.fill(seenWide, frame * seenWords, (frame + 1) * seenWords, 0L);
    }
    expected = NONE; // a field header first
    alternate = NONE;
  }

  @Override
  public TField readFieldBegin() throws TException {
    int node = struct;
    int p = pos;
    if (slow || node == 0 || end - p < 3) {
      return slowFieldBegin();
    }
    byte type = buf[p];
    if (type == TType.STOP) {
      pos = p + 1;
      return stop(node);
    }
    short id = (short) BinaryWire.I16.get(buf, p + 1);
    pos = p + 3;
    return field(node, type, id);
  }

  private TField slowFieldBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedFieldBegin();
    }
    int node = struct;
    if (node == 0) {
      throw GIVE_UP; // not in a struct
    }
    byte type;
    short id;
    if (binary) {
      type = nextByte();
      if (type == TType.STOP) {
        return stop(node);
      }
      id = nextI16();
    } else {
      TField header = delegate.readFieldBegin();
      type = header.type;
      id = header.id;
      if (type == TType.STOP) {
        return stop(node);
      }
    }
    return field(node, type, id);
  }

  /** A field header of the struct {@code node}. */
  private TField field(int node, byte type, short id) throws TException {
    int offset = id - minFieldIdOf[node];
    FieldNode[] byId = fieldsOf[node]; // empty for a union: otherField
    if (offset >= 0 && offset < byId.length) {
      FieldNode field = byId[offset];
      if (field != null && field.wireType == type) {
        return known(field);
      }
    }
    return otherField(node, type, id);
  }

  private TField known(FieldNode field) {
    seenFields |= field.bit;
    if (field.wideWord >= 0) {
      seenWide[depth * seenWords + field.wideWord] |= field.wideBit;
    }
    rowBytes += field.rowCost;
    expected = field.type;
    alternate = NONE;
    return field.header;
  }

  private TField stop(int node) throws TException {
    // The generated union reader takes one field and then one header for the STOP.
    if (unionOf[node] && !DecodingRules.unionHoldsOne(frameHeaders[depth]++, 0)) {
      throw GIVE_UP;
    }
    expected = NONE;
    alternate = NONE;
    return STOP_FIELD;
  }

  /** A union's member, or a field the generated reader skips (unknown, or of another type). */
  private TField otherField(int node, byte type, short id) throws TException {
    StructNode struct = structOf[node];
    if (struct.union && ++frameHeaders[depth] == 2) {
      throw GIVE_UP; // a second member
    }
    int offset = id - struct.minFieldId;
    FieldNode field = offset >= 0 && offset < struct.byId.length ? struct.byId[offset] : null;
    if (field != null && field.wireType == type) {
      return known(field);
    }
    // The generated reader skips it, as the codec tree does: count it as the codec tree would.
    if (struct.union || unknownCount == MAX_UNKNOWN_FIELDS) {
      throw GIVE_UP;
    }
    unknownStructs[unknownCount] = struct.name;
    unknownIds[unknownCount] = id;
    unknownTypes[unknownCount] = type;
    unknownKnownIds[unknownCount] = field != null;
    unknownCount++;
    expected = NONE;
    alternate = NONE;
    skipDepth = 0;
    slow = true;
    return new TField("", type, id);
  }

  /** A field header inside a skipped struct. */
  private TField skippedFieldBegin() throws TException {
    if (skipDepth == 0) {
      throw GIVE_UP;
    }
    if (!binary) {
      return delegate.readFieldBegin();
    }
    byte type = nextByte();
    return type == TType.STOP ? STOP_FIELD : new TField("", type, nextI16());
  }

  @Override
  public void readFieldEnd() throws TException {
    if (slow) {
      if (skipDepth == 0) {
        skipDepth = -1;
        slow = !binary;
      }
      if (!binary) {
        delegate.readFieldEnd();
      }
    }
  }

  @Override
  public void readStructEnd() throws TException {
    if (slow) {
      slowStructEnd();
    } else {
      exitStruct();
    }
  }

  private void slowStructEnd() throws TException {
    if (skipDepth > 0) {
      skipDepth--;
    } else if (skipDepth == 0) {
      throw GIVE_UP;
    } else {
      exitStruct();
    }
    if (!binary) {
      delegate.readStructEnd();
    }
  }

  private void exitStruct() throws TException {
    int node = struct;
    if (node == 0) {
      throw GIVE_UP;
    }
    StructNode read = structOf[node];
    if (!DecodingRules.requiredPresent(seenFields, read.required)) {
      throw GIVE_UP; // a required field is missing
    }
    long[] wide = read.requiredWide;
    for (int i = 0; i < wide.length; i++) {
      if (!DecodingRules.requiredPresent(seenWide[depth * seenWords + i], wide[i])) {
        throw GIVE_UP;
      }
    }
    popFrame(depth);
  }

  // ---------------------------------------------------------------------------------------------
  // Containers.

  @Override
  public TList readListBegin() throws TException {
    if (slow) {
      return slowListBegin();
    }
    Node node = container(K_LIST);
    byte elementType = nextByte();
    int size = nextI32();
    startList(node, elementType, size);
    return new TList(elementType, size);
  }

  @Override
  public TSet readSetBegin() throws TException {
    if (slow) {
      return slowSetBegin();
    }
    Node node = container(K_SET);
    byte elementType = nextByte();
    int size = nextI32();
    startList(node, elementType, size);
    return new TSet(elementType, size);
  }

  @Override
  public TMap readMapBegin() throws TException {
    if (slow) {
      return slowMapBegin();
    }
    Node node = container(K_MAP);
    byte keyType = nextByte();
    byte valueType = nextByte();
    int size = nextI32();
    if (size < 0 || !rules.sizeFits(size) || (long) size * node.elementMin > end - pos) {
      throw GIVE_UP; // a size the binary protocol refuses, or more than the bytes left hold
    }
    if (!DecodingRules.elementsMatch(size, keyType, node.keyWire)
        || !DecodingRules.elementsMatch(size, valueType, node.valueWire)
        || (size == 0
            && (BinaryWire.minSize(keyType) == 0 || BinaryWire.minSize(valueType) == 0))) {
      throw GIVE_UP; // elements of another type; a type code the binary protocol refuses
    }
    startMap(node, size);
    return new TMap(keyType, valueType, size);
  }

  /** The container node the generated reader starts reading, which must be of {@code kind}. */
  private Node container(int kind) throws TException {
    int node = take();
    if (kinds[node] != kind) {
      throw GIVE_UP;
    }
    return nodes[node];
  }

  /** A list or set header as the binary protocol reads it, and as the codec tree accepts it. */
  private void startList(Node node, byte elementType, int size) throws TException {
    if (size < 0 || !rules.sizeFits(size) || (long) size * node.elementMin > end - pos) {
      throw GIVE_UP; // a size the binary protocol refuses, or more than the bytes left hold
    }
    if (!DecodingRules.elementsMatch(size, elementType, node.elementWire)
        || (size == 0 && BinaryWire.minSize(elementType) == 0)) {
      throw GIVE_UP; // elements of another type; a type code the binary protocol refuses
    }
    enterList(node, size);
  }

  private void enterList(Node node, int size) throws TException {
    rowBytes += (long) size * node.elementCost;
    push(FRAME_LIST);
    struct = 0;
    expected = node.element;
    alternate = node.element;
  }

  private void startMap(Node node, int size) throws TException {
    rowBytes += (long) size * node.elementCost;
    push(FRAME_MAP);
    struct = 0;
    expected = node.key;
    alternate = node.value;
  }

  private TList slowListBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(binary ? binaryList() : delegate.readListBegin());
    }
    Node node = container(K_LIST);
    TList header = binary ? binaryList() : delegate.readListBegin();
    decoratedList(node, header.size, header.elemType);
    return header;
  }

  private TSet slowSetBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(binary ? binarySet() : delegate.readSetBegin());
    }
    Node node = container(K_SET);
    TSet header = binary ? binarySet() : delegate.readSetBegin();
    decoratedList(node, header.size, header.elemType);
    return header;
  }

  private TMap slowMapBegin() throws TException {
    if (skipDepth >= 0) {
      return skippedContainer(binary ? binaryMap() : delegate.readMapBegin());
    }
    Node node = container(K_MAP);
    TMap header = binary ? binaryMap() : delegate.readMapBegin();
    checkContainer(header.size);
    if (!DecodingRules.elementsMatch(header.size, header.keyType, node.keyWire)
        || !DecodingRules.elementsMatch(header.size, header.valueType, node.valueWire)) {
      throw GIVE_UP;
    }
    startMap(node, header.size);
    return header;
  }

  /** A list or set header read by another protocol (which has checked it its own way). */
  private void decoratedList(Node node, int size, byte elementType) throws TException {
    checkContainer(size);
    if (!DecodingRules.elementsMatch(size, elementType, node.elementWire)) {
      throw GIVE_UP;
    }
    enterList(node, size);
  }

  private TList binaryList() throws TException {
    byte elementType = nextByte();
    int size = nextI32();
    checkHeader(size, BinaryWire.minSize(elementType));
    return new TList(elementType, size);
  }

  private TSet binarySet() throws TException {
    byte elementType = nextByte();
    int size = nextI32();
    checkHeader(size, BinaryWire.minSize(elementType));
    return new TSet(elementType, size);
  }

  private TMap binaryMap() throws TException {
    byte keyType = nextByte();
    byte valueType = nextByte();
    int size = nextI32();
    int keySize = BinaryWire.minSize(keyType);
    int valueSize = BinaryWire.minSize(valueType);
    checkHeader(size, keySize == 0 || valueSize == 0 ? 0 : keySize + valueSize);
    return new TMap(keyType, valueType, size);
  }

  private <T> T skippedContainer(T header) throws TException {
    if (++skipDepth > MAX_SKIP_DEPTH) {
      throw GIVE_UP;
    }
    return header;
  }

  @Override
  public void readListEnd() throws TException {
    if (slow) {
      slowContainerEnd(FRAME_LIST);
      if (!binary) {
        delegate.readListEnd();
      }
    } else {
      pop(FRAME_LIST);
    }
  }

  @Override
  public void readSetEnd() throws TException {
    if (slow) {
      slowContainerEnd(FRAME_LIST);
      if (!binary) {
        delegate.readSetEnd();
      }
    } else {
      pop(FRAME_LIST);
    }
  }

  @Override
  public void readMapEnd() throws TException {
    if (slow) {
      slowContainerEnd(FRAME_MAP);
      if (!binary) {
        delegate.readMapEnd();
      }
    } else {
      pop(FRAME_MAP);
    }
  }

  private void slowContainerEnd(int kind) throws TException {
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
    if (slow) {
      return slowBool();
    }
    if (kinds[take()] != K_BOOL) {
      throw GIVE_UP;
    }
    return nextByte() == 1;
  }

  private boolean slowBool() throws TException {
    if (skipDepth < 0 && kinds[take()] != K_BOOL) {
      throw GIVE_UP;
    }
    return binary ? nextByte() == 1 : delegate.readBool();
  }

  @Override
  public byte readByte() throws TException {
    if (slow) {
      return slowByte();
    }
    if (kinds[take()] != K_BYTE) {
      throw GIVE_UP;
    }
    return nextByte();
  }

  private byte slowByte() throws TException {
    if (skipDepth < 0 && kinds[take()] != K_BYTE) {
      throw GIVE_UP;
    }
    return binary ? nextByte() : delegate.readByte();
  }

  @Override
  public short readI16() throws TException {
    if (slow) {
      return slowI16();
    }
    if (kinds[take()] != K_I16) {
      throw GIVE_UP;
    }
    return nextI16();
  }

  private short slowI16() throws TException {
    if (skipDepth < 0 && kinds[take()] != K_I16) {
      throw GIVE_UP;
    }
    return binary ? nextI16() : delegate.readI16();
  }

  @Override
  public int readI32() throws TException {
    if (slow) {
      return slowI32();
    }
    int value = nextI32();
    int node = take();
    if (kinds[node] != K_I32) {
      checkEnum(node, value);
    }
    return value;
  }

  private int slowI32() throws TException {
    int value = binary ? nextI32() : delegate.readI32();
    if (skipDepth < 0) {
      int node = take();
      if (kinds[node] != K_I32) {
        checkEnum(node, value);
      }
    }
    return value;
  }

  private void checkEnum(int index, int value) throws TException {
    Node node = nodes[index];
    if (node.kind != K_ENUM) {
      throw GIVE_UP;
    }
    int[] lengths = node.enumLengths;
    int length;
    if (lengths != null) {
      long offset = (long) value - node.enumMin;
      length = offset >= 0 && offset < lengths.length ? lengths[(int) offset] : -1;
    } else {
      String name = node.enumType.nameOf(value);
      length = name == null ? -1 : DecodingRules.enumNameCost(name);
    }
    if (length < 0) {
      throw GIVE_UP; // the generated object cannot hold it
    }
    rowBytes += length;
  }

  @Override
  public long readI64() throws TException {
    if (slow) {
      return slowI64();
    }
    if (kinds[take()] != K_I64) {
      throw GIVE_UP;
    }
    return nextI64();
  }

  private long slowI64() throws TException {
    if (skipDepth < 0 && kinds[take()] != K_I64) {
      throw GIVE_UP;
    }
    return binary ? nextI64() : delegate.readI64();
  }

  @Override
  public double readDouble() throws TException {
    if (slow) {
      return slowDouble();
    }
    if (kinds[take()] != K_DOUBLE) {
      throw GIVE_UP;
    }
    return Double.longBitsToDouble(nextI64());
  }

  private double slowDouble() throws TException {
    if (skipDepth < 0 && kinds[take()] != K_DOUBLE) {
      throw GIVE_UP;
    }
    return binary ? Double.longBitsToDouble(nextI64()) : delegate.readDouble();
  }

  /**
   * A string as the JDK's UTF-8 decoder gives it (what the two-pass path stores, and what {@code
   * TBinaryProtocol.readString} returns), once it is known to be well-formed and within the length
   * limit.
   */
  @Override
  public String readString() throws TException {
    if (slow) {
      return slowString();
    }
    if (kinds[take()] != K_STRING) {
      throw GIVE_UP;
    }
    int length = nextLength();
    int offset = pos;
    byte[] bytes = buf;
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    pos = offset + length;
    checkUtf8(text, bytes, offset, length);
    return text;
  }

  private String slowString() throws TException {
    if (skipDepth >= 0 || kinds[take()] != K_STRING) {
      throw GIVE_UP; // the skipping code reads binary
    }
    ByteBuffer buffer = delegate.readBinary();
    int length = buffer.remaining();
    if (!rules.lengthFits(length) || !buffer.hasArray()) {
      throw GIVE_UP;
    }
    byte[] bytes = buffer.array();
    int offset = buffer.arrayOffset() + buffer.position();
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    checkUtf8(text, bytes, offset, length);
    return text;
  }

  private void checkUtf8(String text, byte[] bytes, int offset, int length) throws TException {
    if (!DecodingRules.isWellFormed(text, bytes, offset, length)) {
      throw GIVE_UP; // the rules refuse it, or replace it as libthrift does not
    }
    rowBytes += length;
  }

  @Override
  public ByteBuffer readBinary() throws TException {
    if (slow) {
      return slowBinary();
    }
    if (kinds[take()] != K_BINARY) {
      throw GIVE_UP;
    }
    ByteBuffer buffer = binaryBytes();
    binaryRowBytes(buffer.remaining());
    return buffer;
  }

  private ByteBuffer slowBinary() throws TException {
    if (skipDepth >= 0) {
      return binary ? binaryBytes() : delegate.readBinary();
    }
    if (kinds[take()] != K_BINARY) {
      throw GIVE_UP;
    }
    ByteBuffer buffer = binary ? binaryBytes() : delegate.readBinary();
    int length = buffer.remaining();
    if (!rules.lengthFits(length)) {
      throw GIVE_UP;
    }
    binaryRowBytes(length);
    return buffer;
  }

  private void binaryRowBytes(int length) {
    rowBytes += DecodingRules.binaryRowBytes(length);
  }

  /** As {@code TBinaryProtocol.readBinary}: the bytes where they are in the payload. */
  private ByteBuffer binaryBytes() throws TException {
    int length = nextLength();
    int offset = pos;
    pos = offset + length;
    return ByteBuffer.wrap(buf, offset, length);
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
}
