package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import io.thriftbq.testing.Choice;
import io.thriftbq.testing.Color;
import io.thriftbq.testing.Inner;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TException;
import org.apache.thrift.TFieldIdEnum;
import org.apache.thrift.TFieldRequirementType;
import org.apache.thrift.TSerializer;
import org.apache.thrift.meta_data.FieldMetaData;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class RandomEventGeneratorTest {
  private static final String ALL_TYPES = AllTypes.class.getName();
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

  @Test
  public void everyThriftTypeIsGeneratedAcrossSeeds() {
    Set<AllTypes._Fields> seen = EnumSet.noneOf(AllTypes._Fields.class);
    Set<AllTypes._Fields> seenUnset = EnumSet.noneOf(AllTypes._Fields.class);
    Set<Choice._Fields> unionBranches = EnumSet.noneOf(Choice._Fields.class);
    Set<Color> colors = EnumSet.noneOf(Color.class);
    boolean deepInnerValue = false;
    boolean nonEmptyInnerList = false;
    boolean nonEmptyMapOfLists = false;
    Set<Byte> bytes = new HashSet<>();
    for (long seed = 1; seed <= 20; seed++) {
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder()
                  .className(ALL_TYPES)
                  .seed(seed)
                  .optionalFieldProbability(0.6)
                  .build());
      for (long n = 0; n < 50; n++) {
        AllTypes event = (AllTypes) generator.generate(n);
        for (AllTypes._Fields field : AllTypes._Fields.values()) {
          (event.isSet(field) ? seen : seenUnset).add(field);
        }
        bytes.add(event.getA_byte());
        if (event.isSetA_union()) {
          unionBranches.add(event.getA_union().getSetField());
          assertNotNull("a union has exactly one field set", event.getA_union().getFieldValue());
        }
        if (event.isSetA_enum()) {
          colors.add(event.getA_enum());
        }
        if (event.isSetA_enum_list()) {
          colors.addAll(event.getA_enum_list());
        }
        if (event.isSetA_nested() && event.getA_nested().isSetInner_by_name()) {
          for (Inner inner : event.getA_nested().getInner_by_name().values()) {
            deepInnerValue |= inner.isSetValue() && inner.isSetColor();
          }
        }
        if (event.isSetA_list_of_lists()) {
          for (List<Integer> inner : event.getA_list_of_lists()) {
            nonEmptyInnerList |= !inner.isEmpty();
          }
        }
        if (event.isSetA_map_of_lists()) {
          for (List<String> inner : event.getA_map_of_lists().values()) {
            nonEmptyMapOfLists |= !inner.isEmpty();
          }
        }
      }
    }
    assertEquals("every field is generated", EnumSet.allOf(AllTypes._Fields.class), seen);
    assertEquals("exactly the optional fields are sometimes absent", optionalFields(), seenUnset);
    assertEquals(EnumSet.allOf(Choice._Fields.class), unionBranches);
    assertEquals(EnumSet.allOf(Color.class), colors);
    assertTrue("i8 covers its range", bytes.size() > 200);
    assertTrue("structs nest three levels deep", deepInnerValue);
    assertTrue(nonEmptyInnerList);
    assertTrue(nonEmptyMapOfLists);
  }

  @Test
  public void serializedBytesEqualThriftsOwnSerializationOfTheSameEvent() throws TException {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      for (String className : List.of(ALL_TYPES, Event.class.getName())) {
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder().className(className).protocol(protocol).seed(3).build());
        TSerializer serializer = new TSerializer(factory(protocol));
        for (long n = 0; n < 300; n++) {
          byte[] expected = serializer.serialize(generator.generate(n));
          assertArrayEquals(
              className + " #" + n + " with " + protocol, expected, generator.serialize(n));
        }
      }
    }
  }

  @Test
  public void largeEventsGrowTheBufferWithoutCorruptingIt() throws TException {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .completeObjects(true)
                .minStringLength(1000)
                .maxStringLength(5000)
                .build());
    TSerializer serializer = new TSerializer(new TBinaryProtocol.Factory());
    for (long n = 0; n < 20; n++) {
      int length = generator.serializeToBuffer(n);
      assertThat(length, greaterThan(20_000));
      byte[] expected = serializer.serialize(generator.generate(n));
      assertArrayEquals(expected, Arrays.copyOf(generator.buffer(), length));
    }
  }

  @Test
  public void eventsRoundTripThroughThriftDeserialization() throws TException {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      for (String className : List.of(ALL_TYPES, Event.class.getName())) {
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder().className(className).protocol(protocol).seed(5).build());
        TDeserializer deserializer = new TDeserializer(factory(protocol));
        for (long n = 0; n < 300; n++) {
          TBase<?, ?> decoded = withoutIdlDefaults(generator.struct().newInstance());
          deserializer.deserialize(decoded, generator.serialize(n));
          // Unknown enum values or wrong wire types would be dropped or fail here.
          assertEquals(className + " #" + n, generator.generate(n), decoded);
          validate(decoded);
        }
      }
    }
  }

  @Test
  public void sameSeedAndOptionsGiveSameBytesInAnyOrder() {
    GeneratorConfig config = GeneratorConfig.builder().seed(99).build();
    RandomEventGenerator forward = new RandomEventGenerator(config);
    RandomEventGenerator backward = new RandomEventGenerator(config);
    byte[][] expected = new byte[500][];
    for (int n = 0; n < 500; n++) {
      expected[n] = forward.serialize(n);
    }
    for (int n = 499; n >= 0; n--) {
      assertArrayEquals("event " + n, expected[n], backward.serialize(n));
    }
    assertArrayEquals(expected[17], new RandomEventGenerator(config).serialize(17));
  }

  /**
   * Pins the exact bytes of fixed (seed, sequence) events, so that refactoring the value generators
   * cannot silently change what a given seed publishes: the other tests only compare the generator
   * with itself (serialize against generate, run against run). The hashes were recorded with the
   * generator as of this test's introduction; a deliberate change of the output must update them
   * (and say so, since it changes every published data set).
   */
  @Test
  public void fixedSeedsKeepTheirExactBytes() throws NoSuchAlgorithmException {
    GeneratorConfig event = GeneratorConfig.builder().seed(42).build();
    GeneratorConfig allTypes = event.toBuilder().className(ALL_TYPES).build();
    Map<String, GeneratorConfig> cases = new LinkedHashMap<>();
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      cases.put("Event " + protocol, event.toBuilder().protocol(protocol).build());
      cases.put("AllTypes " + protocol, allTypes.toBuilder().protocol(protocol).build());
    }
    // Complete objects with larger containers put every set, list and map in every event; strings
    // and binaries of 0 or 1 byte make set elements and map keys repeat, which pins how they are
    // de-duplicated. Skew exercises the reseeded value streams, also for whole sets (tags,
    // segment_ids).
    cases.put(
        "AllTypes complete",
        allTypes.toBuilder()
            .protocol(ThriftProtocol.COMPACT)
            .completeObjects(true)
            .maxCollectionSize(12)
            .build());
    cases.put(
        "AllTypes repeats",
        allTypes.toBuilder()
            .completeObjects(true)
            .minStringLength(0)
            .maxStringLength(1)
            .maxCollectionSize(12)
            .build());
    cases.put(
        "Event skewed",
        event.toBuilder()
            .fieldsWithSkew(
                "user_id", "products.sku", "products.tags", "segment_ids", "session.location")
            .skewCardinality(20)
            .build());
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put(
        "Event BINARY", "a131a251b7c9c4fc88af70688e7972980d96cbdde23bd61799e2dbb9e5e7ce84");
    expected.put(
        "AllTypes BINARY", "0fd8156d5f6881d261ed65a38ac4f35563c49988709bc22820ed777589d9d24e");
    expected.put(
        "Event COMPACT", "d928fd395a9932a7567dee8c387ea9ab5af6b7a9a6e141dbf60c386fa9af930e");
    expected.put(
        "AllTypes COMPACT", "7788d0bfff21002dbd3198d9e41d210c3e8ca6fa6777e5654335f0c1a89eec33");
    expected.put(
        "AllTypes complete", "1a96ef27d6966bb32bcc4159dbf3cd962028eb801843850ad857c0c1fb19e951");
    expected.put(
        "AllTypes repeats", "ae9438a13289eae75574712e642b9d4033f66af90853c80019f247cb447e71da");
    expected.put(
        "Event skewed", "a26d4411f49eb927549fab60a90a5a0e3f5de095cabbb5a6a74558066b808bce");
    Map<String, String> actual = new LinkedHashMap<>();
    for (Map.Entry<String, GeneratorConfig> c : cases.entrySet()) {
      actual.put(c.getKey(), sha256OfFirstEvents(new RandomEventGenerator(c.getValue()), 200));
    }
    assertEquals(expected, actual);
  }

  /** SHA-256 of events 0..count-1, each preceded by its length so boundaries count too. */
  private static String sha256OfFirstEvents(RandomEventGenerator generator, int count)
      throws NoSuchAlgorithmException {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    for (int n = 0; n < count; n++) {
      int length = generator.serializeToBuffer(n);
      digest.update(ByteBuffer.allocate(4).putInt(0, length));
      digest.update(generator.buffer(), 0, length);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  @Test
  public void differentSeedsOrSequencesGiveDifferentEvents() {
    RandomEventGenerator a = new RandomEventGenerator(GeneratorConfig.builder().seed(1).build());
    RandomEventGenerator b = new RandomEventGenerator(GeneratorConfig.builder().seed(2).build());
    Set<String> distinct = new HashSet<>();
    for (int n = 0; n < 500; n++) {
      byte[] fromA = a.serialize(n);
      assertFalse("event " + n, Arrays.equals(fromA, b.serialize(n)));
      distinct.add(Arrays.toString(fromA));
    }
    assertEquals("every event differs from the others", 500, distinct.size());
  }

  @Test
  public void completeObjectsSetsEveryOptionalField() {
    RandomEventGenerator generator =
        new RandomEventGenerator(GeneratorConfig.builder().completeObjects(true).build());
    for (int n = 0; n < 200; n++) {
      Event event = (Event) generator.generate(n);
      for (Event._Fields field : Event._Fields.values()) {
        assertTrue(field + " in event " + n, event.isSet(field));
      }
      assertTrue(event.getSession().getDevice().isSetUser_agent());
      assertTrue(event.getSession().getLocation().isSetAccuracy_meters());
    }
  }

  @Test
  public void probabilityZeroSetsOnlyRequiredFieldsAndClearsIdlDefaults() {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder().className(ALL_TYPES).optionalFieldProbability(0).build());
    for (int n = 0; n < 50; n++) {
      AllTypes event = (AllTypes) generator.generate(n);
      for (AllTypes._Fields field : AllTypes._Fields.values()) {
        assertEquals(field.getFieldName(), !optionalFields().contains(field), event.isSet(field));
      }
    }
  }

  @Test
  public void optionalFieldsAppearWithTheConfiguredProbability() {
    RandomEventGenerator generator =
        new RandomEventGenerator(GeneratorConfig.builder().optionalFieldProbability(0.3).build());
    int set = 0;
    int total = 10_000;
    for (int n = 0; n < total; n++) {
      if (((Event) generator.generate(n)).isSetUser_id()) {
        set++;
      }
    }
    // 0.3 +- 5 standard deviations (0.0046 each).
    assertThat(set / (double) total, allOf(greaterThan(0.277), lessThan(0.323)));
  }

  @Test
  public void stringsAndCollectionsStayWithinTheirBounds() {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .completeObjects(true)
                .minStringLength(7)
                .maxStringLength(9)
                .maxCollectionSize(3)
                .build());
    Set<Integer> lengths = new HashSet<>();
    Set<Integer> sizes = new HashSet<>();
    for (int n = 0; n < 500; n++) {
      Event event = (Event) generator.generate(n);
      assertTrue(event.getEvent_id(), UUID.matcher(event.getEvent_id()).matches());
      lengths.add(event.getUser_id().length());
      lengths.add(event.getPayload_signature().length);
      sizes.add(event.getProducts().size());
      sizes.add(event.getSegment_ids().size());
      sizes.add(event.getProperties().size());
      for (String term : event.getSearch_terms()) {
        assertTrue(term, term.matches("[a-z ]{7,9}"));
      }
      assertThat(event.getEvent_time(), greaterThanOrEqualTo(1_704_067_200_000L));
      assertThat(event.getEvent_time(), lessThan(1_704_067_200_000L + 366L * 86_400_000));
    }
    assertEquals(Set.of(7, 8, 9), lengths);
    assertEquals(Set.of(0, 1, 2, 3), sizes);
  }

  @Test
  public void defaultsGiveAboutOneKilobyteSampleEvents() {
    RandomEventGenerator generator = new RandomEventGenerator(GeneratorConfig.builder().build());
    long total = 0;
    int count = 5000;
    for (int n = 0; n < count; n++) {
      total += generator.serializeToBuffer(n);
    }
    assertThat(total / count, allOf(greaterThan(900L), lessThan(1200L)));
  }

  @Test
  public void skewConcentratesValuesAsConfigured() {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .completeObjects(true)
                .fieldsWithSkew("user_id", "session.device.model", "products.sku")
                .skewCardinality(100)
                .skewExponent(1.0)
                .build());
    Map<String, Integer> users = new HashMap<>();
    Map<String, Integer> models = new HashMap<>();
    Map<String, Integer> skus = new HashMap<>();
    Set<String> sessions = new HashSet<>();
    int count = 20_000;
    for (int n = 0; n < count; n++) {
      Event event = (Event) generator.generate(n);
      users.merge(event.getUser_id(), 1, Integer::sum);
      models.merge(event.getSession().getDevice().getModel(), 1, Integer::sum);
      event.getProducts().forEach(p -> skus.merge(p.getSku(), 1, Integer::sum));
      sessions.add(event.getSession().getSession_id());
    }
    double harmonic100 = 0;
    for (int k = 1; k <= 100; k++) {
      harmonic100 += 1.0 / k;
    }
    for (Map<String, Integer> counts : List.of(users, models)) {
      assertThat(counts.size(), lessThanOrEqualTo(100));
      assertThat(counts.size(), greaterThan(90));
      List<Integer> sorted = counts.values().stream().sorted((x, y) -> y - x).toList();
      // Zipf(1) over 100 values: the top one takes 1/H(100) = 19.3%, the second half as much.
      assertEquals(1 / harmonic100, sorted.get(0) / (double) count, 0.02);
      assertEquals(2.0, sorted.get(0) / (double) sorted.get(1), 0.35);
    }
    assertThat(skus.size(), lessThanOrEqualTo(100));
    assertEquals("unskewed fields stay unique", count, sessions.size());
  }

  @Test
  public void skewExponentZeroIsUniformAndLargeExponentIsConcentrated() {
    for (double exponent : new double[] {0.0, 2.0}) {
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder()
                  .completeObjects(true)
                  .fieldsWithSkew("user_id")
                  .skewCardinality(1000)
                  .skewExponent(exponent)
                  .build());
      Map<String, Integer> users = new HashMap<>();
      int count = 20_000;
      for (int n = 0; n < count; n++) {
        users.merge(((Event) generator.generate(n)).getUser_id(), 1, Integer::sum);
      }
      double top = users.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      if (exponent == 0) {
        assertThat("uniform over 1000 values", top / count, lessThan(0.003));
        assertThat(users.size(), greaterThan(990));
      } else {
        // sum 1/k^2 for k <= 1000 = 1.6439: the top value takes 60.8%.
        assertEquals(0.608, top / count, 0.02);
      }
    }
  }

  @Test
  public void skewedFieldKeepsItsTypeForEnumsAndStructs() throws TException {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .completeObjects(true)
                .fieldsWithSkew("event_type", "session.location", "payment")
                .skewCardinality(3)
                .build());
    Set<Object> locations = new HashSet<>();
    Set<Object> payments = new HashSet<>();
    TDeserializer deserializer = new TDeserializer(new TBinaryProtocol.Factory());
    for (int n = 0; n < 300; n++) {
      Event event = (Event) generator.generate(n);
      locations.add(event.getSession().getLocation());
      payments.add(event.getPayment());
      Event decoded = new Event();
      deserializer.deserialize(decoded, generator.serialize(n));
      assertEquals(event, decoded);
    }
    assertThat(locations.size(), lessThanOrEqualTo(3));
    assertThat(payments.size(), lessThanOrEqualTo(3));
  }

  @Test
  public void unknownSkewPathIsRejectedWithTheKnownPaths() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new RandomEventGenerator(
                    GeneratorConfig.builder().fieldsWithSkew("user_id", "session.devise").build()));
    assertThat(e.getMessage(), containsString("[session.devise]"));
    assertThat(e.getMessage(), containsString("session.device.model"));
    RandomEventGenerator generator = new RandomEventGenerator(GeneratorConfig.builder().build());
    assertTrue(generator.fieldPaths().contains("products.tags"));
    assertTrue(generator.fieldPaths().contains("payment.card_token"));
  }

  @Test
  public void invalidClassesAndNumbersAreRejected() {
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RandomEventGenerator(
                        GeneratorConfig.builder().className("com.example.Missing").build()))
            .getMessage(),
        containsString("not on the classpath"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RandomEventGenerator(
                        GeneratorConfig.builder().className("java.lang.String").build()))
            .getMessage(),
        containsString("not a Thrift struct"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RandomEventGenerator(
                        GeneratorConfig.builder()
                            .minStringLength(10)
                            .maxStringLength(5)
                            .optionalFieldProbability(1.5)
                            .build()))
            .getMessage(),
        allOf(containsString("--maxStringLength=5"), containsString("--optionalFieldProbability")));
  }

  @Test
  public void binaryValuesAreRandomBytes() {
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .className(ALL_TYPES)
                .minStringLength(64)
                .maxStringLength(80)
                .build());
    Set<Integer> values = new HashSet<>();
    for (int n = 0; n < 20; n++) {
      ByteBuffer binary = ((AllTypes) generator.generate(n)).bufferForA_binary();
      while (binary.hasRemaining()) {
        values.add(binary.get() & 0xFF);
      }
    }
    assertThat(values.size(), greaterThan(250));
  }

  private static Set<AllTypes._Fields> optionalFields() {
    Set<AllTypes._Fields> optional = EnumSet.noneOf(AllTypes._Fields.class);
    AllTypes.metaDataMap.forEach(
        (field, meta) -> {
          if (meta.requirementType == TFieldRequirementType.OPTIONAL) {
            optional.add(field);
          }
        });
    return optional;
  }

  /**
   * An absent optional field is absent from the wire; a reader that starts from a new instance sees
   * the IDL default there instead, so compare against an instance with the defaults unset.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static TBase<?, ?> withoutIdlDefaults(TBase<?, ?> instance) {
    TBase raw = instance;
    for (Object field : FieldMetaData.getStructMetaDataMap((Class) instance.getClass()).keySet()) {
      raw.setFieldValue((TFieldIdEnum) field, null);
    }
    return instance;
  }

  private static void validate(TBase<?, ?> decoded) throws TException {
    if (decoded instanceof AllTypes allTypes) {
      allTypes.validate();
    } else if (decoded instanceof Event event) {
      event.validate();
    }
  }

  private static TProtocolFactory factory(ThriftProtocol protocol) {
    return protocol == ThriftProtocol.BINARY
        ? new TBinaryProtocol.Factory()
        : new TCompactProtocol.Factory();
  }
}
