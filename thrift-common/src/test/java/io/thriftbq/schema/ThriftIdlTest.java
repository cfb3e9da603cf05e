package io.thriftbq.schema;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import io.thriftbq.testing.legacy.Failure;
import io.thriftbq.testing.legacy.Job;
import io.thriftbq.testing.legacy.Point;
import io.thriftbq.testing.legacy.Step;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class ThriftIdlTest {
  static final Path SAMPLE = GeneratedTestIdl.SAMPLE.idl();
  static final Path ALL_TYPES = GeneratedTestIdl.ALL_TYPES.idl();
  static final Path LEGACY = GeneratedTestIdl.LEGACY.idl();
  static final Path IDL_DIR = Path.of("src/test/idl");
  static final Path BYO = IDL_DIR.resolve("byo_event.thrift");

  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @Test
  public void sampleIdlDescribesTheSameStructAsTheGeneratedClass() {
    assertSameShape(
        ThriftStruct.of(Event.class), ThriftIdl.load(SAMPLE, List.of(), "Event"), "Event");
  }

  @Test
  public void allTypesIdlDescribesTheSameStructAsTheGeneratedClass() {
    assertSameShape(
        ThriftStruct.of(AllTypes.class), ThriftIdl.load(ALL_TYPES, List.of(), "AllTypes"), "");
  }

  @Test
  public void fieldsWithoutAnIdGetTheCompilersIds() {
    ThriftStruct job = ThriftIdl.load(LEGACY, List.of(), "Job");
    // Not assertSameShape: the generated class has no typedef name for the elements of a typedef
    // of a container (Timeline), which only the generator reads.
    assertEquals(idsAndNames(ThriftStruct.of(Job.class)), idsAndNames(job));
    assertEquals(-1, field(job, "name").id());
    assertEquals(-4, field(job, "current").id());
    assertEquals(13, field(job, "levels").id()); // written 0x0D
    ThriftStruct step = ((ThriftType.StructRef) field(job, "current").type()).struct();
    assertSameShape(ThriftStruct.of(Step.class), step, "Step");
    assertEquals(
        List.of((short) -1, (short) -2, (short) -3),
        step.fields().stream().map(ThriftField::id).toList());
    assertSameShape(
        ThriftStruct.of(Failure.class), ThriftIdl.load(LEGACY, List.of(), "Failure"), "Failure");
    assertSameShape(
        ThriftStruct.of(Point.class), ThriftIdl.load(LEGACY, List.of(), "Point"), "Point");
  }

  /** The ids the Apache Thrift 0.17 compiler gives commented_ids.thrift's fields. */
  @Test
  public void commentsBeforeOrBesideAFieldDoNotChangeItsId() {
    ThriftStruct commented =
        ThriftIdl.load(IDL_DIR.resolve("commented_ids.thrift"), List.of(), "D");
    assertEquals(
        List.of("1 a", "2 b", "3 c", "4 d", "5 e", "6 f", "7 g", "8 j", "-1 h", "-2 i"),
        commented.fields().stream().map(f -> f.id() + " " + f.name()).toList());
  }

  private static List<String> idsAndNames(ThriftStruct struct) {
    return struct.fields().stream()
        .map(f -> f.id() + ":" + f.requirement() + " " + f.name())
        .sorted()
        .toList();
  }

  @Test
  public void idlResolvesIncludesTypedefsGapsUnionsExceptionsConstantsAndDefaults()
      throws Exception {
    ThriftStruct byo = ThriftIdl.load(BYO, List.of(), "ByoEvent");
    assertFalse(byo.hasJavaClass());
    assertEquals("byo_event.ByoEvent", byo.qualifiedName());
    assertEquals("io.thriftbq.testing.byo", byo.javaPackage());
    ThriftField tags = field(byo, "tags");
    assertEquals(
        new ThriftType.ListOf(new ThriftType.Primitive(ThriftType.PrimitiveKind.STRING, null)),
        tags.type());
    ThriftType.EnumRef level = (ThriftType.EnumRef) field(byo, "level").type();
    assertEquals("HIGH", level.enumType().nameOf(10));
    assertNull("a gap is unknown", level.enumType().nameOf(2));
    assertEquals(10, readI32(field(byo, "level").idlDefault()));
    assertEquals("a constant is followed", 3, readI32(field(byo, "priority").idlDefault()));
    assertTrue(((ThriftType.StructRef) field(byo, "payload").type()).struct().isUnion());
    ThriftStruct failure = ((ThriftType.StructRef) field(byo, "failure").type()).struct();
    assertEquals(500, readI32(field(failure, "code").idlDefault()));
    assertEquals(
        new ThriftType.MapOf(
            new ThriftType.Primitive(ThriftType.PrimitiveKind.STRING, null),
            new ThriftType.ListOf(new ThriftType.Primitive(ThriftType.PrimitiveKind.I64, null))),
        field(byo, "series").type());
    assertEquals(ThriftField.Requirement.DEFAULT, field(byo, "sequence").requirement());
    assertThat(field(byo, "sequence").location(), containsString("byo_event.thrift:"));

    // Workers get the struct by serialization, with no parser and no files.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(byo);
    }
    ThriftStruct copy;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (ThriftStruct) in.readObject();
    }
    assertEquals(ThriftIdl.fingerprint(byo), ThriftIdl.fingerprint(copy));
  }

  @Test
  public void idlSourceNeedsNoClassAndSaysSoWhereOneIsNeeded() {
    ThriftSource source = ThriftSource.idl(BYO.toString(), List.of(), "ByoEvent");
    assertEquals(source, ThriftSource.idl(BYO.toString(), List.of(), "ByoEvent"));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> source.resolve().structClass());
    assertThat(e.getMessage(), containsString("--thriftClassName"));
  }

  @Test
  public void remoteLayoutIsMirroredWithItsIncludes() throws Exception {
    Path dir = temp.newFolder("bucket").toPath();
    Files.createDirectories(dir.resolve("common"));
    Files.copy(BYO, dir.resolve("byo_event.thrift"));
    Files.copy(IDL_DIR.resolve("common/shared.thrift"), dir.resolve("common/shared.thrift"));
    String uri = dir.resolve("byo_event.thrift").toUri().toString();
    assertTrue(uri, IdlFiles.isRemote(uri));
    ThriftSource source = ThriftSource.idl(uri, List.of(), "ByoEvent");
    assertEquals(
        ThriftIdl.fingerprint(ThriftIdl.load(BYO, List.of(), "ByoEvent")),
        ((ThriftSource.Idl) source).fingerprint());
  }

  @Test
  public void includePathIsSearched() throws Exception {
    Path dir = temp.newFolder("idl").toPath();
    Files.writeString(
        dir.resolve("main.thrift"),
        "include \"shared.thrift\"\nstruct Wrapper {\n  1: optional shared.Point point,\n}\n");
    Path includes = IDL_DIR.resolve("common").toAbsolutePath();
    ThriftStruct wrapper = ThriftIdl.load(dir.resolve("main.thrift"), List.of(includes), "Wrapper");
    assertEquals("Point", ((ThriftType.StructRef) field(wrapper, "point").type()).struct().name());
  }

  @Test
  public void launchFailuresNameTheFileTheLineAndWhatToChange() {
    Path broken = IDL_DIR.resolve("broken");
    assertThat(
        failure(broken.resolve("syntax_error.thrift"), "Broken"),
        containsString("syntax_error.thrift"));
    assertThat(
        failure(broken.resolve("missing_include.thrift"), "UsesMissing"),
        containsString("not_there.thrift"));
    String recursive = failure(broken.resolve("recursive.thrift"), "Node");
    assertThat(recursive, containsString("recursive.thrift:1"));
    assertThat(recursive, containsString("recursive"));
    String unknown = failure(BYO, "NoSuchEvent");
    assertThat(unknown, containsString("known: "));
    assertThat(unknown, containsString("byo_event.ByoEvent"));
    assertThat(failure(broken.resolve("ambiguous.thrift"), "Point"), containsString("ambiguous"));
    assertEquals(
        "ambiguous.Point",
        ThriftIdl.load(broken.resolve("ambiguous.thrift"), List.of(), "ambiguous.Point")
            .qualifiedName());
    assertThat(
        failure(broken.resolve("bad_default.thrift"), "BadDefault"),
        containsString("bad_default.thrift:2"));
    assertThat(failure(IDL_DIR.resolve("nope.thrift"), "X"), containsString("--thriftIdl"));
    String collision = failure(broken.resolve("implicit_id_collision.thrift"), "Collides");
    assertThat(collision, containsString("implicit_id_collision.thrift:4"));
    assertThat(collision, containsString("numbers such fields -1"));
    assertThat(collision, containsString("--thriftClassName"));
    String binaryDefault = failure(broken.resolve("binary_default.thrift"), "Blob");
    assertThat(binaryDefault, containsString("binary_default.thrift:3"));
    assertThat(binaryDefault, containsString("remove that default"));
    String negativeHex = failure(broken.resolve("negative_hex.thrift"), "Offsets");
    assertThat(negativeHex, containsString("negative_hex.thrift"));
    assertThat(negativeHex, containsString("-0x10"));
    assertThat(negativeHex, containsString("write it in decimal"));
  }

  private static String failure(Path file, String struct) {
    return assertThrows(
            IllegalArgumentException.class, () -> ThriftIdl.load(file, List.of(), struct))
        .getMessage();
  }

  private static int readI32(byte[] encoded) throws Exception {
    assertNotNull(encoded);
    return new TBinaryProtocol(new TMemoryInputTransport(encoded)).readI32();
  }

  private static ThriftField field(ThriftStruct struct, String name) {
    return struct.fields().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
  }

  /** Same names, ids, requirements, types (typedef names included), enums and nesting. */
  static void assertSameShape(ThriftStruct expected, ThriftStruct actual, String path) {
    assertEquals(path, expected.name(), actual.name());
    assertEquals(path, expected.isUnion(), actual.isUnion());
    assertEquals(path, expected.fields().size(), actual.fields().size());
    for (int i = 0; i < expected.fields().size(); i++) {
      ThriftField e = expected.fields().get(i);
      ThriftField a = actual.fields().get(i);
      String at = path + "." + e.name();
      assertEquals(at, e.id(), a.id());
      assertEquals(at, e.name(), a.name());
      assertEquals(at, e.requirement(), a.requirement());
      assertSameType(e.type(), a.type(), at);
    }
  }

  private static void assertSameType(ThriftType expected, ThriftType actual, String path) {
    assertEquals(path, expected.getClass(), actual.getClass());
    if (expected instanceof ThriftType.Primitive p) {
      assertEquals(path, p, actual);
    } else if (expected instanceof ThriftType.EnumRef e) {
      assertEquals(
          path, e.enumType().members(), ((ThriftType.EnumRef) actual).enumType().members());
    } else if (expected instanceof ThriftType.StructRef s) {
      assertSameShape(s.struct(), ((ThriftType.StructRef) actual).struct(), path);
    } else if (expected instanceof ThriftType.MapOf m) {
      assertSameType(m.key(), ((ThriftType.MapOf) actual).key(), path + "<key>");
      assertSameType(m.value(), ((ThriftType.MapOf) actual).value(), path + "<value>");
    } else {
      assertSameType(
          ThriftType.elementOf(expected), ThriftType.elementOf(actual), path + "<element>");
    }
  }

  /**
   * A container default that names a constant has the constant's elements, as the IDL says. The
   * Java generator of Thrift 0.17 gives such a field an empty container instead (it does give a
   * scalar default that names a constant its value), so there the IDL and the classes differ; the
   * README's IDL section says so.
   */
  @Test
  public void aContainerDefaultNamingAConstantHasItsElements() throws Exception {
    Path idl = temp.newFile("named_defaults.thrift").toPath();
    Files.writeString(
        idl,
        """
        const list<string> TAGS = ["a", "b"]
        const i32 RETRIES = 3
        struct Named {
          1: optional list<string> tags = TAGS,
          2: optional i32 retries = RETRIES
        }
        """);
    ThriftStruct named = ThriftIdl.load(idl, List.of(), "Named");
    TBinaryProtocol tags =
        new TBinaryProtocol(new TMemoryInputTransport(field(named, "tags").idlDefault()));
    assertEquals(2, tags.readListBegin().size);
    assertEquals(List.of("a", "b"), List.of(tags.readString(), tags.readString()));
    assertEquals(3, readI32(field(named, "retries").idlDefault()));
  }

  @Test
  public void defaultsEncodeStringsAndLists() throws Exception {
    ThriftStruct byo = ThriftIdl.load(BYO, List.of(), "ByoEvent");
    TBinaryProtocol note =
        new TBinaryProtocol(new TMemoryInputTransport(field(byo, "note").idlDefault()));
    assertEquals("none", note.readString());
    TBinaryProtocol small =
        new TBinaryProtocol(new TMemoryInputTransport(field(byo, "small").idlDefault()));
    assertEquals(3, small.readListBegin().size);
    assertArrayEquals(
        new short[] {1, 2, 3}, new short[] {small.readI16(), small.readI16(), small.readI16()});
  }
}
