package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.testing.Choice;
import io.thriftbq.testing.Inner;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class EventMixTest {
  static final String SHOP_IDL = "../thrift-common/src/main/idl/shop_events.thrift";

  /** The generator's config for these flags (IDL options, weights allowed), as the job reads it. */
  static GeneratorConfig config(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add("--thriftIdl=" + SHOP_IDL);
    DatagenOptions options =
        PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(DatagenOptions.class);
    return GeneratorConfig.fromOptions(options);
  }

  @Test
  public void weightsAreRespected() {
    EventMix mix = new EventMix(config("--thriftStructs=Order:5,Refund:1,Click:94"));
    assertEquals(List.of("Order", "Refund", "Click"), names(mix));
    int messages = 10_000;
    int[] counts = new int[mix.size()];
    for (long m = 0; m < messages; m++) {
      counts[mix.chooseType(m)]++;
    }
    // One standard deviation of the Order share is about 0.002: 0.01 is a wide margin, and the
    // seed is fixed, so this cannot flake; a wrong cumulative table misses by 0.05 or more.
    assertEquals(0.05, counts[0] / (double) messages, 0.01);
    assertEquals(0.01, counts[1] / (double) messages, 0.005);
    assertEquals(0.94, counts[2] / (double) messages, 0.01);
    assertTrue("every type occurs", Arrays.stream(counts).allMatch(c -> c > 0));
  }

  @Test
  public void withoutWeightsTheTypesAreEquallyLikely() {
    EventMix mix = new EventMix(config("--thriftUnion=AnyEvent"));
    int[] counts = new int[mix.size()];
    for (long m = 0; m < 9_000; m++) {
      counts[mix.chooseType(m)]++;
    }
    for (int count : counts) {
      assertEquals(3_000, count, 200);
    }
  }

  @Test
  public void hugeWeightsAreStillShares() {
    EventMix mix = new EventMix(config("--thriftStructs=Order:1e308,Click:1e308"));
    int orders = 0;
    for (long m = 0; m < 2_000; m++) {
      orders += mix.chooseType(m) == 0 ? 1 : 0;
    }
    assertEquals(1_000, orders, 100);
  }

  @Test
  public void sameSeedSameTypesAndBytesAndEachEventIsItsStructsOwn() {
    GeneratorConfig mixed = config("--thriftStructs=Order:5,Refund:1,Click:4", "--seed=17");
    EventMix one = new EventMix(mixed);
    EventMix other = new EventMix(mixed);
    // Built alone, each struct generates the same event n: the type draw does not disturb it.
    List<RandomEventGenerator> alone = new ArrayList<>();
    for (EventTypes.EventType type : one.eventTypes().types()) {
      alone.add(new RandomEventGenerator(mixed.toBuilder().source(type.source()).build()));
    }
    for (long n = 0; n < 500; n++) {
      int type = one.chooseType(n);
      assertEquals(type, other.chooseType(n));
      assertArrayEquals("event " + n, one.serialize(n), other.serialize(n));
      assertArrayEquals("event " + n, alone.get(type).serialize(n), one.serialize(n));
    }
    EventMix reseeded = new EventMix(mixed.toBuilder().seed(18).build());
    assertNotEquals(typesOf(one, 200), typesOf(reseeded, 200));
  }

  @Test
  public void fixedSeedsKeepTheirExactTypesAndBytes() throws Exception {
    // Pins the type draw and the union framing: a change here changes every published mix.
    assertEquals(
        "2de96a1b79b46161a64e913844a5e590531055c1af90a7f379653cd5cf8bf37a",
        sha256OfFirstEvents(new EventMix(config("--thriftStructs=Order:5,Refund:1,Click:4")), 300));
    assertEquals(
        "9d467f8c1f2aecd9ba26eafd6694364a6d5900f85a0f3b5168a6f9016a0f38d3",
        sha256OfFirstEvents(
            new EventMix(config("--thriftUnion=AnyEvent", "--thriftProtocol=COMPACT")), 300));
  }

  @Test
  public void unionMessagesHoldTheChosenMemberAndItsStructsBytes() throws Exception {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      GeneratorConfig union =
          config(
              "--thriftUnion=AnyEvent",
              "--thriftStructs=Click:3,Order:1",
              "--thriftProtocol=" + protocol);
      EventMix mix = new EventMix(union);
      assertEquals(EventTypes.Layout.UNION, mix.eventTypes().layout());
      assertNull("the member names the type", mix.attribute());
      List<RandomEventGenerator> alone = new ArrayList<>();
      for (EventTypes.EventType type : mix.eventTypes().types()) {
        alone.add(new RandomEventGenerator(union.toBuilder().source(type.source()).build()));
      }
      int[] seen = new int[mix.size()];
      for (long n = 0; n < 300; n++) {
        int type = mix.chooseType(n);
        seen[type]++;
        byte[] bytes = mix.serialize(n);
        TMemoryInputTransport in = new TMemoryInputTransport(bytes);
        TProtocol reader = protocol.newReader(in, 1 << 20, 10_000);
        reader.readStructBegin();
        TField member = reader.readFieldBegin();
        assertEquals(TType.STRUCT, member.type);
        assertEquals(mix.type(type).unionFieldId(), member.id);
        // The member's bytes, between its field header and the union's field stop, are exactly
        // those of the struct generated alone.
        byte[] struct = alone.get(type).serialize(n);
        int start = in.getBufferPosition();
        assertArrayEquals(
            protocol + " event " + n, struct, Arrays.copyOfRange(bytes, start, bytes.length - 1));
        TProtocolUtil.skip(reader, TType.STRUCT);
        reader.readFieldEnd();
        assertEquals("one member only", TType.STOP, reader.readFieldBegin().type);
        reader.readStructEnd();
        assertEquals("nothing after the union", 0, in.getBytesRemainingInBuffer());
      }
      assertTrue(seen[0] > seen[1]); // Click:3 against Order:1
    }
  }

  @Test
  public void aWrappedMemberIsWhatLibthriftWritesForTheUnion() throws Exception {
    ThriftStruct choice = ThriftStruct.of(Choice.class);
    ThriftField innerField =
        choice.fields().stream().filter(f -> f.name().equals("inner")).findFirst().orElseThrow();
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      GeneratorConfig inner =
          GeneratorConfig.builder()
              .className(Inner.class.getName())
              .seed(5)
              .protocol(protocol)
              .build();
      RandomEventGenerator wrapped =
          new RandomEventGenerator(
              inner, new RandomEventGenerator.UnionWrapping(choice, innerField));
      RandomEventGenerator alone = new RandomEventGenerator(inner);
      TSerializer serializer =
          new TSerializer(
              protocol == ThriftProtocol.BINARY
                  ? new TBinaryProtocol.Factory()
                  : new TCompactProtocol.Factory());
      for (long n = 0; n < 200; n++) {
        Choice expected = Choice.inner((Inner) alone.generate(n));
        assertEquals(expected, wrapped.generate(n));
        assertArrayEquals(
            protocol + " event " + n, serializer.serialize(expected), wrapped.serialize(n));
      }
    }
  }

  @Test
  public void skewedPathsApplyToEveryTypeThatHasThemAndMustExistInOne() {
    EventMix mix =
        new EventMix(
            config(
                "--thriftStructs=Order,Refund,Click",
                "--fieldsWithSkew=order_id,session_id",
                "--skewCardinality=3"));
    assertEquals(List.of("order_id"), mix.generator(0).config().fieldsWithSkew());
    assertEquals(List.of("order_id"), mix.generator(1).config().fieldsWithSkew());
    assertEquals(List.of("session_id"), mix.generator(2).config().fieldsWithSkew());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> new EventMix(config("--thriftStructs=Order,Click", "--fieldsWithSkew=nope")));
    assertThat(
        unknown.getMessage(),
        allOf(containsString("nope"), containsString("Order: "), containsString("session_id")));
  }

  @Test
  public void oneGeneratorRefusesAMix() {
    GeneratorConfig mixed = config("--thriftStructs=Order,Refund");
    assertTrue(mixed.isMix());
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> new RandomEventGenerator(mixed))
            .getMessage(),
        containsString("EventMix"));
  }

  @Test
  public void oneStructIsTheSingleTypePathWithItsOwnBytes() {
    GeneratorConfig one = config("--thriftStructs=Order:7");
    assertFalse(one.isMix());
    EventMix mix = new EventMix(one);
    RandomEventGenerator order =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .source(ThriftSource.idls(SHOP_IDL, List.of(), List.of("Order"), "-").get(0))
                .build());
    for (long n = 0; n < 50; n++) {
      assertEquals(0, mix.chooseType(n));
      assertArrayEquals(order.serialize(n), mix.serialize(n));
    }
  }

  private static List<String> names(EventMix mix) {
    return mix.eventTypes().types().stream().map(EventTypes.EventType::name).toList();
  }

  private static List<Integer> typesOf(EventMix mix, int count) {
    List<Integer> types = new ArrayList<>();
    for (long m = 0; m < count; m++) {
      types.add(mix.chooseType(m));
    }
    return types;
  }

  /** SHA-256 of events 0..count-1, each preceded by its type and length. */
  private static String sha256OfFirstEvents(EventMix mix, int count) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    for (long n = 0; n < count; n++) {
      byte[] event = mix.serialize(n);
      digest.update(ByteBuffer.allocate(8).putInt(0, mix.chooseType(n)).putInt(4, event.length));
      digest.update(event);
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
