package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The protocol buffer form of the table schema, for the PROTO_MESSAGE format: the message a
 * generated class must have so that the Storage Write API can take its bytes as they are.
 *
 * <p>The message is derived from the {@link TableSchema} (not from the Thrift IDL directly), so it
 * describes exactly the table the pipeline writes, metadata columns included. It follows the
 * mapping the Storage Write API documents and Beam's own TableRow converter uses: INTEGER → int64,
 * FLOAT → double, BOOLEAN → bool, STRING → string, BYTES → bytes, TIMESTAMP → int64 microseconds,
 * RECORD → a nested message; REPEATED → repeated, REQUIRED → required, NULLABLE → optional (proto2,
 * so that an absent value stays NULL rather than becoming a zero). Fields are numbered 1, 2, ... in
 * column order at every level, as Beam numbers them, so the bytes equal those of Beam's converters.
 */
public final class ProtoSchemas {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern JAVA_PACKAGE =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");

  private ProtoSchemas() {}

  /**
   * The .proto file describing {@code schema} as message {@code messageName}, whose generated class
   * is {@code javaPackage.messageName}.
   *
   * @throws IllegalArgumentException if a name cannot be used in protocol buffers
   */
  public static FileDescriptorProto fileFor(
      TableSchema schema, String javaPackage, String messageName) {
    if (javaPackage == null || !JAVA_PACKAGE.matcher(javaPackage).matches()) {
      throw new IllegalArgumentException(
          "Java package '" + javaPackage + "' is not a dotted list of Java identifiers");
    }
    if (messageName == null || !messageName.matches("[A-Z][A-Za-z0-9]*")) {
      throw new IllegalArgumentException(
          "Message name '" + messageName + "' must be a CamelCase identifier, like EventRow");
    }
    return FileDescriptorProto.newBuilder()
        .setName(fileName(messageName))
        .setSyntax("proto2")
        .setPackage(javaPackage)
        .setOptions(
            FileOptions.newBuilder()
                .setJavaPackage(javaPackage)
                .setJavaMultipleFiles(true)
                .setJavaOuterClassname(messageName + "Proto"))
        .addMessageType(message(messageName, schema.getFields(), Set.of(messageName)))
        .build();
  }

  /** The file name protoc expects for {@code messageName}: EventRow → event_row.proto. */
  public static String fileName(String messageName) {
    return messageName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT) + ".proto";
  }

  private static DescriptorProto message(
      String name, List<TableFieldSchema> columns, Set<String> enclosingNames) {
    DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(name);
    Set<String> nestedNames = new HashSet<>();
    int number = 1;
    for (TableFieldSchema column : columns) {
      String columnName = column.getName();
      if (!IDENTIFIER.matcher(columnName).matches()) {
        throw new IllegalArgumentException(
            "Column '" + columnName + "' is not a valid protocol buffer field name");
      }
      FieldDescriptorProto.Builder field =
          FieldDescriptorProto.newBuilder()
              .setName(columnName)
              .setNumber(number++)
              .setLabel(label(column));
      if (ColumnShape.isRecord(column)) {
        String nestedName = nestedName(columnName, enclosingNames, nestedNames);
        Set<String> names = new HashSet<>(enclosingNames);
        names.add(nestedName);
        message.addNestedType(message(nestedName, column.getFields(), names));
        field.setType(Type.TYPE_MESSAGE).setTypeName(nestedName);
      } else {
        field.setType(scalarType(column));
      }
      message.addField(field);
    }
    return message.build();
  }

  /**
   * Nested message names: the column name in CamelCase plus "Record", made unique among siblings
   * and distinct from every enclosing message (Java forbids an inner class named like its outer).
   */
  private static String nestedName(String column, Set<String> enclosing, Set<String> siblings) {
    StringBuilder camel = new StringBuilder();
    boolean upper = true;
    for (char c : column.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        camel.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    String base = (camel.length() == 0 ? "Field" : camel.toString()) + "Record";
    String name = base;
    for (int suffix = 2; enclosing.contains(name) || siblings.contains(name); suffix++) {
      name = base + suffix;
    }
    siblings.add(name);
    return name;
  }

  private static String modeOf(TableFieldSchema column) {
    return column.getMode() == null ? "NULLABLE" : column.getMode();
  }

  private static Label label(TableFieldSchema column) {
    return switch (modeOf(column)) {
      case "REPEATED" -> Label.LABEL_REPEATED;
      case "REQUIRED" -> Label.LABEL_REQUIRED;
      default -> Label.LABEL_OPTIONAL;
    };
  }

  private static Type scalarType(TableFieldSchema column) {
    return switch (column.getType()) {
      case "INTEGER", "INT64", "TIMESTAMP" -> Type.TYPE_INT64;
      case "FLOAT", "FLOAT64" -> Type.TYPE_DOUBLE;
      case "BOOLEAN", "BOOL" -> Type.TYPE_BOOL;
      case "STRING" -> Type.TYPE_STRING;
      case "BYTES" -> Type.TYPE_BYTES;
      default ->
          throw new IllegalArgumentException(
              "Column '"
                  + column.getName()
                  + "' has type "
                  + column.getType()
                  + ", which has no protocol buffer mapping here");
    };
  }

  /**
   * Every difference between a generated message and the table schema that would make the Storage
   * Write API refuse or misread its bytes; empty if the class fits. Names compare
   * case-insensitively, as BigQuery column names do.
   */
  public static List<String> mismatches(Descriptor message, TableSchema schema) {
    List<String> problems = new ArrayList<>();
    compare(message, schema.getFields(), "", problems);
    return problems;
  }

  private static void compare(
      Descriptor message, List<TableFieldSchema> columns, String path, List<String> problems) {
    Set<String> expected = new HashSet<>();
    for (TableFieldSchema column : columns) {
      String columnPath = path + column.getName();
      expected.add(column.getName().toLowerCase(Locale.ROOT));
      FieldDescriptor field = findField(message, column.getName());
      if (field == null) {
        problems.add("column " + columnPath + " has no field in " + message.getFullName());
        continue;
      }
      Label label = label(column);
      if (field.toProto().getLabel() != label) {
        problems.add(
            "field "
                + columnPath
                + " is "
                + describe(field.toProto().getLabel())
                + " but the column is "
                + modeOf(column)
                + " (expected "
                + describe(label)
                + ")");
      }
      if (ColumnShape.isRecord(column)) {
        if (field.getType() != FieldDescriptor.Type.MESSAGE) {
          problems.add("field " + columnPath + " is " + field.getType() + ", not a message");
        } else {
          compare(field.getMessageType(), column.getFields(), columnPath + ".", problems);
        }
        continue;
      }
      Type type;
      try {
        type = scalarType(column);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
        continue;
      }
      if (field.toProto().getType() != type) {
        problems.add(
            "field "
                + columnPath
                + " is "
                + field.getType()
                + " but the "
                + column.getType()
                + " column needs "
                + type.name().substring("TYPE_".length()));
      }
    }
    for (FieldDescriptor field : message.getFields()) {
      if (!expected.contains(field.getName().toLowerCase(Locale.ROOT))) {
        problems.add(
            "field "
                + path
                + field.getName()
                + " has no column in the table; the Storage Write API refuses extra fields");
      }
    }
  }

  /** The field of {@code message} for {@code column}, matched as BigQuery does, or null. */
  public static FieldDescriptor findField(Descriptor message, String column) {
    for (FieldDescriptor field : message.getFields()) {
      if (field.getName().equalsIgnoreCase(column)) {
        return field;
      }
    }
    return null;
  }

  private static String describe(Label label) {
    return label.name().substring("LABEL_".length()).toLowerCase(Locale.ROOT);
  }

  /**
   * The .proto source of {@code file}, as protoc reads it; {@code header} lines become comments.
   */
  public static String render(FileDescriptorProto file, List<String> header) {
    StringBuilder out = new StringBuilder();
    for (String line : header) {
      out.append("// ").append(line).append('\n');
    }
    out.append("syntax = \"").append(file.getSyntax()).append("\";\n\n");
    out.append("package ").append(file.getPackage()).append(";\n\n");
    FileOptions options = file.getOptions();
    out.append("option java_package = \"").append(options.getJavaPackage()).append("\";\n");
    out.append("option java_multiple_files = ")
        .append(options.getJavaMultipleFiles())
        .append(";\n");
    out.append("option java_outer_classname = \"")
        .append(options.getJavaOuterClassname())
        .append("\";\n");
    for (DescriptorProto message : file.getMessageTypeList()) {
      out.append('\n');
      renderMessage(message, "", out);
    }
    return out.toString();
  }

  private static void renderMessage(DescriptorProto message, String indent, StringBuilder out) {
    out.append(indent).append("message ").append(message.getName()).append(" {\n");
    String inner = indent + "  ";
    for (FieldDescriptorProto field : message.getFieldList()) {
      out.append(inner)
          .append(describe(field.getLabel()))
          .append(' ')
          .append(
              field.getType() == Type.TYPE_MESSAGE
                  ? field.getTypeName()
                  : field.getType().name().substring("TYPE_".length()).toLowerCase(Locale.ROOT))
          .append(' ')
          .append(field.getName())
          .append(" = ")
          .append(field.getNumber())
          .append(";\n");
    }
    for (DescriptorProto nested : message.getNestedTypeList()) {
      out.append('\n');
      renderMessage(nested, inner, out);
    }
    out.append(indent).append("}\n");
  }
}
