package io.thriftbq.schema;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/** Choosing the event types of a job from the shared IDL options, and every way to get it wrong. */
public class EventTypesTest {
  static final String SHOP_IDL = "src/main/idl/shop_events.thrift";

  private static ThriftSchemaOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(ThriftSchemaOptions.class);
  }

  private static EventTypes choose(boolean weights, String... args) {
    return EventTypes.choose(options(args), "--thriftClassName", null, weights);
  }

  private static String error(boolean weights, String... args) {
    return assertThrows(IllegalArgumentException.class, () -> choose(weights, args)).getMessage();
  }

  @Test
  public void severalStructsAreRoutedByTheAttribute() {
    EventTypes types =
        choose(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order, Refund,shop_events.Click");
    assertEquals(EventTypes.Layout.ATTRIBUTE, types.layout());
    assertEquals(EventTypes.DEFAULT_STRUCT_ATTRIBUTE, types.attribute());
    assertEquals(
        List.of("Order", "Refund", "Click"),
        types.types().stream().map(EventTypes.EventType::name).toList());
    assertSame(types.types().get(2), types.byName("Click"));
    assertSame(types.types().get(2), types.byName("shop_events.Click"));
    assertNull(types.byName("click"));
    assertNull(types.byName(null));
    assertEquals("Order, Refund, Click", types.allowedNames());
    // A struct both use is one object: the IDL was parsed once.
    assertSame(moneyOf(types.types().get(0), 4), moneyOf(types.types().get(1), 3));
  }

  private static ThriftStruct moneyOf(EventTypes.EventType type, int fieldIndex) {
    return ((ThriftType.StructRef) type.source().resolve().fields().get(fieldIndex).type())
        .struct();
  }

  @Test
  public void aUnionRoutesByItsStructMembersAndMayBeNarrowed() {
    EventTypes all = choose(false, "--thriftIdl=" + SHOP_IDL, "--thriftUnion=AnyEvent");
    assertEquals(EventTypes.Layout.UNION, all.layout());
    assertEquals(
        List.of((short) 1, (short) 2, (short) 3),
        all.types().stream().map(EventTypes.EventType::unionFieldId).toList());
    assertTrue(all.union().isUnion());

    EventTypes narrowed =
        choose(
            true,
            "--thriftIdl=" + SHOP_IDL,
            "--thriftUnion=AnyEvent",
            "--thriftStructs=Click:3,Order:1");
    assertEquals(
        List.of("Click", "Order"),
        narrowed.types().stream().map(EventTypes.EventType::name).toList());
    assertEquals(3.0, narrowed.types().get(0).weight(), 0);
    assertEquals((short) 3, narrowed.types().get(0).unionFieldId());
  }

  @Test
  public void aStructOfTwoUnionMembersIsOneTypeNamedByItsFirstMember() {
    String idl = "--thriftIdl=src/test/idl/union_same_struct.thrift";
    EventTypes all = choose(false, idl, "--thriftUnion=Wrapped");
    assertEquals(
        List.of("Order", "Click"), all.types().stream().map(EventTypes.EventType::name).toList());
    assertEquals((short) 1, all.types().get(0).unionFieldId());
    EventTypes narrowed = choose(false, idl, "--thriftUnion=Wrapped", "--thriftStructs=Order");
    assertEquals((short) 1, narrowed.types().get(0).unionFieldId());
    assertEquals(
        (short) 1,
        choose(false, idl, "--thriftUnion=Wrapped", "--thriftStructs=union_same_struct.Order")
            .types()
            .get(0)
            .unionFieldId());
  }

  @Test
  public void oneStructInTheListIsASingleTypeJob() {
    EventTypes one = choose(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order");
    assertTrue(one.isSingle());
    assertEquals("Order", one.types().get(0).name());
  }

  @Test
  public void withoutTheNewOptionsNothingChanges() {
    EventTypes single = choose(false);
    assertTrue(single.isSingle());
    assertEquals(ThriftSources.SAMPLE_CLASS, single.types().get(0).qualifiedName());
  }

  @Test
  public void eachMistakeSaysWhatToChange() {
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order,Nope"),
        containsString("--thriftStructs=Nope: no struct, union or exception of that name"));
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order,Nope"),
        containsString("known: shop_events.AnyEvent, shop_events.Click"));
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order,shop_events.Order"),
        containsString("names shop_events.Order twice"));
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order:5,Click"),
        containsString("a weight (Order:5) is for the data generator"));
    assertThat(
        error(true, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order:0,Click"),
        containsString("Order:0 is not NAME or NAME:WEIGHT with a positive weight"));
    assertThat(error(false, "--thriftStructs=Order,Click"), containsString("add --thriftIdl=PATH"));
    assertThat(
        error(
            false,
            "--thriftIdl=" + SHOP_IDL,
            "--thriftStruct=Order",
            "--thriftStructs=Order,Click"),
        containsString("--thriftStruct and --thriftStructs both name the event types"));
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftUnion=Order"),
        containsString("--thriftUnion=Order is a struct, not a union"));
    assertThat(
        error(false, "--thriftIdl=" + SHOP_IDL, "--thriftUnion=AnyEvent", "--thriftStructs=Money"),
        containsString(
            "--thriftStructs=Money is not a struct member of --thriftUnion=AnyEvent; its struct"
                + " members: Order, Refund, Click"));
    assertThat(
        error(
            false, "--thriftIdl=" + SHOP_IDL, "--thriftStructs=Order,Click", "--structAttribute= "),
        containsString("--structAttribute is empty"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    EventTypes.choose(
                        options("--thriftStructs=Order,Click"),
                        "--thriftClassName",
                        "io.thriftbq.sample.Event",
                        false))
            .getMessage(),
        containsString("drop --thriftClassName and give --thriftIdl=PATH"));
  }

  @Test
  public void tableNamesAreSnakeCase() {
    assertEquals("order", EventTypes.snakeCase("Order"));
    assertEquals("refund_v2", EventTypes.snakeCase("RefundV2"));
    assertEquals("http_request", EventTypes.snakeCase("HTTPRequest"));
    assertEquals("page_view", EventTypes.snakeCase("PageView"));
    assertEquals("page_view", EventTypes.snakeCase("page_view"));
    assertEquals("click", EventTypes.snakeCase("click"));
  }
}
