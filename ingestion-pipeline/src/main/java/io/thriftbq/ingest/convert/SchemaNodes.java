package io.thriftbq.ingest.convert;

import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.thrift.protocol.TField;

/**
 * A struct's schema compiled once into the flat tables {@link CheckingProtocol} walks in step with
 * a generated class's {@code read}: every value type is a node known by its index, so that the
 * state of a read holds ints, not references. What each node costs in the row-size estimate comes
 * from {@link DecodingRules}; the binary protocol's minimum sizes from {@link BinaryWire}.
 */
final class SchemaNodes {
  // Value kinds of the schema, as the generated reader reads them; 0 is "no value expected here".
  static final int K_NONE = 0;
  static final int K_BOOL = 1;
  static final int K_BYTE = 2;
  static final int K_I16 = 3;
  static final int K_I32 = 4;
  static final int K_I64 = 5;
  static final int K_DOUBLE = 6;
  static final int K_STRING = 7;
  static final int K_BINARY = 8;
  static final int K_ENUM = 9;
  static final int K_STRUCT = 10;
  static final int K_LIST = 11;
  static final int K_SET = 12;
  static final int K_MAP = 13;

  /**
   * A value's type, compiled from the schema once; known by its index in {@link SchemaNodes#nodes},
   * so that the state of a read holds no references (a reference stored into this long-lived object
   * costs a G1 write barrier, with a memory fence, on every value).
   */
  static final class Node {
    final int kind;
    int index;
    ThriftEnum enumType;

    /**
     * An enum's name lengths (the row-size estimate) by value from {@link #enumMin}, -1 for the
     * values the IDL does not name; null for a sparse enum (then {@link ThriftEnum#nameOf}).
     */
    int[] enumLengths;

    int enumMin;
    StructNode struct;
    int element;
    int key;
    int value;
    byte elementWire;
    byte keyWire;
    byte valueWire;

    /** The row-size estimate per list or set element, or per map entry (as the codec tree). */
    int elementCost;

    /** The fewest bytes a list or set element, or a map entry, takes with the binary protocol. */
    int elementMin;

    Node(int kind) {
      this.kind = kind;
    }
  }

  /**
   * The node index where no value may be read: after a field's value, before a struct's first field
   * header, after the root struct.
   */
  static final int NONE = 0;

  static final class FieldNode {
    final int type;
    final byte wireType;
    final int rowCost;

    /**
     * A required field's bit in {@code CheckingProtocol.seenFields} (the struct's first 64 required
     * fields), 0 for the others.
     */
    final long bit;

    /**
     * Past the first 64 required fields: the word in {@code CheckingProtocol.seenWide}, else -1;
     * and the bit.
     */
    final int wideWord;

    final long wideBit;

    /** The header the binary protocol would return for this field (its fields are final). */
    final TField header;

    FieldNode(short id, int type, byte wireType, int rowCost, int requiredOrdinal) {
      this.type = type;
      this.wireType = wireType;
      this.rowCost = rowCost;
      this.bit = requiredOrdinal >= 0 && requiredOrdinal < 64 ? 1L << requiredOrdinal : 0L;
      this.wideWord = requiredOrdinal >= 64 ? (requiredOrdinal >>> 6) - 1 : -1;
      this.wideBit = requiredOrdinal >= 64 ? 1L << requiredOrdinal : 0L;
      this.header = new TField("", wireType, id);
    }
  }

  static final class StructNode {
    final String name;
    final boolean union;
    int minFieldId;
    FieldNode[] byId;

    /**
     * Bits of the required fields by their order among them (none for a union, as in the codec
     * tree): the first 64, and the words of the others (empty if none).
     */
    long required;

    long[] requiredWide;

    StructNode(ThriftStruct struct) {
      this.name = struct.name();
      this.union = struct.isUnion();
    }
  }

  /** Every node of the schema; index 0 is {@link #NONE}, 1 the root struct. */
  final Node[] nodes;

  /** The kind of every node, by index. */
  final int[] kinds;

  /** For every struct node, by index: its fields by id (offset by the smallest), and its flags. */
  final FieldNode[][] fieldsOf;

  final int[] minFieldIdOf;
  final StructNode[] structOf;
  final boolean[] unionOf;

  /** The most words of required-field bits past the first 64 that any struct needs. */
  final int seenWords;

  SchemaNodes(ThriftStruct struct) {
    Map<ThriftStruct, StructNode> structs = new IdentityHashMap<>();
    List<Node> all = new ArrayList<>();
    all.add(new Node(K_NONE));
    Node root = add(all, new Node(K_STRUCT));
    root.struct = compile(struct, structs, all);
    this.nodes = all.toArray(new Node[0]);
    this.kinds = new int[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      kinds[i] = nodes[i].kind;
    }
    this.fieldsOf = new FieldNode[nodes.length][];
    this.minFieldIdOf = new int[nodes.length];
    this.structOf = new StructNode[nodes.length];
    this.unionOf = new boolean[nodes.length];
    int wideWords = 0;
    for (int i = 0; i < nodes.length; i++) {
      StructNode each = nodes[i].struct;
      if (each != null) {
        fieldsOf[i] = each.union ? new FieldNode[0] : each.byId; // a union's: otherField
        minFieldIdOf[i] = each.minFieldId;
        structOf[i] = each;
        unionOf[i] = each.union;
        wideWords = Math.max(wideWords, each.requiredWide.length);
      }
    }
    this.seenWords = wideWords;
  }

  private static Node add(List<Node> all, Node node) {
    node.index = all.size();
    all.add(node);
    return node;
  }

  private static StructNode compile(
      ThriftStruct struct, Map<ThriftStruct, StructNode> structs, List<Node> all) {
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
    int required = 0;
    for (ThriftField field : fields) {
      if (field.isRequired() && !struct.isUnion()) {
        required++;
      }
    }
    node.requiredWide = new long[Math.max(0, (required - 1) / 64)];
    int ordinal = 0;
    for (ThriftField field : fields) {
      int requiredOrdinal = field.isRequired() && !struct.isUnion() ? ordinal++ : -1;
      FieldNode compiled =
          new FieldNode(
              (short) field.id(),
              compile(field.type(), structs, all).index,
              field.type().wireType(),
              DecodingRules.fieldCost(field.name(), field.type()),
              requiredOrdinal);
      node.byId[field.id() - node.minFieldId] = compiled;
      node.required |= compiled.bit;
      if (compiled.wideWord >= 0) {
        node.requiredWide[compiled.wideWord] |= compiled.wideBit;
      }
    }
    return node;
  }

  private static Node compile(
      ThriftType type, Map<ThriftStruct, StructNode> structs, List<Node> all) {
    if (type instanceof ThriftType.Primitive primitive) {
      return add(
          all,
          new Node(
              switch (primitive.kind()) {
                case BOOL -> K_BOOL;
                case I8 -> K_BYTE;
                case I16 -> K_I16;
                case I32 -> K_I32;
                case I64 -> K_I64;
                case DOUBLE -> K_DOUBLE;
                case STRING -> K_STRING;
                case BINARY -> K_BINARY;
              }));
    }
    if (type instanceof ThriftType.EnumRef ref) {
      Node node = add(all, new Node(K_ENUM));
      node.enumType = ref.enumType();
      EnumNameTable table = EnumNameTable.of(node.enumType);
      if (table != null) {
        node.enumMin = table.min;
        node.enumLengths = table.costs;
      }
      return node;
    }
    if (type instanceof ThriftType.StructRef ref) {
      Node node = add(all, new Node(K_STRUCT));
      node.struct = compile(ref.struct(), structs, all);
      return node;
    }
    if (type instanceof ThriftType.MapOf map) {
      Node node = add(all, new Node(K_MAP));
      node.key = compile(map.key(), structs, all).index;
      node.value = compile(map.value(), structs, all).index;
      node.keyWire = map.key().wireType();
      node.valueWire = map.value().wireType();
      node.elementCost = DecodingRules.mapEntryCost(map.key(), map.value());
      node.elementMin = BinaryWire.minSize(node.keyWire) + BinaryWire.minSize(node.valueWire);
      return node;
    }
    ThriftType element = ThriftType.elementOf(type);
    Node node = add(all, new Node(type instanceof ThriftType.SetOf ? K_SET : K_LIST));
    node.element = compile(element, structs, all).index;
    node.elementWire = element.wireType();
    node.elementCost = DecodingRules.listElementCost(element);
    node.elementMin = BinaryWire.minSize(node.elementWire);
    return node;
  }
}
