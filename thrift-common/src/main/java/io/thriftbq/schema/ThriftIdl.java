package io.thriftbq.schema;

import com.microsoft.thrifty.schema.BuiltinType;
import com.microsoft.thrifty.schema.Constant;
import com.microsoft.thrifty.schema.EnumMember;
import com.microsoft.thrifty.schema.EnumType;
import com.microsoft.thrifty.schema.ErrorReporter;
import com.microsoft.thrifty.schema.Field;
import com.microsoft.thrifty.schema.ListType;
import com.microsoft.thrifty.schema.LoadFailedException;
import com.microsoft.thrifty.schema.Loader;
import com.microsoft.thrifty.schema.Location;
import com.microsoft.thrifty.schema.MapType;
import com.microsoft.thrifty.schema.NamespaceScope;
import com.microsoft.thrifty.schema.Schema;
import com.microsoft.thrifty.schema.SetType;
import com.microsoft.thrifty.schema.StructType;
import com.microsoft.thrifty.schema.TypedefType;
import com.microsoft.thrifty.schema.parser.ConstValueElement;
import com.microsoft.thrifty.schema.parser.DoubleValueElement;
import com.microsoft.thrifty.schema.parser.IdentifierValueElement;
import com.microsoft.thrifty.schema.parser.IntValueElement;
import com.microsoft.thrifty.schema.parser.ListValueElement;
import com.microsoft.thrifty.schema.parser.LiteralValueElement;
import com.microsoft.thrifty.schema.parser.MapValueElement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TTransportException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads a struct's description from Thrift IDL files with thrifty-schema (a maintained parser), so
 * a user's events need no code generator and no rebuild. Typedefs (of containers too), enums with
 * gaps, unions, exceptions, constants, field defaults, namespaces and includes are resolved here,
 * once, at launch; the result is the same {@link ThriftStruct} model a generated class gives, and
 * it is serializable, so workers never parse.
 *
 * <p>Every problem names the file and line and says what to change.
 */
public final class ThriftIdl {
  private ThriftIdl() {}

  /**
   * Why an IDL the Apache Thrift compiler accepts can have "duplicate" ids here ({@link
   * CompilerFieldIds} says how ids written and left out are told apart once it is read).
   */
  private static final String IMPLICIT_ID_COLLISION =
      ". If a field in that struct has no id: the Apache Thrift compiler numbers such fields -1,"
          + " -2, ..., but the IDL reader numbers each after the field before it, so a field"
          + " without an id before fields with ids can collide with one of them. Give it an id"
          + " (events written with the old one then carry it as an unknown field), or read the"
          + " events with the classes the compiler generated from this IDL (--thriftClassName)";

  /** The Apache Thrift compiler takes a default for a binary field; the IDL reader does not. */
  private static final String BINARY_DEFAULT =
      ". The IDL reader does not take a default value for a binary field, which the Apache Thrift"
          + " compiler does: remove that default (a field left out of an event is then NULL, not"
          + " the default), or read the events with the classes the compiler generated from this"
          + " IDL (--thriftClassName)";

  /**
   * Loads {@code structName} from the IDL at {@code idlFile} (local files; see {@link IdlFiles} for
   * remote ones).
   *
   * @param includePaths directories searched for {@code include}d files after the including file's
   *     own directory
   * @param structName the struct, union or exception; {@code program.Name} when the name alone is
   *     ambiguous ({@code program} is the file name without {@code .thrift})
   * @throws IllegalArgumentException with file, line and what to change
   */
  public static ThriftStruct load(Path idlFile, List<Path> includePaths, String structName) {
    if (structName == null || structName.isBlank()) {
      throw new IllegalArgumentException(
          "No struct named: set --thriftStruct to the struct of your events in " + idlFile);
    }
    return loadAll(idlFile, includePaths, List.of(structName), "--thriftStruct").get(0);
  }

  /**
   * Loads each of {@code structNames} from the IDL at {@code idlFile}, parsing it once; structs
   * they share are shared (one {@link ThriftStruct} each).
   *
   * @param option the option that named the structs, for messages
   * @throws IllegalArgumentException with file, line and what to change
   */
  public static List<ThriftStruct> loadAll(
      Path idlFile, List<Path> includePaths, List<String> structNames, String option) {
    if (!Files.isRegularFile(idlFile)) {
      throw new IllegalArgumentException(
          "IDL file " + idlFile + " does not exist or is not a file: check --thriftIdl");
    }
    Loader loader = new Loader().addThriftFile(idlFile.toAbsolutePath().normalize());
    for (Path include : includePaths) {
      if (!Files.isDirectory(include)) {
        throw new IllegalArgumentException(
            "Include path " + include + " is not a directory: check --thriftIdlIncludePath");
      }
      loader.addIncludePath(include.toAbsolutePath().normalize());
    }
    Schema schema;
    try {
      schema = loader.load();
    } catch (LoadFailedException e) {
      String reports = reportsOf(e);
      throw new IllegalArgumentException(
          "The IDL "
              + idlFile
              + " cannot be read: "
              + reports
              + (reports.contains("duplicate field ID") ? IMPLICIT_ID_COLLISION : "")
              + (reports.contains("Binary constants are unsupported") ? BINARY_DEFAULT : ""),
          e);
    } catch (RuntimeException e) {
      // thrifty reports a missing include as an unchecked exception from its loader.
      throw new IllegalArgumentException(
          "The IDL " + idlFile + " cannot be read: " + e.getMessage(), e);
    } catch (AssertionError e) {
      // thrifty's parser takes a negative hexadecimal number (-0x10), which the Apache Thrift
      // compiler reads, and its loader then fails an assertion on it.
      throw new IllegalArgumentException(
          "The IDL "
              + idlFile
              + " cannot be read: "
              + e.getMessage()
              + ". The IDL reader cannot read a negative hexadecimal number: write it in decimal"
              + " (-0x10 is -16)",
          e);
    }
    Converter converter = new Converter(schema);
    List<ThriftStruct> structs = new ArrayList<>();
    for (String name : structNames) {
      structs.add(converter.struct(find(schema, name.trim(), idlFile, option)));
    }
    return structs;
  }

  /**
   * A short, stable fingerprint of a resolved struct's shape (names, ids, types, requirements,
   * defaults): two launches with the same IDL struct get the same value.
   */
  public static String fingerprint(ThriftStruct struct) {
    StringBuilder text = new StringBuilder();
    describe(struct, text);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  private static void describe(ThriftStruct struct, StringBuilder out) {
    out.append(struct.isUnion() ? "union " : "struct ").append(struct.qualifiedName()).append('{');
    for (ThriftField field : struct.fields()) {
      out.append(field.id()).append(':').append(field.requirement()).append(' ');
      describe(field.type(), out);
      out.append(' ').append(field.name());
      if (field.idlDefault() != null) {
        out.append('=').append(HexFormat.of().formatHex(field.idlDefault()));
      }
      out.append(';');
    }
    out.append('}');
  }

  private static void describe(ThriftType type, StringBuilder out) {
    if (type instanceof ThriftType.Primitive p) {
      out.append(p.kind()).append('/').append(p.typedefName());
    } else if (type instanceof ThriftType.EnumRef e) {
      out.append("enum ").append(e.enumType().name()).append('{');
      e.enumType().members().forEach(m -> out.append(m.name()).append('=').append(m.value()));
      out.append('}');
    } else if (type instanceof ThriftType.StructRef s) {
      describe(s.struct(), out);
    } else if (type instanceof ThriftType.MapOf m) {
      describe(m.key(), out.append("map<"));
      describe(m.value(), out.append(','));
      out.append('>');
    } else {
      describe(
          ThriftType.elementOf(type),
          out.append(type instanceof ThriftType.SetOf ? "set<" : "list<"));
      out.append('>');
    }
  }

  private static String reportsOf(LoadFailedException e) {
    ErrorReporter reporter = e.getErrorReporter();
    List<String> reports = reporter == null ? List.of() : reporter.formattedReports();
    if (reports.isEmpty()) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return String.valueOf(cause.getMessage());
    }
    // thrifty writes "(at /dir/file.thrift: (2, 27))"; say it the way compilers do.
    return reports.stream()
        .map(r -> r.replaceAll("\\(at (.*?): \\((\\d+), (\\d+)\\)\\)", "(at $1:$2:$3)"))
        .collect(Collectors.joining("; "));
  }

  private static StructType find(Schema schema, String wanted, Path idlFile, String option) {
    List<StructType> all = new ArrayList<>(schema.getStructs());
    all.addAll(schema.getUnions());
    all.addAll(schema.getExceptions());
    List<StructType> matches =
        all.stream()
            .filter(s -> s.getName().equals(wanted) || qualifiedName(s).equals(wanted))
            .collect(Collectors.toList());
    if (matches.size() == 1) {
      return matches.get(0);
    }
    String known =
        all.stream().map(ThriftIdl::qualifiedName).sorted().collect(Collectors.joining(", "));
    if (matches.isEmpty()) {
      throw new IllegalArgumentException(
          option
              + "="
              + wanted
              + ": no struct, union or exception of that name in "
              + idlFile
              + " or its includes; known: "
              + (known.isEmpty() ? "none" : known));
    }
    throw new IllegalArgumentException(
        option
            + "="
            + wanted
            + " is ambiguous: "
            + matches.stream().map(ThriftIdl::qualifiedName).collect(Collectors.joining(", "))
            + "; qualify it with its file name, for example "
            + qualifiedName(matches.get(0)));
  }

  static String qualifiedName(StructType struct) {
    return struct.getLocation().getProgramName() + "." + struct.getName();
  }

  static String where(Location location) {
    return location.getPath() + ":" + location.getLine();
  }

  /** Turns thrifty's model into ours, one struct at a time, rejecting recursion. */
  private static final class Converter {
    private final Schema schema;
    private final Map<StructType, ThriftStruct> done = new IdentityHashMap<>();
    private final Map<StructType, Boolean> inProgress = new LinkedHashMap<>();
    private final Map<EnumType, ThriftEnum> enums = new IdentityHashMap<>();
    private final CompilerFieldIds compilerIds = new CompilerFieldIds();

    Converter(Schema schema) {
      this.schema = schema;
    }

    ThriftStruct struct(StructType type) {
      ThriftStruct existing = done.get(type);
      if (existing != null) {
        return existing;
      }
      if (inProgress.containsKey(type)) {
        String path =
            inProgress.keySet().stream()
                .map(StructType::getName)
                .collect(Collectors.joining(" -> "));
        throw new IllegalArgumentException(
            "Thrift struct "
                + type.getName()
                + " ("
                + where(type.getLocation())
                + ") is recursive (path: "
                + path
                + " -> "
                + type.getName()
                + "); BigQuery tables cannot nest without bound, so recursive structs are not"
                + " supported: break the cycle in the IDL (for example store the child's id)");
      }
      inProgress.put(type, Boolean.TRUE);
      ThriftStruct struct =
          ThriftStruct.fromIdl(
              type.getName(),
              qualifiedName(type),
              type.getNamespaceFor(NamespaceScope.JAVA, NamespaceScope.JVM),
              type.isUnion());
      List<ThriftField> fields = new ArrayList<>();
      int[] ids = compilerIds.of(type.getFields());
      for (int i = 0; i < ids.length; i++) {
        Field field = type.getFields().get(i);
        String location = where(field.getLocation());
        int id = ids[i];
        if (id == 0 || id < Short.MIN_VALUE || id > Short.MAX_VALUE) {
          throw new IllegalArgumentException(
              "Field "
                  + type.getName()
                  + "."
                  + field.getName()
                  + " ("
                  + location
                  + ") has id "
                  + id
                  + ": give every field an explicit positive id (1 to 32767), as the wire"
                  + " format needs one that every writer agrees on");
        }
        ThriftType fieldType =
            type(field.getType(), type.getName() + "." + field.getName(), location);
        byte[] idlDefault =
            field.getDefaultValue() == null
                ? null
                : encodeDefault(field.getType(), field.getDefaultValue(), field, location);
        fields.add(
            new ThriftField(
                (short) id,
                field.getName(),
                field.getRequired()
                    ? ThriftField.Requirement.REQUIRED
                    // The Thrift compiler makes every member of a union optional.
                    : field.getOptional() || type.isUnion()
                        ? ThriftField.Requirement.OPTIONAL
                        : ThriftField.Requirement.DEFAULT,
                fieldType,
                null,
                idlDefault,
                location));
      }
      struct.resolveFields(fields);
      inProgress.remove(type);
      done.put(type, struct);
      return struct;
    }

    private ThriftType type(
        com.microsoft.thrifty.schema.ThriftType type, String fieldPath, String location) {
      String typedef = null;
      com.microsoft.thrifty.schema.ThriftType resolved = type;
      // The generated metadata names the typedef a field was declared with (the outermost one).
      if (resolved instanceof TypedefType typedefType) {
        typedef = typedefType.getName();
      }
      resolved = resolved.getTrueType();
      if (resolved instanceof BuiltinType builtin) {
        ThriftType.PrimitiveKind kind =
            switch (builtin.getName()) {
              case "bool" -> ThriftType.PrimitiveKind.BOOL;
              case "byte", "i8" -> ThriftType.PrimitiveKind.I8;
              case "i16" -> ThriftType.PrimitiveKind.I16;
              case "i32" -> ThriftType.PrimitiveKind.I32;
              case "i64" -> ThriftType.PrimitiveKind.I64;
              case "double" -> ThriftType.PrimitiveKind.DOUBLE;
              case "string" -> ThriftType.PrimitiveKind.STRING;
              case "binary" -> ThriftType.PrimitiveKind.BINARY;
              default ->
                  throw new IllegalArgumentException(
                      "Field "
                          + fieldPath
                          + " ("
                          + location
                          + ") has type "
                          + builtin.getName()
                          + ", which no BigQuery column can hold: give it a value type");
            };
        return new ThriftType.Primitive(kind, typedef);
      }
      if (resolved instanceof EnumType enumType) {
        return new ThriftType.EnumRef(enumOf(enumType));
      }
      if (resolved instanceof StructType structType) {
        return new ThriftType.StructRef(struct(structType));
      }
      if (resolved instanceof ListType list) {
        return new ThriftType.ListOf(type(list.getElementType(), fieldPath, location));
      }
      if (resolved instanceof SetType set) {
        return new ThriftType.SetOf(type(set.getElementType(), fieldPath, location));
      }
      if (resolved instanceof MapType map) {
        return new ThriftType.MapOf(
            type(map.getKeyType(), fieldPath, location),
            type(map.getValueType(), fieldPath, location));
      }
      throw new IllegalArgumentException(
          "Field "
              + fieldPath
              + " ("
              + location
              + ") has type "
              + resolved.getName()
              + ", which is not a value type (a service?): a BigQuery column cannot hold it");
    }

    private ThriftEnum enumOf(EnumType type) {
      return enums.computeIfAbsent(
          type,
          t ->
              ThriftEnum.ofIdl(
                  t.getName(),
                  t.getMembers().stream()
                      .map(m -> new ThriftEnum.Member(m.getName(), m.getValue()))
                      .collect(Collectors.toList())));
    }

    // -------------------------------------------------------------------------------------------
    // Default values, encoded once with the binary protocol so every format reads them with the
    // codec that reads the same field from the wire.

    private byte[] encodeDefault(
        com.microsoft.thrifty.schema.ThriftType type,
        ConstValueElement value,
        Field field,
        String location) {
      try {
        TMemoryBuffer buffer = new TMemoryBuffer(64);
        TProtocol out = new TBinaryProtocol(buffer);
        write(out, type.getTrueType(), value, location);
        byte[] bytes = new byte[buffer.length()];
        System.arraycopy(buffer.getArray(), 0, bytes, 0, bytes.length);
        return bytes;
      } catch (TTransportException e) {
        throw new IllegalStateException("an in-memory buffer cannot fail", e);
      } catch (TException | RuntimeException e) {
        throw new IllegalArgumentException(
            "The default value of field "
                + field.getName()
                + " ("
                + location
                + ") cannot be used: "
                + e.getMessage()
                + "; write it as a literal of the field's type",
            e);
      }
    }

    private void write(
        TProtocol out,
        com.microsoft.thrifty.schema.ThriftType type,
        ConstValueElement value,
        String location)
        throws TException {
      ConstValueElement v = dereference(value, type);
      if (type instanceof BuiltinType builtin) {
        switch (builtin.getName()) {
          case "bool" -> out.writeBool(asLong(v) != 0);
          case "byte", "i8" -> out.writeByte((byte) asLong(v));
          case "i16" -> out.writeI16((short) asLong(v));
          case "i32" -> out.writeI32((int) asLong(v));
          case "i64" -> out.writeI64(asLong(v));
          case "double" ->
              out.writeDouble(
                  v instanceof DoubleValueElement d ? d.getValue() : (double) asLong(v));
          case "string" -> out.writeString(literal(v));
          case "binary" ->
              out.writeBinary(
                  java.nio.ByteBuffer.wrap(literal(v).getBytes(StandardCharsets.UTF_8)));
          default -> throw new IllegalArgumentException("no default for type " + builtin);
        }
        return;
      }
      if (type instanceof EnumType enumType) {
        out.writeI32(enumValue(enumType, v));
        return;
      }
      if (type instanceof ListType list) {
        List<ConstValueElement> items = listOf(v);
        out.writeListBegin(new TList(wireType(list.getElementType()), items.size()));
        for (ConstValueElement item : items) {
          write(out, list.getElementType().getTrueType(), item, location);
        }
        out.writeListEnd();
        return;
      }
      if (type instanceof SetType set) {
        List<ConstValueElement> items = listOf(v);
        out.writeSetBegin(new TSet(wireType(set.getElementType()), items.size()));
        for (ConstValueElement item : items) {
          write(out, set.getElementType().getTrueType(), item, location);
        }
        out.writeSetEnd();
        return;
      }
      if (type instanceof MapType map) {
        Map<ConstValueElement, ConstValueElement> entries = mapOf(v);
        out.writeMapBegin(
            new TMap(wireType(map.getKeyType()), wireType(map.getValueType()), entries.size()));
        for (Map.Entry<ConstValueElement, ConstValueElement> entry : entries.entrySet()) {
          write(out, map.getKeyType().getTrueType(), entry.getKey(), location);
          write(out, map.getValueType().getTrueType(), entry.getValue(), location);
        }
        out.writeMapEnd();
        return;
      }
      if (type instanceof StructType struct) {
        Map<ConstValueElement, ConstValueElement> entries = mapOf(v);
        out.writeStructBegin(new TStruct(struct.getName()));
        for (Map.Entry<ConstValueElement, ConstValueElement> entry : entries.entrySet()) {
          String name = literal(entry.getKey());
          Field member =
              struct.getFields().stream()
                  .filter(f -> f.getName().equals(name))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              struct.getName() + " has no field named " + name));
          out.writeFieldBegin(
              new TField(member.getName(), wireType(member.getType()), (short) member.getId()));
          write(out, member.getType().getTrueType(), entry.getValue(), location);
          out.writeFieldEnd();
        }
        out.writeFieldStop();
        out.writeStructEnd();
        return;
      }
      throw new IllegalArgumentException("no default for type " + type.getName());
    }

    /** Follows a reference to a named constant; {@code true}/{@code false} stay identifiers. */
    private ConstValueElement dereference(
        ConstValueElement value, com.microsoft.thrifty.schema.ThriftType type) {
      ConstValueElement current = value;
      for (int depth = 0; depth < 32 && current instanceof IdentifierValueElement id; depth++) {
        String name = id.getValue();
        if (type instanceof EnumType
            || (type instanceof BuiltinType && ("true".equals(name) || "false".equals(name)))) {
          return current;
        }
        Constant constant = constantNamed(name);
        if (constant == null) {
          throw new IllegalArgumentException("no constant named " + name);
        }
        current = constant.getValue();
      }
      return current;
    }

    private @Nullable Constant constantNamed(String name) {
      for (Constant constant : schema.getConstants()) {
        if (constant.getName().equals(name)
            || (constant.getLocation().getProgramName() + "." + constant.getName()).equals(name)) {
          return constant;
        }
      }
      return null;
    }

    private static long asLong(ConstValueElement value) {
      if (value instanceof IntValueElement i) {
        return i.getValue();
      }
      if (value instanceof IdentifierValueElement id) {
        if ("true".equals(id.getValue())) {
          return 1;
        }
        if ("false".equals(id.getValue())) {
          return 0;
        }
      }
      throw new IllegalArgumentException(value.getThriftText() + " is not an integer");
    }

    private static String literal(ConstValueElement value) {
      if (value instanceof LiteralValueElement literal) {
        return literal.getValue();
      }
      throw new IllegalArgumentException(value.getThriftText() + " is not a string literal");
    }

    private int enumValue(EnumType type, ConstValueElement value) {
      if (value instanceof IntValueElement i) {
        EnumMember member = type.findMemberById((int) i.getValue());
        if (member == null) {
          throw new IllegalArgumentException(i.getValue() + " is not a value of " + type.getName());
        }
        return member.getValue();
      }
      if (value instanceof IdentifierValueElement id) {
        String text = id.getValue();
        String memberName = text.substring(text.lastIndexOf('.') + 1);
        for (EnumMember member : type.getMembers()) {
          if (member.getName().equals(memberName)) {
            return member.getValue();
          }
        }
        Constant constant = constantNamed(text);
        if (constant != null) {
          return enumValue(type, constant.getValue());
        }
      }
      throw new IllegalArgumentException(
          value.getThriftText() + " is not a value of " + type.getName());
    }

    private List<ConstValueElement> listOf(ConstValueElement value) {
      if (value instanceof ListValueElement list) {
        return list.getValue();
      }
      throw new IllegalArgumentException(value.getThriftText() + " is not a list");
    }

    private Map<ConstValueElement, ConstValueElement> mapOf(ConstValueElement value) {
      if (value instanceof MapValueElement map) {
        return map.getValue();
      }
      throw new IllegalArgumentException(value.getThriftText() + " is not a map");
    }

    private static byte wireType(com.microsoft.thrifty.schema.ThriftType type) {
      com.microsoft.thrifty.schema.ThriftType t = type.getTrueType();
      if (t instanceof BuiltinType b) {
        return switch (b.getName()) {
          case "bool" -> org.apache.thrift.protocol.TType.BOOL;
          case "byte", "i8" -> org.apache.thrift.protocol.TType.BYTE;
          case "i16" -> org.apache.thrift.protocol.TType.I16;
          case "i32" -> org.apache.thrift.protocol.TType.I32;
          case "i64" -> org.apache.thrift.protocol.TType.I64;
          case "double" -> org.apache.thrift.protocol.TType.DOUBLE;
          default -> org.apache.thrift.protocol.TType.STRING;
        };
      }
      if (t instanceof EnumType) {
        return org.apache.thrift.protocol.TType.I32;
      }
      if (t instanceof ListType) {
        return org.apache.thrift.protocol.TType.LIST;
      }
      if (t instanceof SetType) {
        return org.apache.thrift.protocol.TType.SET;
      }
      if (t instanceof MapType) {
        return org.apache.thrift.protocol.TType.MAP;
      }
      return org.apache.thrift.protocol.TType.STRUCT;
    }
  }
}
