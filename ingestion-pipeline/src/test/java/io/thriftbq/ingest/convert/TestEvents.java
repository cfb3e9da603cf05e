package io.thriftbq.ingest.convert;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.testing.TestData;
import io.thriftbq.sample.Device;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.EventType;
import io.thriftbq.sample.Experiment;
import io.thriftbq.sample.GeoLocation;
import io.thriftbq.sample.PaymentMethod;
import io.thriftbq.sample.Platform;
import io.thriftbq.sample.Product;
import io.thriftbq.sample.Session;
import io.thriftbq.testing.AllTypes;
import io.thriftbq.testing.Choice;
import io.thriftbq.testing.Color;
import io.thriftbq.testing.Inner;
import io.thriftbq.testing.Middle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;

/**
 * Hand-built, seeded test events for the converter tests (independent of the data generator, so a
 * generator bug cannot hide a converter bug). Optional fields are set about half of the time.
 */
final class TestEvents {
  private TestEvents() {}

  static byte[] serialize(TBase<?, ?> event, ThriftProtocol protocol) {
    try {
      TSerializer serializer =
          new TSerializer(
              protocol == ThriftProtocol.BINARY
                  ? new TBinaryProtocol.Factory()
                  : new TCompactProtocol.Factory());
      return serializer.serialize(event);
    } catch (TException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] serializeWithI32(
      TBase<?, ?> event, ThriftProtocol protocol, int value, int... path) {
    return TestData.serializeWithI32(event, protocol, value, path);
  }

  static Event sampleEvent(Random random) {
    Event event =
        new Event()
            .setEvent_id(word(random, 36))
            .setEvent_type(EventType.values()[random.nextInt(EventType.values().length)])
            .setEvent_time(1_700_000_000_000L + random.nextInt(1_000_000_000));
    if (random.nextBoolean()) {
      event.setUser_id("user-" + random.nextInt(100_000));
    }
    if (random.nextBoolean()) {
      Session session = new Session().setSession_id(word(random, 36));
      if (random.nextBoolean()) {
        session.setStarted_at(random.nextLong()).setPage_views(random.nextInt(50));
      }
      if (random.nextBoolean()) {
        session.setDevice(
            new Device()
                .setPlatform(Platform.values()[random.nextInt(4)])
                .setModel(word(random, 8))
                .setScreen_width((short) random.nextInt(4000))
                .setIs_tablet(random.nextBoolean()));
      }
      if (random.nextBoolean()) {
        session.setLocation(
            new GeoLocation()
                .setLatitude(random.nextDouble() * 180 - 90)
                .setLongitude(random.nextDouble() * 360 - 180)
                .setCity(word(random, 10)));
      }
      event.setSession(session);
    }
    if (random.nextBoolean()) {
      List<Product> products = new ArrayList<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        Product product = new Product().setSku(word(random, 12)).setPrice_micros(random.nextLong());
        if (random.nextBoolean()) {
          product.setTags(new HashSet<>(List.of(word(random, 5), word(random, 6))));
        }
        products.add(product);
      }
      event.setProducts(products);
    }
    if (random.nextBoolean()) {
      Map<String, String> properties = new HashMap<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        properties.put(word(random, 6), word(random, 20));
      }
      event.setProperties(properties);
    }
    if (random.nextBoolean()) {
      event.setSegment_ids(Set.of(random.nextInt(1000), 1000 + random.nextInt(1000)));
    }
    if (random.nextBoolean()) {
      event.setExperiments(List.of(new Experiment().setExperiment_id(word(random, 8))));
    }
    if (random.nextBoolean()) {
      event.setRevenue(random.nextDouble() * 1000).setIs_test(random.nextBoolean());
    }
    if (random.nextBoolean()) {
      byte[] signature = new byte[32];
      random.nextBytes(signature);
      event.setPayload_signature(signature);
    }
    if (random.nextBoolean()) {
      event.setSchema_version((short) 3).setPriority((byte) random.nextInt(128));
    }
    if (random.nextBoolean()) {
      event.setSearch_terms(List.of(word(random, 7), word(random, 9)));
      event.setCounters(Map.of(word(random, 4), random.nextLong()));
    }
    switch (random.nextInt(4)) {
      case 0 -> event.setPayment(PaymentMethod.card_token(word(random, 16)));
      case 1 -> event.setPayment(PaymentMethod.gift_card_id(random.nextLong()));
      default -> {}
    }
    return event;
  }

  static AllTypes allTypes(Random random) {
    AllTypes value =
        new AllTypes()
            .setA_bool(random.nextBoolean())
            .setA_byte((byte) random.nextInt())
            .setA_i16((short) random.nextInt())
            .setA_i32(random.nextInt())
            .setA_i64(random.nextLong())
            .setA_double(random.nextDouble())
            .setA_string(word(random, 10))
            .setA_binary(bytes(random, 9));
    if (random.nextBoolean()) {
      value.setA_enum(Color.BLUE).setA_typedef(random.nextInt());
      value.setA_typedef_list(List.of(word(random, 3)));
      value.setA_list(List.of(random.nextLong(), random.nextLong()));
      value.setA_set(Set.of(word(random, 4)));
      value.setA_map(Map.of(word(random, 5), random.nextInt()));
      value.setA_map_of_structs(Map.of(random.nextLong(), inner(random)));
      value.setA_list_of_lists(List.of(List.of(1, 2), List.of(), List.of(random.nextInt())));
      value.setA_nested(
          new Middle()
              .setInner(inner(random))
              .setInners(List.of(inner(random), inner(random)))
              .setInner_by_name(Map.of("x", inner(random))));
      value.setA_union(
          random.nextBoolean() ? Choice.text(word(random, 4)) : Choice.inner(inner(random)));
      value.setA_struct_typedef(inner(random));
      value.setA_enum_list(List.of(Color.RED, Color.GREEN));
      value.setA_map_of_lists(Map.of("k", List.of(word(random, 2), word(random, 3))));
      value.setA_binary_set(Set.of(ByteBuffer.wrap(bytes(random, 3))));
      value.setDefault_requirement(word(random, 4));
      value.setInt_with_default(random.nextInt());
    }
    return value;
  }

  private static Inner inner(Random random) {
    Inner inner = new Inner().setName(word(random, 6));
    if (random.nextBoolean()) {
      inner.setValue(random.nextLong()).setColor(Color.GREEN);
    }
    return inner;
  }

  static String word(Random random, int length) {
    StringBuilder word = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      word.append((char) ('a' + random.nextInt(26)));
    }
    return word.toString();
  }

  static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
