package io.thriftbq.ingest.schema;

import com.google.api.services.bigquery.model.TableSchema;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

/**
 * A generated protocol buffer class checked against the table schema, for the PROTO_MESSAGE format.
 * Loading it is the launch-time check: a class that does not match the table fails with every
 * difference and the command that regenerates it.
 *
 * @param type the generated message class
 * @param descriptor its descriptor
 */
public record ProtoMessageClass(Class<? extends Message> type, Descriptor descriptor) {

  /**
   * Loads {@code className} and checks it against {@code schema}.
   *
   * @throws IllegalArgumentException saying what is wrong and what to change
   */
  public static ProtoMessageClass load(String className, TableSchema schema) {
    if (className == null || className.isBlank()) {
      throw new IllegalArgumentException(
          "PROTO_MESSAGE needs --protoClassName, the protoc-generated class of the table's"
              + " message (see docs/INGESTION.md, \"The PROTO_MESSAGE format\")");
    }
    Class<?> loaded;
    try {
      loaded = Class.forName(className.trim(), true, ProtoMessageClass.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "--protoClassName=" + className + " is not on the classpath", e);
    }
    if (!Message.class.isAssignableFrom(loaded) || loaded == DynamicMessage.class) {
      throw new IllegalArgumentException(
          "--protoClassName="
              + className
              + " is not a protoc-generated message class (it must extend"
              + " com.google.protobuf.GeneratedMessage)");
    }
    @SuppressWarnings("unchecked")
    Class<? extends Message> type = (Class<? extends Message>) loaded;
    Descriptor descriptor = descriptorOf(type);
    List<String> mismatches = ProtoSchemas.mismatches(descriptor, schema);
    if (!mismatches.isEmpty()) {
      throw new IllegalArgumentException(
          "--protoClassName="
              + className
              + " does not match the table schema derived from the Thrift class and the"
              + " --include* metadata switches: "
              + String.join("; ", mismatches)
              + ". Regenerate it for these options (scripts/export-schema.sh --proto-message"
              + " ..., then protoc; see docs/INGESTION.md)");
    }
    return new ProtoMessageClass(type, descriptor);
  }

  /** The parser of the generated class, from its default instance. */
  @SuppressWarnings("unchecked")
  public Parser<? extends Message> parser() {
    try {
      Message defaultInstance = (Message) type.getMethod("getDefaultInstance").invoke(null);
      return defaultInstance.getParserForType();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type.getName() + " has no getDefaultInstance()", e);
    }
  }

  private static Descriptor descriptorOf(Class<? extends Message> type) {
    try {
      Method method = type.getMethod("getDescriptor");
      if (!Modifier.isStatic(method.getModifiers())) {
        throw new NoSuchMethodException("getDescriptor is not static");
      }
      return (Descriptor) method.invoke(null);
    } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalArgumentException(
          "--protoClassName="
              + type.getName()
              + " has no static getDescriptor(): generate it with protoc --java_out",
          e);
    }
  }
}
