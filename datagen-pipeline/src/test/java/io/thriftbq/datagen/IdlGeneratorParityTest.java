package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.ThriftSource;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** The generator writes the same bytes from an IDL read at launch as from generated classes. */
@RunWith(Parameterized.class)
public class IdlGeneratorParityTest {
  static final String THRIFT_DIR = "../thrift-common/src/";

  @Parameters(name = "{0} {1} complete={2}")
  public static List<Object[]> cases() {
    return List.of(
        new Object[] {"Event", ThriftProtocol.BINARY, false},
        new Object[] {"Event", ThriftProtocol.COMPACT, true},
        new Object[] {"AllTypes", ThriftProtocol.BINARY, true},
        new Object[] {"AllTypes", ThriftProtocol.COMPACT, false},
        // fields written without an id (-1, -2, ...), typedef chains, defaults of every kind
        new Object[] {"Job", ThriftProtocol.BINARY, false},
        new Object[] {"Job", ThriftProtocol.COMPACT, true},
        // structs and a union with no fields
        new Object[] {"Flagged", ThriftProtocol.BINARY, true},
        new Object[] {"Flagged", ThriftProtocol.COMPACT, false});
  }

  /** Per struct: its IDL under thrift-common/src/, its generated class, a field to skew. */
  private static final Map<String, List<String>> SUBJECTS =
      Map.of(
          "Event",
          List.of("main/thrift/sample_event.thrift", "io.thriftbq.sample.Event", "user_id"),
          "AllTypes",
          List.of("test/thrift/all_types.thrift", "io.thriftbq.testing.AllTypes", "a_string"),
          "Job",
          List.of("test/thrift/legacy.thrift", "io.thriftbq.testing.legacy.Job", "name"),
          "Flagged",
          List.of("test/thrift/presence.thrift", "io.thriftbq.testing.presence.Flagged", "id"));

  private final String struct;
  private final ThriftProtocol protocol;
  private final boolean complete;

  public IdlGeneratorParityTest(String struct, ThriftProtocol protocol, boolean complete) {
    this.struct = struct;
    this.protocol = protocol;
    this.complete = complete;
  }

  static ThriftSource idlOf(String struct) {
    return ThriftSource.idl(THRIFT_DIR + SUBJECTS.get(struct).get(0), List.of(), struct);
  }

  static String classOf(String struct) {
    return SUBJECTS.get(struct).get(1);
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
        new RandomEventGenerator(base.toBuilder().className(classOf(struct)).build());
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(base.toBuilder().source(idlOf(struct)).build());
    for (long n = 0; n < 500; n++) {
      assertArrayEquals("event " + n, fromClass.serialize(n), fromIdl.serialize(n));
    }
  }

  @Test
  public void skewedFieldsWorkFromAnIdl() {
    String field = SUBJECTS.get(struct).get(2);
    GeneratorConfig base =
        GeneratorConfig.builder().seed(3).protocol(protocol).fieldsWithSkew(field).build();
    RandomEventGenerator fromClass =
        new RandomEventGenerator(base.toBuilder().className(classOf(struct)).build());
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(base.toBuilder().source(idlOf(struct)).build());
    for (long n = 0; n < 100; n++) {
      assertArrayEquals(fromClass.serialize(n), fromIdl.serialize(n));
    }
    assertTrue(fromIdl.fieldPaths().contains(field));
  }

  @Test
  public void objectsNeedAGeneratedClass() {
    RandomEventGenerator fromIdl =
        new RandomEventGenerator(GeneratorConfig.builder().source(idlOf(struct)).build());
    assertThat(
        assertThrows(IllegalStateException.class, () -> fromIdl.generate(0)).getMessage(),
        containsString("serialize"));
  }
}
