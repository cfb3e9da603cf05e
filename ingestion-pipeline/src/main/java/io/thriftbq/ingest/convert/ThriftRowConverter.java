package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftStruct;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The {@link EventConverter} for every format: one reusable transport and protocol, and a codec
 * tree compiled from the schema, so decoding an element allocates only the row itself.
 */
final class ThriftRowConverter<R, S> implements EventConverter<R> {
  private final ThriftStruct struct;
  private final RowFormat<R, S> format;
  private final StructCodec<S> root;
  private final MetadataColumns metadataColumns;
  private final int firstMetadataColumn;
  private final S attributeShape;
  private final TMemoryInputTransport transport;
  private final TProtocol protocol;
  private final MethodHandle validate;
  private final String protocolName;

  ThriftRowConverter(ConverterConfig config, EventSchemas schemas, RowFormat<R, S> format) {
    this.struct = schemas.struct();
    this.format = format;
    this.metadataColumns = config.metadataColumns();
    this.firstMetadataColumn = struct.fields().size();
    this.root = new StructCodec<>(struct, format, format.rootShape(), metadataColumns.count());
    this.attributeShape =
        metadataColumns.attributes()
            ? format.childShape(
                format.rootShape(), firstMetadataColumn + metadataColumns.count() - 1)
            : null;
    try {
      // The message-size limit makes the protocol refuse any declared length larger than what is
      // left of the payload, before it allocates.
      this.transport =
          new TMemoryInputTransport(
              io.thriftbq.codec.ThriftProtocol.configuration(Integer.MAX_VALUE));
    } catch (TTransportException e) {
      throw new IllegalStateException(e);
    }
    this.protocol =
        config
            .protocol()
            .newReader(transport, config.maxStringBytes(), config.maxContainerElements());
    this.validate = validateMethod(struct);
    this.protocolName = config.protocol().name();
  }

  @Override
  public R fromBytes(byte[] payload, EventMetadata metadata) throws ThriftDecodeException {
    Object[] values;
    try {
      reset(payload);
      values = root.readValues(protocol);
      checkFullyConsumed();
    } catch (TException | RuntimeException e) {
      throw decodeFailure(e);
    }
    return format.record(format.rootShape(), withMetadata(values, metadata));
  }

  @Override
  public TBase<?, ?> decode(byte[] payload) throws ThriftDecodeException {
    TBase<?, ?> event = struct.newInstance();
    try {
      reset(payload);
      event.read(protocol);
      checkFullyConsumed();
      validate.invoke(event);
    } catch (ThriftDecodeException e) {
      throw e;
    } catch (TException | RuntimeException e) {
      throw decodeFailure(e);
    } catch (Throwable e) {
      throw new IllegalStateException("validate() of " + struct.name() + " failed", e);
    }
    return event;
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

  @Override
  public R fromEvent(TBase<?, ?> event, EventMetadata metadata) {
    if (event == null) {
      throw new ConversionException("The event is null");
    }
    return format.record(format.rootShape(), withMetadata(root.convertValues(event), metadata));
  }

  private void reset(byte[] payload) throws ThriftDecodeException, TTransportException {
    if (payload == null || payload.length == 0) {
      throw new ThriftDecodeException("Empty payload: the message carries no event bytes");
    }
    transport.reset(payload);
    transport.updateKnownMessageSize(payload.length);
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
    if (e instanceof ThriftDecodeException decode) {
      return decode;
    }
    return new ThriftDecodeException(
        "Cannot decode a "
            + struct.name()
            + " with the "
            + protocolName
            + " protocol: "
            + e.getClass().getSimpleName()
            + (e.getMessage() == null ? "" : ": " + e.getMessage()),
        e);
  }

  private Object[] withMetadata(Object[] values, EventMetadata metadata) {
    int column = firstMetadataColumn;
    if (metadataColumns.messageId()) {
      values[column++] = metadata.messageId();
    }
    if (metadataColumns.publishTime()) {
      values[column++] =
          metadata.hasPublishTime() ? format.timestampMillis(metadata.publishTimeMillis()) : null;
    }
    if (metadataColumns.attributes()) {
      values[column] = attributes(metadata.attributes());
    }
    return values;
  }

  private Object attributes(Map<String, String> attributes) {
    if (attributes.isEmpty()) {
      return format.emptyRepeated();
    }
    // Sorted so that the same message always gives the same row.
    String[] keys = attributes.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    List<Object> entries = new ArrayList<>(keys.length);
    for (String key : keys) {
      entries.add(format.record(attributeShape, new Object[] {key, attributes.get(key)}));
    }
    return entries;
  }
}
