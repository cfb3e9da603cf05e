package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.ingest.schema.ColumnShape;
import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Utf8;
import org.apache.thrift.TBase;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The one place where the decoder decides: the size limits (a string's or binary's bytes, a
 * container's elements, the row's estimated size, the nesting of a skipped field), UTF-8 validity,
 * enum numbers the IDL does not name, skipped unknown fields, a container's element types, required
 * fields and union members, and what every value adds to the row-size estimate.
 *
 * <p>Every reader calls these methods rather than repeating a check: the codec tree ({@link
 * StructCodec}) through the throwing methods, which refuse with the dead letter's reason or keep
 * and count; the one-pass readers ({@link DirectProtoWriter}, {@link CheckingProtocol}) through the
 * side-effect-free predicates, and give up (hand the payload to the codec tree) wherever one says
 * no, so the codec tree gives the outcome and its reason. A new rule is one edit here, and its test
 * in {@code DecodingRulesTest}. The predicates are small final methods on primitives, which C2
 * inlines into the readers: nothing is allocated or boxed per value.
 *
 * <p>One instance per converter path, not thread-safe; it also counts what it kept or replaced, for
 * the metrics.
 */
final class DecodingRules {
  /**
   * How deep the struct and container headers inside a skipped unknown field may nest: a hostile
   * payload could otherwise make the skip recurse until the stack overflows.
   */
  static final int MAX_SKIP_DEPTH = 64;

  private final int maxStringBytes;
  private final int maxContainerElements;
  private final UnknownEnumValues unknownEnums;
  private final InvalidUtf8 invalidUtf8;
  private final long maxRowBytes;
  private long unknownEnumValues;
  private long invalidUtf8Replaced;

  /**
   * An upper bound of what the row being decoded weighs in the largest encoding the sinks send (the
   * JSON of a TableRow for streaming inserts; the Storage Write API's protos are smaller): string
   * bytes, binary as base64, enum names, column names, and for every number its widest form.
   * Characters JSON escapes (quotes, control characters) count once.
   */
  private long rowBytes;

  /**
   * The most JSON characters a value of {@code type} takes besides its content (a string's or
   * binary's bytes and an enum's name are added as they are read): the widest number, quotes,
   * brackets.
   */
  static int valueCost(ThriftType type) {
    if (type instanceof ThriftType.Primitive primitive) {
      return switch (primitive.kind()) {
        case BOOL -> 5;
        case I8 -> 6;
        case I16 -> 8;
        case I32 -> 13;
        case I64 -> 22;
        case DOUBLE -> 26;
        case STRING, BINARY -> 2;
      };
    }
    return 2; // an enum's quotes, a record's braces, a list's brackets
  }

  /** {@code "name":value,} for a column: the name, its quotes, the colon and the comma. */
  static int fieldCost(String name, ThriftType type) {
    return name.length() + 4 + valueCost(type);
  }

  /**
   * What each element of a list or set of {@code element} adds besides its content: its value and
   * comma, and for an element that is itself a container the wrapper record {@code {"value":...}}.
   */
  static int listElementCost(ThriftType element) {
    return valueCost(element) + (ColumnShape.needsWrapper(element) ? 12 : 1);
  }

  /** What each entry of a map adds besides its content: {@code {"key":K,"value":V},}. */
  static int mapEntryCost(ThriftType key, ThriftType value) {
    return 20 + valueCost(key) + valueCost(value);
  }

  /** What a binary value of {@code length} bytes adds: its bytes, and base64 in JSON. */
  static long binaryRowBytes(int length) {
    return (long) length + length / 3 + 4;
  }

  /** What an enum value adds besides its quotes: its name, or {@code UNKNOWN_<number>}. */
  static int enumNameCost(@Nullable String name) {
    return name == null ? 20 : name.length();
  }

  /**
   * NaN as the one canonical NaN: a payload can carry any of 2^52 NaN bit patterns, which Thrift
   * reads as they are but writes back canonical, so without this the same event would give other
   * bytes through a user function (which may re-serialize) than straight from the wire.
   */
  static double canonical(double value) {
    return value != value ? Double.NaN : value;
  }

  /**
   * Whether a field absent from the wire takes a default: what the generated constructor sets
   * ({@code emptyObject}, a new instance), or for a struct read from an IDL ({@code emptyObject}
   * null) its IDL default. The README's rule, the same for both sources: generated classes report a
   * defaulted number or bool as unset (its isset bit stays clear), so only defaults of other types
   * fill a column. A union's members never do: the compiler lets one member have a default, which a
   * new union object is set to, but libthrift's reader clears it before reading the member on the
   * wire, so a union holds only that member.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static boolean takesDefault(ThriftStruct owner, @Nullable TBase emptyObject, ThriftField field) {
    if (owner.isUnion()) {
      return false;
    }
    if (emptyObject != null) {
      return emptyObject.isSet(field.fieldEnum());
    }
    return field.idlDefault() != null
        && !(field.type() instanceof ThriftType.Primitive primitive
            && primitive.kind() != ThriftType.PrimitiveKind.STRING
            && primitive.kind() != ThriftType.PrimitiveKind.BINARY);
  }

  DecodingRules(
      int maxStringBytes,
      int maxContainerElements,
      long maxRowBytes,
      UnknownEnumValues unknownEnums,
      InvalidUtf8 invalidUtf8) {
    this.maxStringBytes = maxStringBytes;
    this.maxContainerElements = maxContainerElements;
    this.maxRowBytes = maxRowBytes;
    this.unknownEnums = unknownEnums;
    this.invalidUtf8 = invalidUtf8;
  }

  /** Starts the size estimate of a new row. */
  void startRow() {
    rowBytes = 0;
  }

  /** Adds {@code bytes} to the estimate of the row being decoded. */
  void addRowBytes(long bytes) {
    rowBytes += bytes;
  }

  long rowBytes() {
    return rowBytes;
  }

  /**
   * Whether a row estimated at {@code rowBytes}, with {@code extraBytes} of metadata columns, is
   * within {@code --maxRowBytes}; for a reader that keeps its own estimate ({@link
   * CheckingProtocol}).
   */
  boolean rowFits(long rowBytes, long extraBytes) {
    return rowBytes + extraBytes <= maxRowBytes;
  }

  /**
   * Refuses a row whose estimated size, with {@code extraBytes} of metadata columns, is above
   * {@code --maxRowBytes}: BigQuery refuses rows over 10 MB whatever the write method, and a row
   * that can never be written must become a dead letter here, with its bytes, not be retried.
   */
  void checkRowSize(long extraBytes) throws ThriftDecodeException {
    if (!rowFits(rowBytes, extraBytes)) {
      long total = rowBytes + extraBytes;
      throw new ThriftDecodeException(
          "the row would be about "
              + total
              + " bytes, more than --maxRowBytes="
              + maxRowBytes
              + " (BigQuery refuses rows over 10 MB)");
    }
  }

  /** Whether a string or binary value of {@code length} bytes is within the limit. */
  boolean lengthFits(int length) {
    return length <= maxStringBytes;
  }

  /** Whether a list, set or map of {@code size} elements is within the limit. */
  boolean sizeFits(int size) {
    return size <= maxContainerElements;
  }

  /**
   * Refuses a string or binary value longer than {@code --maxThriftStringBytes}. The protocols
   * already refuse a declared length beyond the payload before allocating; not every protocol
   * applies the configured limit to every read, so it is applied here, the same for all.
   */
  void checkLength(int length) throws InvalidFieldValueException {
    if (!lengthFits(length)) {
      throw tooLong(length);
    }
    rowBytes += length;
  }

  /** {@link #checkLength} for a binary value, which also adds its base64 to the estimate. */
  void checkBinary(int length) throws InvalidFieldValueException {
    if (!lengthFits(length)) {
      throw tooLong(length);
    }
    rowBytes += binaryRowBytes(length);
  }

  private InvalidFieldValueException tooLong(int length) {
    return new InvalidFieldValueException(
        "value of " + length + " bytes is longer than --maxThriftStringBytes=" + maxStringBytes);
  }

  /** Refuses a list, set or map declaring more than {@code --maxThriftContainerElements}. */
  void checkElements(int size) throws InvalidFieldValueException {
    if (!sizeFits(size)) {
      throw new InvalidFieldValueException(
          "container of "
              + size
              + " elements is larger than --maxThriftContainerElements="
              + maxContainerElements);
    }
  }

  /**
   * Whether a container's elements (a map's keys or values) of wire type {@code wireType} are the
   * IDL's {@code idlWireType}; an empty container's declared type does not matter.
   */
  static boolean elementsMatch(int size, int wireType, int idlWireType) {
    return size == 0 || wireType == idlWireType;
  }

  /** Refuses a list or set whose elements are not of the IDL's wire type. */
  static ThriftDecodeException elementsMismatch(byte wireType, byte idlWireType) {
    return new ThriftDecodeException(
        "Container holds elements of wire type " + wireType + " where the IDL says " + idlWireType);
  }

  /** Refuses a map whose keys or values are not of the IDL's wire types. */
  static ThriftDecodeException entriesMismatch(
      byte keyType, byte valueType, byte idlKeyType, byte idlValueType) {
    return new ThriftDecodeException(
        "Map holds entries of wire types "
            + keyType
            + "/"
            + valueType
            + " where the IDL says "
            + idlKeyType
            + "/"
            + idlValueType);
  }

  /**
   * Whether every required field is present: {@code seen} holds a bit per field read, {@code
   * required} the bits of the required ones. A union's members are never required.
   */
  static boolean requiredPresent(long seen, long required) {
    return (seen & required) == required;
  }

  /** Refuses a struct without one of its required fields. */
  static ThriftDecodeException missingRequired(String struct, String field) {
    return new ThriftDecodeException(
        "Required field '"
            + field
            + "' of "
            + struct
            + " is missing: the payload is not a valid "
            + struct
            + " (wrong struct type, or a writer that skipped validation)");
  }

  /**
   * Whether a union holds a value: exactly one member the IDL knows, and no other field. The
   * generated reader reads one field and takes the next header for the STOP: anything else on the
   * wire desynchronizes it, and a union without a known member holds no value.
   */
  static boolean unionHoldsOne(int knownMembers, int skippedFields) {
    return knownMembers == 1 && skippedFields == 0;
  }

  /** Refuses a union that {@link #unionHoldsOne} does not accept. */
  static ThriftDecodeException notOneMember(String union, int knownMembers, int skippedFields) {
    return new ThriftDecodeException(
        "Union "
            + union
            + " has "
            + knownMembers
            + " fields set"
            + (skippedFields == 0 ? "" : " and " + skippedFields + " the IDL does not know")
            + "; a union holds exactly one known field");
  }

  /** The enum's name for {@code number}, or {@code UNKNOWN_<number>} under KEEP. */
  String enumName(ThriftEnum type, int number) throws InvalidFieldValueException {
    String name = type.nameOf(number);
    rowBytes += enumNameCost(name);
    if (name != null) {
      return name;
    }
    unknownEnumValues++;
    if (unknownEnums == UnknownEnumValues.DEAD_LETTER) {
      throw new InvalidFieldValueException(
          "enum "
              + type.name()
              + " has no value "
              + number
              + " (a producer on a newer IDL? --unknownEnumValues=KEEP stores it as UNKNOWN_"
              + number
              + ")");
    }
    return unknownName(number);
  }

  static String unknownName(int number) {
    return "UNKNOWN_" + number;
  }

  /** Whether {@code length} bytes of {@code bytes} from {@code offset} are well-formed UTF-8. */
  static boolean isWellFormed(byte[] bytes, int offset, int length) {
    return Utf8.isWellFormed(bytes, offset, length); // ASCII first, then the multi-byte checks
  }

  /**
   * {@link #isWellFormed(byte[], int, int)} when the JDK has already decoded the bytes into {@code
   * decoded}: one char per byte and no U+FFFD means every byte was ASCII (valid multi-byte UTF-8
   * always gives fewer chars than bytes; an invalid byte gives U+FFFD). For an ASCII string this
   * costs nothing more: a Latin-1 string cannot hold U+FFFD, so indexOf returns at once.
   */
  static boolean isWellFormed(String decoded, byte[] bytes, int offset, int length) {
    return (decoded.length() == length && decoded.indexOf('\uFFFD') < 0)
        || Utf8.isWellFormed(bytes, offset, length);
  }

  /**
   * Checks {@code length} bytes of {@code bytes} from {@code offset}, which hold a string field:
   * true when they are valid UTF-8; false when they are not and REPLACE lets the caller decode them
   * with replacement.
   */
  boolean acceptUtf8(byte[] bytes, int offset, int length) throws InvalidFieldValueException {
    if (isWellFormed(bytes, offset, length)) {
      return true;
    }
    refuseOrReplaceUtf8();
    return false;
  }

  private void refuseOrReplaceUtf8() throws InvalidFieldValueException {
    if (invalidUtf8 == InvalidUtf8.DEAD_LETTER) {
      throw new InvalidFieldValueException(
          "string is not valid UTF-8 (--invalidUtf8=REPLACE stores it with U+FFFD instead)");
    }
    invalidUtf8Replaced++;
  }

  /** A string field's text under these rules. */
  String string(byte[] bytes, int offset, int length) throws InvalidFieldValueException {
    checkLength(length);
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (!isWellFormed(text, bytes, offset, length)) {
      refuseOrReplaceUtf8();
    }
    return text;
  }

  /** Distinct unknown fields remembered per report; more are counted but not named. */
  static final int MAX_NAMED_UNKNOWN_FIELDS = 32;

  private long unknownFields;

  // The distinct skipped fields seen since the last report, kept as (struct, packed key, count)
  // so that a skipped field costs no allocation: a producer on a newer IDL sends one in every
  // event, and a hostile payload can hold thousands of one-byte fields. Names are built only when
  // the counts are taken (found by fuzzing: 4 KB of one-byte unknown fields allocated 4.2 MB).
  private final String[] namedStructs = new String[MAX_NAMED_UNKNOWN_FIELDS];
  private final int[] namedKeys = new int[MAX_NAMED_UNKNOWN_FIELDS];
  private final long[] namedCounts = new long[MAX_NAMED_UNKNOWN_FIELDS];
  private int named;

  /**
   * Records a field the decoder skipped: an id the IDL does not know (a producer on a newer IDL),
   * or a known id with another wire type (a changed type).
   */
  void unknownField(String structName, short id, byte wireType, boolean knownId) {
    unknownFields++;
    // An unknown id is named by its id alone; a known id with another type also by the type.
    int key = (id & 0xFFFF) << 16 | (knownId ? 0x100 | (wireType & 0xFF) : 0);
    for (int i = 0; i < named; i++) {
      if (namedKeys[i] == key && namedStructs[i].equals(structName)) {
        namedCounts[i]++;
        return;
      }
    }
    if (named < MAX_NAMED_UNKNOWN_FIELDS) {
      namedStructs[named] = structName;
      namedKeys[named] = key;
      namedCounts[named] = 1;
      named++;
    }
  }

  private static String unknownFieldName(String structName, int key) {
    short id = (short) (key >>> 16);
    boolean knownId = (key & 0x100) != 0;
    return structName
        + "."
        + id
        + (knownId ? " (wire type " + (byte) (key & 0xFF) + ", not the IDL's)" : "");
  }

  /** Fields skipped so far, for a check around one payload. */
  long unknownFieldCount() {
    return unknownFields;
  }

  /** Skipped fields by {@code Struct.id} since the last call (at most 32 named), and the total. */
  UnknownFields takeUnknownFields() {
    if (unknownFields == 0) {
      return UnknownFields.NONE;
    }
    Map<String, Long> byName = new LinkedHashMap<>();
    for (int i = 0; i < named; i++) {
      byName.put(unknownFieldName(namedStructs[i], namedKeys[i]), namedCounts[i]);
      namedStructs[i] = null;
    }
    UnknownFields taken = new UnknownFields(unknownFields, Map.copyOf(byName));
    unknownFields = 0;
    named = 0;
    return taken;
  }

  long takeUnknownEnumValues() {
    long count = unknownEnumValues;
    unknownEnumValues = 0;
    return count;
  }

  long takeInvalidUtf8Replaced() {
    long count = invalidUtf8Replaced;
    invalidUtf8Replaced = 0;
    return count;
  }
}
