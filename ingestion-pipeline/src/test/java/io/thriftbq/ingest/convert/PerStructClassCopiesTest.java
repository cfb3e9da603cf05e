package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** Each struct's one-pass writer is its own copy of the writer class, and copies write the same. */
@RunWith(JUnit4.class)
public class PerStructClassCopiesTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("a", "1"));

  /** A small class to copy. */
  static final class Counted {
    private final int start;

    Counted(int start) {
      this.start = start;
    }

    int next() {
      return start + 1;
    }
  }

  private static ConverterConfig config(String struct, ThriftProtocol protocol) {
    ThriftSource source =
        switch (struct) {
          case "Event" -> ThriftSource.generatedClass("io.thriftbq.sample.Event");
          case "AllTypes" -> ThriftSource.generatedClass("io.thriftbq.testing.AllTypes");
          case "Order" ->
              ThriftSource.idl(
                  "../thrift-common/src/main/idl/shop_events.thrift", List.of(), "Order");
          default ->
              ThriftSource.idl(
                  "../thrift-common/src/test/idl/byo_event.thrift", List.of(), "ByoEvent");
        };
    return ConverterConfig.of(source, protocol, MetadataColumns.ALL);
  }

  private static OnePassWriter<EncodedRow> writer(ConverterConfig config, boolean copy) {
    EventSchemas schemas = config.schemas();
    ProtoMessageFormat format =
        new ProtoMessageFormat(schemas.tableSchema(), schemas.rowDescriptor());
    DecodingRules rules =
        new DecodingRules(
            config.maxStringBytes(),
            config.maxContainerElements(),
            config.maxRowBytes(),
            config.unknownEnumValues(),
            config.invalidUtf8());
    OnePassWriter<EncodedRow> writer =
        copy
            ? format.onePassWriter(
                schemas.struct(), rules, config.protocol(), config.metadataColumns())
            : new DirectProtoWriter(
                schemas.struct(),
                format.rootShape(),
                rules,
                config.protocol(),
                config.metadataColumns());
    assertNotNull(writer);
    return writer;
  }

  @Test
  public void eachStructHasItsOwnClassAndAStructKeepsIt() {
    ConverterConfig event = config("Event", ThriftProtocol.BINARY);
    ConverterConfig allTypes = config("AllTypes", ThriftProtocol.BINARY);
    Class<?> eventClass = writer(event, true).getClass();
    Class<?> allTypesClass = writer(allTypes, true).getClass();
    assertNotSame(eventClass, allTypesClass);
    assertSame(eventClass, writer(event, true).getClass());
    assertSame(eventClass, writer(config("Event", ThriftProtocol.COMPACT), true).getClass());
    for (Class<?> type : List.of(eventClass, allTypesClass)) {
      assertTrue(type.getName(), type.getName().startsWith(DirectProtoWriter.class.getName()));
    }
    assertTrue(
        "at least one of the two is a hidden copy",
        eventClass.isHidden() || allTypesClass.isHidden());
    assertTrue(DirectProtoWriter.structsWithOwnCopy() >= 2);
  }

  @Test
  public void aCopyWritesExactlyWhatTheClassItselfWrites() throws Exception {
    for (String struct : List.of("Event", "AllTypes", "ByoEvent", "Order")) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        ConverterConfig config = config(struct, protocol);
        OnePassWriter<EncodedRow> copy = writer(config, true);
        OnePassWriter<EncodedRow> original = writer(config, false);
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder()
                    .source(config.source())
                    .seed(20261126L)
                    .protocol(protocol)
                    .build());
        int written = 0;
        for (int i = 0; i < 300; i++) {
          byte[] payload = generator.serialize(i);
          EncodedRow fromCopy = copy.write(payload, 0, payload.length, METADATA);
          EncodedRow fromOriginal = original.write(payload, 0, payload.length, METADATA);
          assertEquals(struct + " " + protocol + " #" + i, fromOriginal == null, fromCopy == null);
          if (fromCopy != null) {
            assertArrayEquals(fromOriginal.bytes(), fromCopy.bytes());
            written++;
          }
        }
        // AllTypes (containers of containers) and ByoEvent (IDL defaults) send most of their
        // random events down the general path; the sample event and the shop's Order do not.
        if (struct.equals("Event") || struct.equals("Order")) {
          assertTrue(struct + " " + protocol + ": the one-pass path was taken", written > 100);
        }
      }
    }
  }

  @Test
  public void copiesAreBoundedAndLaterStructsShareTheClass() throws Throwable {
    PerStructClassCopies copies =
        new PerStructClassCopies(
            MethodHandles.lookup().in(Counted.class), MethodType.methodType(void.class, int.class));
    Set<Class<?>> classes = new HashSet<>();
    int structs = PerStructClassCopies.MAX_COPIES + 40;
    for (int i = 0; i < structs; i++) {
      Object counted = copies.constructorFor("Struct" + i).invoke(i);
      classes.add(counted.getClass());
      assertSame(copies.constructorFor("Struct" + i), copies.constructorFor("Struct" + i));
    }
    assertEquals(structs, copies.structs());
    assertEquals(PerStructClassCopies.MAX_COPIES, classes.size());
    Object last = copies.constructorFor("Struct" + (structs - 1)).invoke(7);
    assertSame("past the bound: the class itself", Counted.class, last.getClass());
  }
}
