package io.thriftbq.schema;

import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.thrift.TBase;
import org.apache.thrift.TEnum;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.TUnion;
import org.apache.thrift.meta_data.EnumMetaData;
import org.apache.thrift.meta_data.FieldMetaData;
import org.apache.thrift.meta_data.FieldValueMetaData;
import org.apache.thrift.meta_data.ListMetaData;
import org.apache.thrift.meta_data.MapMetaData;
import org.apache.thrift.meta_data.SetMetaData;
import org.apache.thrift.meta_data.StructMetaData;
import org.apache.thrift.protocol.TType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Thrift struct (or union or exception), described either from its generated class's metadata
 * ({@link #of(Class)}, {@link #forClassName(String)}) or from an IDL read at launch ({@link
 * ThriftIdl}). Immutable once resolved. A struct read from an IDL has no class: everything that
 * works from the wire (decoding, every format, the generator, the schemas) works with it, and only
 * what needs generated objects (a user function) asks for {@link #structClass()}.
 */
public final class ThriftStruct implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Map<Class<?>, ThriftStruct> CACHE = new ConcurrentHashMap<>();

  private final String name;
  private final String qualifiedName;
  private final @Nullable String javaPackage;
  private final boolean union;
  private final @Nullable Class<? extends TBase<?, ?>> structClass;
  private transient @Nullable Constructor<? extends TBase<?, ?>> constructor;
  private List<ThriftField> fields; // set once while resolving, then never changed

  private ThriftStruct(Class<? extends TBase<?, ?>> structClass) {
    this.name = structClass.getSimpleName();
    this.qualifiedName = structClass.getName();
    this.javaPackage = structClass.getPackageName();
    this.structClass = structClass;
    this.union = TUnion.class.isAssignableFrom(structClass);
    this.constructor = constructorOf(structClass);
  }

  private ThriftStruct(
      String name, String qualifiedName, @Nullable String javaPackage, boolean union) {
    this.name = name;
    this.qualifiedName = qualifiedName;
    this.javaPackage = javaPackage;
    this.union = union;
    this.structClass = null;
  }

  /** A struct read from an IDL; its fields are set once with {@link #resolveFields}. */
  static ThriftStruct fromIdl(
      String name, String qualifiedName, @Nullable String javaPackage, boolean union) {
    return new ThriftStruct(name, qualifiedName, javaPackage, union);
  }

  void resolveFields(List<ThriftField> resolved) {
    if (fields != null) {
      throw new IllegalStateException(qualifiedName + " is already resolved");
    }
    fields = Collections.unmodifiableList(new ArrayList<>(resolved));
  }

  private static Constructor<? extends TBase<?, ?>> constructorOf(
      Class<? extends TBase<?, ?>> structClass) {
    try {
      return structClass.getConstructor();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          structClass.getName() + " has no public no-argument constructor", e);
    }
  }

  /**
   * Loads {@code className} and describes it.
   *
   * @throws IllegalArgumentException if the class is missing or not a Thrift-generated struct, with
   *     a message that says what to change
   */
  public static ThriftStruct forClassName(String className) {
    return of(loadStructClass(className));
  }

  /** Loads a Thrift struct class by name with a clear error when it is missing or not a struct. */
  @SuppressWarnings("unchecked")
  public static Class<? extends TBase<?, ?>> loadStructClass(String className) {
    if (className == null || className.isBlank()) {
      throw new IllegalArgumentException(
          "No Thrift class given: set it to the fully qualified name of a Thrift-generated struct,"
              + " for example io.thriftbq.sample.Event");
    }
    Class<?> loaded;
    try {
      loaded = Class.forName(className.trim(), true, ThriftStruct.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      try {
        loaded =
            Class.forName(className.trim(), true, Thread.currentThread().getContextClassLoader());
      } catch (ClassNotFoundException again) {
        throw new IllegalArgumentException(
            "Thrift class "
                + className
                + " is not on the classpath: check the name, or add the jar with your generated"
                + " Thrift classes to the pipeline (see README, \"Bring your own IDL\")",
            again);
      }
    }
    if (!TBase.class.isAssignableFrom(loaded)) {
      throw new IllegalArgumentException(
          "Class "
              + className
              + " is not a Thrift struct (it does not implement org.apache.thrift.TBase): name the"
              + " class the Thrift compiler generated for your event struct");
    }
    return (Class<? extends TBase<?, ?>>) loaded;
  }

  /** Describes {@code structClass}; cached, so repeated calls are cheap. */
  public static ThriftStruct of(Class<? extends TBase<?, ?>> structClass) {
    ThriftStruct cached = CACHE.get(structClass);
    if (cached != null) {
      return cached;
    }
    synchronized (CACHE) {
      cached = CACHE.get(structClass);
      if (cached != null) {
        return cached;
      }
      return new Resolver().resolve(structClass);
    }
  }

  /** True when a generated class stands behind this struct. */
  public boolean hasJavaClass() {
    return structClass != null;
  }

  /**
   * The generated class.
   *
   * @throws IllegalStateException when the struct was read from an IDL; the message says why a
   *     class is needed
   */
  public Class<? extends TBase<?, ?>> structClass() {
    if (structClass == null) {
      throw new IllegalStateException(
          qualifiedName
              + " was read from an IDL and has no generated class: a user function or the object"
              + " path needs Thrift-generated classes, so name them with --thriftClassName");
    }
    return structClass;
  }

  /** The IDL name of the struct (the simple class name for a generated class). */
  public String name() {
    return name;
  }

  /** The generated class's name, or {@code program.Name} for a struct read from an IDL. */
  public String qualifiedName() {
    return qualifiedName;
  }

  /** The Java package: the generated class's, or the IDL's {@code namespace java}; may be null. */
  public @Nullable String javaPackage() {
    return javaPackage;
  }

  /** True for a Thrift union: exactly one field is set. */
  public boolean isUnion() {
    return union;
  }

  /** Fields in IDL declaration order. */
  public List<ThriftField> fields() {
    return fields;
  }

  /** A new, empty instance (with the IDL's default values, as the generated constructor sets). */
  public TBase<?, ?> newInstance() {
    Class<? extends TBase<?, ?>> type = structClass();
    try {
      if (constructor == null) {
        constructor = constructorOf(type);
      }
      return constructor.newInstance();
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Cannot instantiate " + type.getName(), e);
    }
  }

  @Override
  public String toString() {
    return (union ? "union " : "struct ") + qualifiedName;
  }

  /** Resolves a class and every struct it references, rejecting recursive definitions. */
  private static final class Resolver {
    private final Set<Class<?>> inProgress = new LinkedHashSet<>();

    ThriftStruct resolve(Class<? extends TBase<?, ?>> structClass) {
      ThriftStruct cached = CACHE.get(structClass);
      if (cached != null) {
        return cached;
      }
      if (!inProgress.add(structClass)) {
        throw new IllegalArgumentException(
            "Thrift struct "
                + structClass.getName()
                + " is recursive (path: "
                + pathTo(structClass)
                + "); BigQuery tables cannot nest without bound, so recursive structs are not"
                + " supported: break the cycle in the IDL (for example store the child's id)");
      }
      ThriftStruct struct = new ThriftStruct(structClass);
      Map<? extends TFieldIdEnum, FieldMetaData> metaData = metaDataOf(structClass);
      List<ThriftField> fields = new ArrayList<>(metaData.size());
      for (Map.Entry<? extends TFieldIdEnum, FieldMetaData> entry : metaData.entrySet()) {
        FieldMetaData field = entry.getValue();
        ThriftType type;
        if (hasBareContainer(field.valueMetaData)) {
          // Thrift's Java generator emits no element metadata for a typedef of a container
          // (typedef list<string> Names); the generated field's generic type still has it.
          type = typeOfJavaField(structClass, field.fieldName);
        } else {
          type = typeOf(field.valueMetaData, structClass, field.fieldName);
        }
        fields.add(
            new ThriftField(
                entry.getKey().getThriftFieldId(),
                field.fieldName,
                ThriftField.Requirement.of(field.requirementType),
                type,
                entry.getKey(),
                null,
                null));
      }
      struct.fields = Collections.unmodifiableList(fields);
      inProgress.remove(structClass);
      CACHE.put(structClass, struct);
      return struct;
    }

    private static boolean hasBareContainer(FieldValueMetaData meta) {
      if (meta instanceof ListMetaData list) {
        return hasBareContainer(list.elemMetaData);
      }
      if (meta instanceof SetMetaData set) {
        return hasBareContainer(set.elemMetaData);
      }
      if (meta instanceof MapMetaData map) {
        return hasBareContainer(map.keyMetaData) || hasBareContainer(map.valueMetaData);
      }
      return meta.type == TType.LIST || meta.type == TType.SET || meta.type == TType.MAP;
    }

    private ThriftType typeOfJavaField(Class<?> owner, String fieldName) {
      try {
        return typeOfJava(owner.getField(fieldName).getGenericType(), owner, fieldName);
      } catch (NoSuchFieldException e) {
        throw new IllegalArgumentException(
            "Field "
                + owner.getSimpleName()
                + "."
                + fieldName
                + " is a typedef of a container, whose element types Thrift's metadata omits, and"
                + " the generated class has no public field to read them from: generate with"
                + " public fields (the default) or avoid typedefs of containers",
            e);
      }
    }

    @SuppressWarnings("unchecked")
    private ThriftType typeOfJava(Type type, Class<?> owner, String fieldName) {
      if (type instanceof ParameterizedType parameterized) {
        Class<?> raw = (Class<?>) parameterized.getRawType();
        Type[] arguments = parameterized.getActualTypeArguments();
        if (List.class.isAssignableFrom(raw)) {
          return new ThriftType.ListOf(typeOfJava(arguments[0], owner, fieldName));
        }
        if (Set.class.isAssignableFrom(raw)) {
          return new ThriftType.SetOf(typeOfJava(arguments[0], owner, fieldName));
        }
        if (Map.class.isAssignableFrom(raw)) {
          return new ThriftType.MapOf(
              typeOfJava(arguments[0], owner, fieldName),
              typeOfJava(arguments[1], owner, fieldName));
        }
      }
      if (type instanceof Class<?> c) {
        if (c == boolean.class || c == Boolean.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.BOOL, null);
        }
        if (c == byte.class || c == Byte.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I8, null);
        }
        if (c == short.class || c == Short.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I16, null);
        }
        if (c == int.class || c == Integer.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I32, null);
        }
        if (c == long.class || c == Long.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I64, null);
        }
        if (c == double.class || c == Double.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.DOUBLE, null);
        }
        if (c == String.class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.STRING, null);
        }
        if (c == ByteBuffer.class || c == byte[].class) {
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.BINARY, null);
        }
        if (TEnum.class.isAssignableFrom(c)) {
          return new ThriftType.EnumRef(ThriftEnum.ofClass((Class<? extends TEnum>) c));
        }
        if (TBase.class.isAssignableFrom(c)) {
          return new ThriftType.StructRef(resolve((Class<? extends TBase<?, ?>>) c));
        }
      }
      throw new IllegalArgumentException(
          "Field "
              + owner.getSimpleName()
              + "."
              + fieldName
              + " has Java type "
              + type.getTypeName()
              + ", which does not map to a Thrift type");
    }

    private String pathTo(Class<?> again) {
      StringBuilder path = new StringBuilder();
      for (Class<?> c : inProgress) {
        path.append(c.getSimpleName()).append(" -> ");
      }
      return path.append(again.getSimpleName()).toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<? extends TFieldIdEnum, FieldMetaData> metaDataOf(Class<?> structClass) {
      // Loading the class runs its static initializer, which registers the metadata map. A
      // struct with no fields registers an empty one; only a class that registers none lacks it.
      Map map = FieldMetaData.getStructMetaDataMap((Class) structClass);
      if (map == null) {
        throw new IllegalArgumentException(
            "Thrift class "
                + structClass.getName()
                + " has no field metadata: generate it with the Java generator of Apache Thrift"
                + " 0.9 or newer (metadata is on by default)");
      }
      return map;
    }

    @SuppressWarnings("unchecked")
    private ThriftType typeOf(FieldValueMetaData meta, Class<?> owner, String fieldName) {
      String typedef = meta.isTypedef() ? meta.getTypedefName() : null;
      switch (meta.type) {
        case TType.BOOL:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.BOOL, typedef);
        case TType.BYTE:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I8, typedef);
        case TType.I16:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I16, typedef);
        case TType.I32:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I32, typedef);
        case TType.I64:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.I64, typedef);
        case TType.DOUBLE:
          return new ThriftType.Primitive(ThriftType.PrimitiveKind.DOUBLE, typedef);
        case TType.STRING:
          return new ThriftType.Primitive(
              meta.isBinary() ? ThriftType.PrimitiveKind.BINARY : ThriftType.PrimitiveKind.STRING,
              typedef);
        case TType.ENUM:
          return new ThriftType.EnumRef(ThriftEnum.ofClass(((EnumMetaData) meta).enumClass));
        case TType.STRUCT:
          if (meta instanceof StructMetaData structMeta) {
            return new ThriftType.StructRef(
                resolve((Class<? extends TBase<?, ?>>) structMeta.structClass));
          }
          // The compiler emits a bare FieldValueMetaData for a struct it had not yet seen, which
          // is how a recursive or forward reference looks.
          throw new IllegalArgumentException(
              "Field "
                  + owner.getSimpleName()
                  + "."
                  + fieldName
                  + " refers to struct "
                  + meta.getTypedefName()
                  + " by forward reference, which Thrift emits for recursive structs; recursive"
                  + " structs are not supported");
        case TType.LIST:
          return new ThriftType.ListOf(
              typeOf(((ListMetaData) meta).elemMetaData, owner, fieldName));
        case TType.SET:
          return new ThriftType.SetOf(typeOf(((SetMetaData) meta).elemMetaData, owner, fieldName));
        case TType.MAP:
          MapMetaData map = (MapMetaData) meta;
          return new ThriftType.MapOf(
              typeOf(map.keyMetaData, owner, fieldName),
              typeOf(map.valueMetaData, owner, fieldName));
        default:
          throw new IllegalArgumentException(
              "Field "
                  + owner.getSimpleName()
                  + "."
                  + fieldName
                  + " has Thrift type "
                  + meta.type
                  + ", which this template does not support");
      }
    }
  }
}
