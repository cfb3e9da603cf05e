package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftStruct;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The {@link EventConverter} for every format: one reusable transport and protocol, and a codec
 * tree compiled from the schema, so decoding an element allocates only the row itself.
 */
final class ThriftRowConverter<R, S> implements EventConverter<R> {
  private final ThriftStruct struct;
  private final RowAssembler<R, S> assembler;
  private final StructCodec<S> root;
  private final DecodingRules rules;
  private final ConverterConfig config;
  private @Nullable DecodingRules objectRules;
  private @Nullable StructCodec<S> objectCheck;
  private @Nullable TProtocol objectProtocol;
  private @Nullable CheckingProtocol objectReader;

  /** The metadata columns' bytes in the object path's row-size check (no message metadata). */
  private long objectMetadataBytes;

  private long onePassDecodes;
  private final MetadataColumns metadataColumns;
  private final MetadataValues<S> metadataValues;
  private final TMemoryInputTransport transport;
  private TProtocol protocol;
  private final @Nullable MethodHandle validate;
  private final @Nullable Supplier<TBase<?, ?>> constructor;

  /** The format's one-pass writer, tried first; null when it has none. */
  private @Nullable OnePassWriter<R> direct;

  private long directRows;
  private byte @Nullable [] pendingUnknownFields;
  private final String protocolName;

  ThriftRowConverter(ConverterConfig config, EventSchemas schemas, RowAssembler<R, S> assembler) {
    this.struct = schemas.struct();
    this.assembler = assembler;
    this.metadataColumns = config.metadataColumns();
    this.config = config;
    this.rules =
        new DecodingRules(
            config.maxStringBytes(),
            config.maxContainerElements(),
            config.maxRowBytes(),
            config.unknownEnumValues(),
            config.invalidUtf8());
    this.root =
        new StructCodec<>(struct, assembler, assembler.rootShape(), metadataColumns.count(), rules);
    this.metadataValues = new MetadataValues<>(assembler, metadataColumns, struct.fields().size());
    try {
      // The message-size limit makes the protocol refuse any declared length larger than what is
      // left of the payload, before it allocates.
      this.transport =
          new TMemoryInputTransport(
              io.thriftbq.codec.ThriftProtocol.configuration(Integer.MAX_VALUE));
    } catch (TTransportException e) {
      throw new IllegalStateException(e);
    }
    this.protocol = newProtocol();
    // The object path (a user function) needs the generated class; an IDL struct has none.
    this.validate = struct.hasJavaClass() ? validateMethod(struct) : null;
    this.constructor = struct.hasJavaClass() ? constructorOf(struct) : null;
    this.protocolName = config.protocol().name();
    this.direct = assembler.onePassWriter(struct, rules, config.protocol(), metadataColumns);
  }

  @Override
  public R fromBytes(byte[] buffer, int offset, int length, EventMetadata metadata)
      throws ThriftDecodeException {
    if (buffer != null && (offset < 0 || length < 0 || offset + length > buffer.length)) {
      throw new IndexOutOfBoundsException(
          "bytes " + offset + ".." + (offset + length) + " of a " + buffer.length + "-byte buffer");
    }
    if (direct != null) {
      rules.startRow();
      R row = direct.write(buffer, offset, length, metadata);
      if (row != null) {
        rules.checkRowSize(metadataBytes(metadata, null));
        directRows++;
        return row;
      }
    }
    Object[] values;
    long unknownBefore = rules.unknownFieldCount();
    byte[] unknown;
    try {
      reset(buffer, offset, length);
      rules.startRow();
      values = root.readValues(protocol);
      checkFullyConsumed();
      // The event's own bytes; a copy only when they are part of a larger message (a union).
      unknown =
          rules.unknownFieldCount() == unknownBefore
              ? null
              : offset == 0 && length == buffer.length
                  ? buffer
                  : Arrays.copyOfRange(buffer, offset, offset + length);
      rules.checkRowSize(metadataBytes(metadata, unknown));
    } catch (TException | RuntimeException e) {
      throw decodeFailure(e);
    }
    return assembler.row(withMetadata(values, metadata, unknown));
  }

  /**
   * Decodes into the generated object under the decoding contract: the payloads {@link #fromBytes}
   * refuses are refused for the same reasons, and under {@code KEEP} an unknown enum value is still
   * refused here, because the generated object cannot hold it.
   *
   * <p>One pass: the generated reader reads through a {@link CheckingProtocol}, which checks what
   * libthrift would take without judgement (it would silently repair invalid UTF-8, turn unknown
   * enum values into null, accept malformed maps and unions) and computes the row-size estimate.
   * Any payload it has a doubt about, and any failure, is decoded again the two-pass way ({@link
   * #decodeInTwoPasses}), which gives the dead letter and its reason; only payloads that pass
   * everything are returned from the one pass.
   */
  @Override
  public TBase<?, ?> decode(byte[] payload) throws ThriftDecodeException {
    startObjectPath();
    TBase<?, ?> event = newObject(); // says what to do when there is no class
    pendingUnknownFields = null;
    if (payload != null && payload.length > 0) {
      try {
        objectReader.start(protocol, payload);
        event.read(objectReader);
        // No validate() here: the generated reader has called it at the end of every struct it
        // read, and the checking protocol has seen every required field on the wire with a value
        // the object holds (it gives up on an enum number the IDL does not name), so it cannot
        // fail where the two-pass decode's validate() would.
        if (objectReader.finished()
            && objectRules.rowFits(objectReader.rowBytes(), objectMetadataBytes)
            && objectReader.bytesLeft() == 0) {
          if (objectReader.unknownFields() > 0) {
            objectReader.commitUnknownFields(objectRules);
            pendingUnknownFields = payload;
          }
          onePassDecodes++;
          return event;
        }
      } catch (Throwable e) {
        // Given up or failed: the two-pass decode below gives the outcome and its reason.
      }
      discardProtocolState();
      event = newObject();
    }
    return decodeInTwoPasses(payload, event);
  }

  /**
   * The reference decode into the object: the payload first goes through the same codec tree as
   * {@link #fromBytes}, so that both paths refuse the same payloads for the same reasons, then the
   * generated reader reads it again. Used for every payload the one pass has a doubt about, and by
   * tests as the reference the one pass must match.
   */
  TBase<?, ?> decodeInTwoPasses(byte[] payload, TBase<?, ?> event) throws ThriftDecodeException {
    startObjectPath();
    pendingUnknownFields = null;
    long unknownBefore = objectRules.unknownFieldCount();
    try {
      reset(payload);
      objectRules.startRow();
      objectCheck.readValues(protocol);
      objectRules.checkRowSize(objectMetadataBytes);
      if (objectRules.unknownFieldCount() != unknownBefore) {
        pendingUnknownFields = payload;
      }
      checkFullyConsumed();
      reset(payload);
      event.read(objectProtocol);
      checkFullyConsumed();
      validate.invoke(event);
    } catch (ThriftDecodeException | TException | RuntimeException e) {
      throw decodeFailure(e);
    } catch (Throwable e) {
      throw new IllegalStateException("validate() of " + struct.name() + " failed", e);
    }
    return event;
  }

  private void startObjectPath() {
    if (objectCheck != null) {
      return;
    }
    objectRules =
        new DecodingRules(
            config.maxStringBytes(),
            config.maxContainerElements(),
            config.maxRowBytes(),
            UnknownEnumValues.DEAD_LETTER,
            config.invalidUtf8());
    objectProtocol = new JdkUtf8Strings(protocol);
    objectCheck =
        new StructCodec<>(
            struct, assembler, assembler.rootShape(), metadataColumns.count(), objectRules);
    objectReader = new CheckingProtocol(struct, objectRules, transport);
    objectMetadataBytes = metadataBytes(EventMetadata.EMPTY, null);
  }

  /** Payloads {@link #decode} returned from its one pass, for tests that check it is used. */
  long onePassDecodes() {
    return onePassDecodes;
  }

  /**
   * The generated reader's strings decoded as the codec tree decodes them (the JDK's UTF-8
   * decoder), so that under {@code --invalidUtf8=REPLACE} both paths store the same text; libthrift
   * repairs malformed sequences differently. The codec tree has checked the payload already (the
   * two-pass decode only).
   */
  private static final class JdkUtf8Strings extends TProtocolDecorator {
    JdkUtf8Strings(TProtocol protocol) {
      super(protocol);
    }

    @Override
    public String readString() throws TException {
      java.nio.ByteBuffer buffer = readBinary();
      if (buffer.hasArray()) {
        return new String(
            buffer.array(),
            buffer.arrayOffset() + buffer.position(),
            buffer.remaining(),
            StandardCharsets.UTF_8);
      }
      return StandardCharsets.UTF_8.decode(buffer).toString();
    }
  }

  /** A new, empty event of the generated class. */
  private TBase<?, ?> newObject() {
    return constructor != null ? constructor.get() : struct.newInstance();
  }

  /**
   * The generated class's constructor as a lambda ({@code T::new}), which the JIT inlines, unlike
   * {@code Constructor.newInstance}; that, if the class cannot be reached this way (another class
   * loader).
   */
  @SuppressWarnings("unchecked")
  private static Supplier<TBase<?, ?>> constructorOf(ThriftStruct struct) {
    Class<?> type = struct.structClass();
    try {
      MethodHandle constructor =
          MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class));
      Supplier<TBase<?, ?>> supplier =
          (Supplier<TBase<?, ?>>)
              LambdaMetafactory.metafactory(
                      MethodHandles.lookup(),
                      "get",
                      MethodType.methodType(Supplier.class),
                      MethodType.methodType(Object.class),
                      constructor,
                      MethodType.methodType(type))
                  .getTarget()
                  .invoke();
      if (supplier.get().getClass() == type) {
        return supplier;
      }
    } catch (Throwable e) {
      // Below: the reflective constructor.
    }
    return struct::newInstance;
  }

  /** Generated structs check required fields in validate(), which TBase does not declare. */
  private static MethodHandle validateMethod(ThriftStruct struct) {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(struct.structClass(), "validate", MethodType.methodType(void.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalArgumentException(
          struct.structClass().getName() + " has no validate() method; is it Thrift-generated?", e);
    }
  }

  /** This converter without the one-pass writer: the general path only (for differential tests). */
  ThriftRowConverter<R, S> withoutDirectWriter() {
    direct = null;
    return this;
  }

  /** Rows the one-pass writer produced (PROTO_MESSAGE), for tests that check it is used. */
  long directRows() {
    return directRows;
  }

  @Override
  public UnknownFields takeUnknownFields() {
    UnknownFields bytesPath = rules.takeUnknownFields();
    UnknownFields objectPath =
        objectRules == null ? UnknownFields.NONE : objectRules.takeUnknownFields();
    if (objectPath.count() == 0) {
      return bytesPath;
    }
    if (bytesPath.count() == 0) {
      return objectPath;
    }
    java.util.Map<String, Long> merged = new java.util.LinkedHashMap<>(bytesPath.byField());
    objectPath.byField().forEach((k, v) -> merged.merge(k, v, Long::sum));
    return new UnknownFields(bytesPath.count() + objectPath.count(), merged);
  }

  @Override
  public long takeUnknownEnumValues() {
    return rules.takeUnknownEnumValues()
        + (objectRules == null ? 0 : objectRules.takeUnknownEnumValues());
  }

  @Override
  public long takeInvalidUtf8Replaced() {
    return rules.takeInvalidUtf8Replaced()
        + (objectRules == null ? 0 : objectRules.takeInvalidUtf8Replaced());
  }

  @Override
  public R fromEvent(TBase<?, ?> event, EventMetadata metadata) {
    if (event == null) {
      throw new ConversionException("The event is null");
    }
    // The row of a user function's result keeps the bytes of the event it was decoded from.
    byte[] unknown = pendingUnknownFields;
    pendingUnknownFields = null;
    return assembler.row(withMetadata(root.convertValues(event), metadata, unknown));
  }

  private void reset(byte[] payload) throws ThriftDecodeException, TTransportException {
    reset(payload, 0, payload == null ? 0 : payload.length);
  }

  private void reset(byte[] buffer, int offset, int length)
      throws ThriftDecodeException, TTransportException {
    if (buffer == null || length == 0) {
      throw new ThriftDecodeException("Empty payload: the message carries no event bytes");
    }
    transport.reset(buffer, offset, length);
    transport.updateKnownMessageSize(length);
  }

  private TProtocol newProtocol() {
    return config
        .protocol()
        .newReader(transport, config.maxStringBytes(), config.maxContainerElements());
  }

  /**
   * A fresh protocol after a payload failed halfway. The compact protocol holds state between reads
   * (a bool read with its field header, the field id stack) that {@code reset()} does not clear:
   * left behind, it made the next valid payload read one byte short. Failures are rare, so
   * replacing the protocol then costs nothing on the hot path.
   */
  private void discardProtocolState() {
    protocol = newProtocol();
    if (objectProtocol != null) {
      objectProtocol = new JdkUtf8Strings(protocol);
    }
  }

  private void checkFullyConsumed() throws ThriftDecodeException {
    int trailing = transport.getBytesRemainingInBuffer();
    if (trailing > 0) {
      throw new ThriftDecodeException(
          trailing
              + " bytes left after the end of the struct: the payload is not one serialized "
              + struct.name());
    }
  }

  private ThriftDecodeException decodeFailure(Exception e) {
    discardProtocolState();
    if (e instanceof ThriftDecodeException decode) {
      return decode;
    }
    // An index out of bounds is libthrift reading past the payload's end. Its message is left out:
    // the JVM drops it from exceptions thrown often at one place (OmitStackTraceInFastThrow), and
    // the same payload must always get the same reason.
    String detail =
        e instanceof IndexOutOfBoundsException
            ? "the payload ends inside a value"
            : e.getMessage() == null ? "" : e.getMessage();
    return new ThriftDecodeException(
        "Cannot decode a "
            + struct.name()
            + " with the "
            + protocolName
            + " protocol: "
            + e.getClass().getSimpleName()
            + (detail.isEmpty() ? "" : ": " + detail),
        e);
  }

  /** The metadata columns' share of the row-size estimate. */
  private long metadataBytes(EventMetadata metadata, byte @Nullable [] unknownFieldsPayload) {
    return metadataValues.estimateBytes(metadata, unknownFieldsPayload);
  }

  private Object[] withMetadata(
      Object[] values, EventMetadata metadata, byte @Nullable [] unknownFieldsPayload) {
    return metadataValues.fill(values, metadata, unknownFieldsPayload);
  }
}
