package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The one-pass PROTO_MESSAGE writer against the general codec tree, on valid events and on mutated
 * ones: the same bytes, or the same dead letter (it hands what it cannot do to the general path);
 * and it is really used for ordinary events.
 */
@RunWith(Parameterized.class)
public class DirectProtoWriterTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("b", "2", "a", "1"));

  @Parameters(name = "{0} {1}")
  public static List<Object[]> parameters() {
    List<Object[]> parameters = new ArrayList<>();
    for (String struct : List.of("Event", "AllTypes", "ByoEvent")) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        parameters.add(new Object[] {struct, protocol});
      }
    }
    return parameters;
  }

  private final String struct;
  private final ThriftProtocol protocol;

  public DirectProtoWriterTest(String struct, ThriftProtocol protocol) {
    this.struct = struct;
    this.protocol = protocol;
  }

  private ThriftSource source() {
    return switch (struct) {
      case "Event" -> ThriftSource.generatedClass("io.thriftbq.sample.Event");
      case "AllTypes" -> ThriftSource.generatedClass("io.thriftbq.testing.AllTypes");
      default ->
          ThriftSource.idl("../thrift-common/src/test/idl/byo_event.thrift", List.of(), "ByoEvent");
    };
  }

  private ConverterConfig config() {
    return ConverterConfig.of(source(), protocol, MetadataColumns.ALL);
  }

  private ThriftRowConverter<EncodedRow, ?> converter(ConverterConfig config) {
    EventSchemas schemas = config.schemas();
    return new ThriftRowConverter<>(
        config, schemas, new ProtoMessageAssembler(schemas.tableSchema(), schemas.rowDescriptor()));
  }

  private static String outcome(ThriftRowConverter<EncodedRow, ?> converter, byte[] payload) {
    try {
      return HexFormat.of().formatHex(converter.fromBytes(payload, METADATA).bytes());
    } catch (ThriftDecodeException | RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  @Test
  public void sameBytesOrSameDeadLetterAsTheGeneralPath() {
    ConverterConfig config = config();
    ThriftRowConverter<EncodedRow, ?> fast = converter(config);
    ThriftRowConverter<EncodedRow, ?> general =
        (ThriftRowConverter<EncodedRow, ?>) EventConverters.encodedRowsThroughCodecTree(config);
    Random random = new Random(17);
    int valid = 0;
    for (boolean complete : new boolean[] {false, true}) {
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder()
                  .source(config.source())
                  .protocol(protocol)
                  .seed(complete ? 3 : 4)
                  .completeObjects(complete)
                  .maxCollectionSize(4)
                  .build());
      for (long n = 0; n < 300; n++) {
        byte[] payload = generator.serialize(n);
        assertEquals("event " + n, outcome(general, payload), outcome(fast, payload));
        valid++;
        // Mutations: a flipped byte, a truncation, a duplicated tail.
        byte[] flipped = payload.clone();
        flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
        assertEquals("flipped " + n, outcome(general, flipped), outcome(fast, flipped));
        byte[] truncated = Arrays.copyOf(payload, random.nextInt(payload.length));
        assertEquals("truncated " + n, outcome(general, truncated), outcome(fast, truncated));
        byte[] longer = Arrays.copyOf(payload, payload.length + 3);
        assertEquals("trailing " + n, outcome(general, longer), outcome(fast, longer));
      }
    }
    assertEquals("counts agree", general.takeUnknownEnumValues(), fast.takeUnknownEnumValues());
    assertEquals(general.takeInvalidUtf8Replaced(), fast.takeInvalidUtf8Replaced());
    assertEquals(general.takeUnknownFields(), fast.takeUnknownFields());
    assertEquals(0, general.directRows());
    // Ordinary events take the fast path. The test structs' mostly do not: a list of lists needs
    // wrapper records, and defaulted fields need filling in; the general path does both.
    assertTrue(
        "fast path used for " + fast.directRows() + " of " + valid,
        fast.directRows() >= (struct.equals("Event") ? valid / 2 : valid / 20));
  }
}
