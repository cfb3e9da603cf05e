package io.thriftbq.ingest.route;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.testing.ShopEvents;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.schema.ThriftSource;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TIOStreamTransport;
import org.junit.Test;

/** Routing by attribute and by union member, and the reasons of what cannot be routed. */
public class EventRouterTest {
  private static EventTypes types(String... args) {
    return EventTypes.choose(
        PipelineOptionsFactory.fromArgs(args).as(ThriftSchemaOptions.class),
        "--thriftClassName",
        null,
        false);
  }

  private static final EventTypes BY_ATTRIBUTE =
      types("--thriftIdl=" + ShopEvents.IDL, "--thriftStructs=Order,Refund,Click");
  private static final EventTypes BY_UNION =
      types(
          "--thriftIdl=" + ShopEvents.IDL, "--thriftUnion=AnyEvent", "--thriftStructs=Click,Order");

  private static String reason(EventRouter router, byte[] payload, Map<String, String> attributes) {
    return assertThrows(UnroutableException.class, () -> router.route(payload, attributes))
        .getMessage();
  }

  @Test
  public void aSingleTypeIsNotRouted() throws Exception {
    EventRouter router =
        EventRouter.of(
            EventTypes.single(ThriftSource.generatedClass("io.thriftbq.sample.Event")),
            ThriftProtocol.BINARY);
    assertFalse(router.routes());
    byte[] payload = {1, 2, 3};
    assertEquals(0, router.route(payload, Map.of()));
    assertSame(payload, router.eventBytes(payload));
  }

  @Test
  public void theAttributeNamesTheStructByNameOrFileName() throws Exception {
    EventRouter router = EventRouter.of(BY_ATTRIBUTE, ThriftProtocol.BINARY);
    assertTrue(router.routes());
    byte[] payload = {9};
    assertEquals(1, router.route(payload, Map.of("thrift_struct", "Refund")));
    assertEquals(2, router.route(payload, Map.of("thrift_struct", " shop_events.Click ")));
    assertEquals(0, router.route(payload, Map.of("thrift_struct", "Order")));
    assertSame(payload, router.eventBytes(payload));
    assertThat(
        reason(router, payload, Map.of("other", "x")),
        containsString(
            "no attribute thrift_struct naming its struct; this job takes Order, Refund, Click"));
    assertThat(
        reason(router, payload, Map.of("thrift_struct", "order")),
        containsString("thrift_struct=order names no struct this job takes; it takes Order"));
  }

  @Test
  public void aUnionIsRoutedByItsMemberInBothProtocols() throws Exception {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      ShopEvents shop = new ShopEvents(protocol);
      EventRouter router = EventRouter.of(BY_UNION, protocol);
      // Event 2 is a Click (member 3), event 0 an Order (member 1); the job takes Click, Order.
      byte[] union = shop.union(2);
      assertEquals(protocol + " click", 0, router.route(union, Map.of()));
      assertArrayEquals(protocol + " member bytes", shop.struct(2), router.eventBytes(union));
      assertEquals(
          protocol + " the member's place in the message",
          union.length - 1 - shop.struct(2).length,
          router.eventOffset());
      assertEquals(protocol + " order", 1, router.route(shop.union(0), Map.of()));
      assertThat(
          reason(router, shop.union(1), Map.of()),
          containsString("holds member 2 (refund: Refund), which is not a struct this job takes"));
      assertThat(
          reason(router, shop.wrap(4, (byte) 11, new byte[] {0, 0, 0, 0}), Map.of()),
          containsString("member 4 (note: string)"));
      assertThat(
          reason(router, shop.wrap(12, (byte) 12, new byte[] {0}), Map.of()),
          containsString("holds member 12, which the IDL does not know"));
      assertThat(
          reason(router, new byte[] {0}, Map.of()),
          containsString("The AnyEvent holds no member; this job takes Click, Order"));
      assertThat(reason(router, new byte[0], Map.of()), containsString("Empty payload"));
      byte[] noStop = shop.union(2);
      noStop[noStop.length - 1] = 5;
      assertThat(
          reason(router, noStop, Map.of()), containsString("does not end with a field stop"));
    }
  }

  @Test
  public void everyMemberOfAStructGoesToItsTable() throws Exception {
    EventTypes wrapped =
        types(
            "--thriftIdl=../thrift-common/src/test/idl/union_same_struct.thrift",
            "--thriftUnion=Wrapped");
    ShopEvents bytes = new ShopEvents(ThriftProtocol.BINARY);
    EventRouter router = EventRouter.of(wrapped, ThriftProtocol.BINARY);
    assertEquals(0, router.route(bytes.wrap(1, (byte) 12, new byte[] {0}), Map.of()));
    assertEquals(1, router.route(bytes.wrap(2, (byte) 12, new byte[] {0}), Map.of()));
    assertEquals(0, router.route(bytes.wrap(3, (byte) 12, new byte[] {0}), Map.of()));
  }

  @Test
  public void aCompactMemberIdOutsideTheShortFormIsReadFromItsVarint() throws Exception {
    // libthrift writes the long form (type byte, zigzag varint id) when the delta exceeds 15;
    // AnyEvent's ids are small, so write a member id 300 by hand and expect "unknown member".
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TProtocol out = new TCompactProtocol(new TIOStreamTransport(bytes));
    out.writeStructBegin(new TStruct("AnyEvent"));
    out.writeFieldBegin(new TField("x", TType.STRUCT, (short) 300));
    out.writeStructBegin(new TStruct("X"));
    out.writeFieldStop();
    out.writeStructEnd();
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    EventRouter router = EventRouter.of(BY_UNION, ThriftProtocol.COMPACT);
    assertThat(
        reason(router, bytes.toByteArray(), Map.of()),
        containsString("holds member 300, which the IDL does not know"));
    assertThat(
        reason(router, new byte[] {12}, Map.of()),
        containsString("ends inside its member's field header"));
  }
}
