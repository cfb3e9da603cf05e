package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.ByteString;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.route.UnroutableException;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.ShopEvents;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSchemaOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential fuzz test of a many-types job: a message of the shop IDL's {@code AnyEvent} union
 * (or a struct named by its attribute) is routed once, then converted by every format. The
 * property: a routed message gives the same table and the same row (or the same dead-letter stage
 * and reason) whichever format is chosen; a message no type takes is a ROUTE dead letter with a
 * reason; nothing else escapes. The first input byte picks the layout and protocol (bit 0: COMPACT,
 * bit 1: attribute layout, bits 2-3: the attribute's struct), the rest is the message's data.
 */
class RoutedEventFuzzTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of());

  private static final EventTypes UNION = types("--thriftUnion=AnyEvent");
  private static final EventTypes ATTRIBUTE = types("--thriftStructs=Order,Refund,Click");

  private static EventTypes types(String option) {
    return EventTypes.choose(
        PipelineOptionsFactory.fromArgs("--thriftIdl=" + ShopEvents.IDL, option)
            .as(ThriftSchemaOptions.class),
        "--thriftClassName",
        null,
        false);
  }

  /** Per protocol, per type: the four formats' converters and the Storage Write bytes maker. */
  private record TypeFormats(List<EventConverter<?>> converters, StorageWriteBytes bytes) {}

  private static final Map<ThriftProtocol, List<TypeFormats>> FORMATS =
      new EnumMap<>(ThriftProtocol.class);

  static {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      List<TypeFormats> byType = new ArrayList<>();
      for (EventTypes.EventType type : UNION.types()) {
        ConverterConfig config = ConverterConfig.of(type.source(), protocol, MetadataColumns.ALL);
        List<EventConverter<?>> converters = new ArrayList<>();
        for (StorageFormat format : StorageFormat.values()) {
          converters.add(TestConverters.create(config, format));
        }
        byType.add(new TypeFormats(converters, StorageWriteBytes.forTable(config.schemas())));
      }
      FORMATS.put(protocol, byType);
    }
  }

  private static final Map<ThriftProtocol, EventRouter> UNION_ROUTERS =
      new EnumMap<>(ThriftProtocol.class);
  private static final Map<ThriftProtocol, EventRouter> ATTRIBUTE_ROUTERS =
      new EnumMap<>(ThriftProtocol.class);

  static {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      UNION_ROUTERS.put(protocol, EventRouter.of(UNION, protocol));
      ATTRIBUTE_ROUTERS.put(protocol, EventRouter.of(ATTRIBUTE, protocol));
    }
  }

  /** Seeds: unions of every member and structs named by attribute, both protocols. */
  static Stream<byte[]> shopMessages() {
    List<byte[]> seeds = new ArrayList<>();
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      ShopEvents shop = new ShopEvents(protocol);
      int protocolBit = protocol == ThriftProtocol.COMPACT ? 1 : 0;
      for (int i = 0; i < 6; i++) {
        seeds.add(withHeader(protocolBit, shop.union(i)));
        seeds.add(withHeader(protocolBit | 2 | (ShopEvents.typeOf(i) << 2), shop.struct(i)));
      }
      seeds.add(withHeader(protocolBit, shop.wrap(4, (byte) 11, new byte[] {0, 0, 0, 1, 'x'})));
    }
    return seeds.stream();
  }

  private static byte[] withHeader(int header, byte[] payload) {
    byte[] input = new byte[payload.length + 1];
    input[0] = (byte) header;
    System.arraycopy(payload, 0, input, 1, payload.length);
    return input;
  }

  @MethodSource("shopMessages")
  @FuzzTest(maxDuration = "5m")
  void routedEveryFormatAgrees(byte[] input) {
    if (input.length == 0) {
      return;
    }
    ThriftProtocol protocol = (input[0] & 1) == 0 ? ThriftProtocol.BINARY : ThriftProtocol.COMPACT;
    boolean byAttribute = (input[0] & 2) != 0;
    byte[] payload = Arrays.copyOfRange(input, 1, input.length);
    // The attribute names one of the structs, or (3) a name no struct has.
    int named = (input[0] >> 2) & 3;
    Map<String, String> attributes =
        Map.of("thrift_struct", named < 3 ? ShopEvents.STRUCTS.get(named) : "Unknown");
    EventRouter router = (byAttribute ? ATTRIBUTE_ROUTERS : UNION_ROUTERS).get(protocol);

    int type;
    try {
      type = router.route(payload, attributes);
    } catch (UnroutableException e) {
      assertNotNull(e.getMessage(), "a ROUTE dead letter without a reason");
      assertFalse(e.getMessage().isBlank(), "a ROUTE dead letter without a reason");
      return;
    }
    // Both layouts list Order, Refund, Click in this order, so the index is the table.
    TypeFormats formats = FORMATS.get(protocol).get(type);
    String first = null;
    ByteString firstRow = null;
    for (int f = 0; f < formats.converters().size(); f++) {
      EventConverter<?> converter = formats.converters().get(f);
      String outcome;
      ByteString row = null;
      try {
        row =
            formats
                .bytes()
                .of(
                    converter.fromBytes(
                        payload, router.eventOffset(), router.eventLength(), METADATA));
        outcome = "row";
      } catch (ThriftDecodeException | ConversionException e) {
        assertNotNull(e.getMessage(), "a dead letter without a reason");
        outcome = "dead letter: " + e.getMessage();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new AssertionError("unexpected checked exception", e);
      }
      converter.takeUnknownEnumValues();
      converter.takeInvalidUtf8Replaced();
      converter.takeUnknownFields();
      String format = StorageFormat.values()[f].name();
      if (first == null) {
        first = outcome;
        firstRow = row;
      } else {
        assertEquals(first, outcome, format + " disagrees with TABLE_ROW on a routed message");
        assertEquals(firstRow, row, format + " gives another row than TABLE_ROW");
      }
    }
  }
}
