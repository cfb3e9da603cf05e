package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.GeneratedTestIdl;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** The generator writes the same bytes from an IDL read at launch as from generated classes. */
@RunWith(Parameterized.class)
public class IdlGeneratorParityTest {
  @Parameters(name = "{0} {1} complete={2}")
  public static List<Object[]> cases() {
    return List.of(
        new Object[] {GeneratedTestIdl.SAMPLE, ThriftProtocol.BINARY, false},
        new Object[] {GeneratedTestIdl.SAMPLE, ThriftProtocol.COMPACT, true},
        new Object[] {GeneratedTestIdl.ALL_TYPES, ThriftProtocol.BINARY, true},
        new Object[] {GeneratedTestIdl.ALL_TYPES, ThriftProtocol.COMPACT, false},
        // fields written without an id (-1, -2, ...), typedef chains, defaults of every kind
        new Object[] {GeneratedTestIdl.LEGACY, ThriftProtocol.BINARY, false},
        new Object[] {GeneratedTestIdl.LEGACY, ThriftProtocol.COMPACT, true},
        // structs and a union with no fields
        new Object[] {GeneratedTestIdl.PRESENCE, ThriftProtocol.BINARY, true},
        new Object[] {GeneratedTestIdl.PRESENCE, ThriftProtocol.COMPACT, false});
  }

  private final GeneratedTestIdl idl;
  private final ThriftProtocol protocol;
  private final boolean complete;

  public IdlGeneratorParityTest(GeneratedTestIdl idl, ThriftProtocol protocol, boolean complete) {
    this.idl = idl;
    this.protocol = protocol;
    this.complete = complete;
  }

  /** A field of each struct to skew. */
  private static String skewedField(GeneratedTestIdl idl) {
    return switch (idl) {
      case SAMPLE -> "user_id";
      case ALL_TYPES -> "a_string";
      case LEGACY -> "name";
      case PRESENCE -> "id";
    };
  }

  @Test
  public void sameSeedSameBytesFromEitherSource() {
    GeneratorConfig base =
        GeneratorConfig.builder()
            .seed(11)
            .protocol(protocol)
            .completeObjects(complete)
            .maxCollectionSize(4)
            .build();
    RandomEventGenerator fromClass =
        new RandomEventGenerator(base.toBuilder().className(idl.className()).build());
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(base.toBuilder().source(idl.idlSource()).build());
    for (long n = 0; n < 500; n++) {
      assertArrayEquals("event " + n, fromClass.serialize(n), fromIdl.serialize(n));
    }
  }

  @Test
  public void skewedFieldsWorkFromAnIdl() {
    String field = skewedField(idl);
    GeneratorConfig base =
        GeneratorConfig.builder().seed(3).protocol(protocol).fieldsWithSkew(field).build();
    RandomEventGenerator fromClass =
        new RandomEventGenerator(base.toBuilder().className(idl.className()).build());
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(base.toBuilder().source(idl.idlSource()).build());
    for (long n = 0; n < 100; n++) {
      assertArrayEquals(fromClass.serialize(n), fromIdl.serialize(n));
    }
    assertTrue(fromIdl.fieldPaths().contains(field));
  }

  @Test
  public void objectsNeedAGeneratedClass() {
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(GeneratorConfig.builder().source(idl.idlSource()).build());
    assertThat(
        assertThrows(IllegalStateException.class, () -> fromIdl.generate(0)).getMessage(),
        containsString("serialize"));
  }
}
