package io.thriftbq.ingest.testing;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.schema.ThriftSource;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Events of the shop IDL (thrift-common/src/main/idl/shop_events.thrift), which has no generated
 * classes: Order, Refund and Click, generated from the IDL, and the AnyEvent union around them.
 * Event {@code i} is of type {@code i % 3}.
 */
public final class ShopEvents {
  public static final String IDL = "../thrift-common/src/main/idl/shop_events.thrift";
  public static final List<String> STRUCTS = List.of("Order", "Refund", "Click");
  public static final List<String> TABLES = List.of("order", "refund", "click");

  /** The id column of each struct, in {@link #STRUCTS} order. */
  public static final List<String> ID_COLUMNS = List.of("order_id", "refund_id", "session_id");

  private final ThriftProtocol protocol;
  private final List<RandomEventGenerator> generators;

  public ShopEvents(ThriftProtocol protocol) {
    this.protocol = protocol;
    List<ThriftSource> sources = ThriftSource.idls(IDL, List.of(), STRUCTS, "--thriftStructs");
    this.generators =
        sources.stream()
            .map(
                source ->
                    new RandomEventGenerator(
                        GeneratorConfig.builder()
                            .source(source)
                            .seed(TestData.SEED)
                            .maxStringLength(16)
                            .maxCollectionSize(3)
                            .protocol(protocol)
                            .build()))
            .toList();
  }

  public static int typeOf(int sequence) {
    return sequence % STRUCTS.size();
  }

  /** Event {@code sequence} as its struct's bytes. */
  public byte[] struct(int sequence) {
    return generators.get(typeOf(sequence)).serialize(sequence);
  }

  /**
   * Event {@code sequence} wrapped in AnyEvent: the member's field header (member id = type + 1),
   * the member's bytes, the union's field stop.
   */
  public byte[] union(int sequence) {
    return wrap(typeOf(sequence) + 1, (byte) 12, struct(sequence));
  }

  /** Any member id and wire type around {@code body}, as the protocol writes a union's field. */
  public byte[] wrap(int memberId, byte wireType, byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (protocol == ThriftProtocol.BINARY) {
      out.write(wireType);
      out.write(memberId >> 8);
      out.write(memberId);
    } else {
      // Compact: delta from field 0 and the type in one byte (ids 1..15).
      out.write((memberId << 4) | compactType(wireType));
    }
    out.writeBytes(body);
    out.write(0);
    return out.toByteArray();
  }

  private static int compactType(byte binaryType) {
    return switch (binaryType) {
      case 12 -> 12; // struct
      case 11 -> 8; // string / binary
      default -> throw new IllegalArgumentException("type " + binaryType);
    };
  }
}
