package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.change.ChangeSequence;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The change stream: deterministic, in the asked proportions, with exact duplicates and losing
 * out-of-order changes, and an expected state equal to an independent replay of the messages under
 * BigQuery's rules (decoded from the bytes and attributes, not from the stream's own bookkeeping).
 */
@RunWith(JUnit4.class)
public class ChangeStreamTest {
  static final String SHOP_IDL = EventMixTest.SHOP_IDL;
  static final String BYO_IDL = "../thrift-common/src/test/idl/byo_event.thrift";

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  static DatagenOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(DatagenOptions.class);
  }

  /** A stream for these generator and change flags, parsed as the job parses them. */
  static ChangeStream stream(String... args) {
    DatagenOptions options = options(args);
    List<String> problems = new ArrayList<>();
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, problems);
    assertEquals(List.of(), problems);
    return new ChangeStream(GeneratorConfig.fromOptions(options), change);
  }

  /** The problems of these flags: the config's, then the stream's against the structs. */
  static List<String> problems(String... args) {
    DatagenOptions options = options(args);
    List<String> problems = new ArrayList<>();
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, problems);
    if (change == null) {
      return problems;
    }
    return ChangeStream.problems(new EventMix(GeneratorConfig.fromOptions(options)), change);
  }

  private static final String[] ORDERS = {
    "--thriftIdl=" + SHOP_IDL,
    "--thriftStruct=Order",
    "--primaryKey=order_id",
    "--changeSequence=field:created_at_ms",
    "--changeType=attribute:op",
    "--changeKeys=2000",
    "--changeUpdateRatio=0.4",
    "--changeDeleteRatio=0.1",
    "--changeDuplicateRatio=0.1",
    "--changeReorderRatio=0.1",
    "--seed=7"
  };

  /** {@code base} with {@code more}, each replacing the flag of the same name if base has it. */
  private static String[] with(String[] base, String... more) {
    List<String> all = new ArrayList<>(Arrays.asList(base));
    for (String flag : more) {
      String name = flag.substring(0, flag.indexOf('=') + 1);
      all.removeIf(existing -> existing.startsWith(name));
      all.add(flag);
    }
    return all.toArray(new String[0]);
  }

  @Test
  public void theSameSeedGivesTheSameMessagesAndAnotherSeedOthers() {
    ChangeStream a = stream(ORDERS);
    ChangeStream b = stream(ORDERS);
    ChangeStream c = stream(with(ORDERS, "--seed=8"));
    int differ = 0;
    for (int n = 0; n < 500; n++) {
      ChangeStream.Message x = a.next();
      ChangeStream.Message y = b.next();
      assertArrayEquals("message " + n, x.payload(), y.payload());
      assertEquals(x.attributes(), y.attributes());
      assertEquals(x.change(), y.change());
      if (!Arrays.equals(x.payload(), c.next().payload())) {
        differ++;
      }
    }
    assertTrue(differ > 400);
    // Random access gives the same messages, forward, backward and interleaved.
    ChangeStream random = stream(ORDERS);
    ChangeStream sequential = stream(ORDERS);
    List<ChangeStream.Message> all = new ArrayList<>();
    for (int n = 0; n < 300; n++) {
      all.add(sequential.next());
    }
    for (long n : new long[] {5, 7, 200, 6, 201, 299, 0, 150, 151}) {
      assertArrayEquals("message " + n, all.get((int) n).payload(), random.messageAt(n).payload());
      assertEquals(all.get((int) n).change(), random.messageAt(n).change());
    }
  }

  @Test
  public void theProportionsHold() {
    ChangeStream stream = stream(with(ORDERS, "--changeKeys=100000"));
    int messages = 20_000;
    Map<ChangeStream.Kind, Integer> counts = new EnumMap<>(ChangeStream.Kind.class);
    for (int n = 0; n < messages; n++) {
      counts.merge(stream.nextChange().kind(), 1, Integer::sum);
    }
    assertShare(counts, ChangeStream.Kind.UPDATE, 0.4, messages);
    assertShare(counts, ChangeStream.Kind.DELETE, 0.1, messages);
    assertShare(counts, ChangeStream.Kind.DUPLICATE, 0.1, messages);
    assertShare(counts, ChangeStream.Kind.REORDER, 0.1, messages);
    assertShare(counts, ChangeStream.Kind.INSERT, 0.3, messages);
  }

  private static void assertShare(
      Map<ChangeStream.Kind, Integer> counts, ChangeStream.Kind kind, double share, int total) {
    double actual = counts.getOrDefault(kind, 0) / (double) total;
    assertEquals(kind + " " + counts, share, actual, 0.015);
  }

  @Test
  public void onceEveryKeyExistsNewKeysBecomeUpdates() {
    ChangeStream stream = stream(with(ORDERS, "--changeKeys=50"));
    Map<ChangeStream.Kind, Integer> counts = new EnumMap<>(ChangeStream.Kind.class);
    for (int n = 0; n < 2000; n++) {
      counts.merge(stream.nextChange().kind(), 1, Integer::sum);
    }
    assertEquals(50, (int) counts.get(ChangeStream.Kind.INSERT));
  }

  @Test
  public void duplicatesAreByteIdenticalAndOutOfOrderChangesCarryOlderSequences() {
    ChangeStream stream = stream(ORDERS);
    Map<Long, ChangeStream.Message> byNumber = new HashMap<>();
    Map<Object, String> newest = new HashMap<>();
    int duplicates = 0;
    int reordered = 0;
    for (int n = 0; n < 5000; n++) {
      ChangeStream.Message message = stream.next();
      byNumber.put(message.change().number(), message);
      Object key = message.key();
      String latest = newest.get(key);
      switch (message.change().kind()) {
        case DUPLICATE -> {
          ChangeStream.Message original = byNumber.get(message.change().origin());
          assertNotNull(original);
          boolean recent = false;
          for (int back = 1; back <= ChangeStream.DUPLICATE_WINDOW && back <= n; back++) {
            recent |= byNumber.get((long) n - back).change().origin() == original.change().origin();
          }
          assertTrue("message " + n + " resends one of the last few", recent);
          assertArrayEquals(original.payload(), message.payload());
          assertEquals(original.attributes(), message.attributes());
          duplicates++;
        }
        case REORDER -> {
          assertNotNull(latest);
          assertTrue(
              message.sequence() + " after " + latest,
              ChangeSequence.compare(message.sequence(), latest) < 0);
          reordered++;
        }
        default -> {
          if (latest != null) {
            assertTrue(ChangeSequence.compare(message.sequence(), latest) > 0);
          }
          newest.put(key, message.sequence());
          assertEquals(
              Long.toString(message.change().number()),
              message.attributes().get(EventAttributes.EVENT_ID));
        }
      }
    }
    assertTrue(duplicates > 300);
    assertTrue(reordered > 300);
  }

  @Test
  public void expectedStateEqualsAReplayOfTheMessagesWithAStringKeyAndATimestampSequence()
      throws Exception {
    checkAgainstReplay(stream(ORDERS), 20_000, true);
  }

  @Test
  public void expectedStateOfAnI64KeyAnEnumChangeTypeAndAnIntegerSequence() throws Exception {
    ChangeStream stream =
        stream(
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent",
            "--primaryKey=sequence",
            "--changeType=field:level",
            "--upsertValues=LOW,HIGH",
            "--deleteValues=CRITICAL",
            "--changeSequence=field:priority",
            "--changeKeys=300",
            "--changeUpdateRatio=0.3",
            "--changeDeleteRatio=0.2",
            "--changeDuplicateRatio=0.1",
            "--changeReorderRatio=0.2",
            "--thriftProtocol=COMPACT");
    ExpectedState state = checkAgainstReplay(stream, 5000, true);
    assertTrue(state.entries().get(0).key().get("sequence") instanceof Long);
    assertFalse(state.rows().isEmpty());
    assertTrue(state.rows().size() < state.entries().size());
  }

  @Test
  public void expectedStateWithoutSequenceIsTheLastPublished() throws Exception {
    ChangeStream stream =
        stream(
            "--thriftIdl=" + SHOP_IDL,
            "--thriftStruct=Click",
            "--primaryKey=session_id,position",
            "--changeType=field:referrer",
            "--changeKeys=500",
            "--changeUpdateRatio=0.5",
            "--changeDeleteRatio=0.2",
            "--changeDuplicateRatio=0.2");
    ExpectedState state = checkAgainstReplay(stream, 5000, false);
    assertNull(state.entries().get(0).sequence());
    assertEquals(Map.of("session_id", "key-0", "position", 0L), state.entries().get(0).key());
  }

  @Test
  public void manyTypesHaveTheirOwnKeys() throws Exception {
    ChangeStream stream =
        stream(
            "--thriftIdl=" + SHOP_IDL,
            "--thriftStructs=Order:2,Refund:1",
            "--primaryKey=Order=order_id;Refund=refund_id",
            "--changeSequence=field:created_at_ms",
            "--changeType=attribute:op",
            "--changeKeys=200",
            "--changeDeleteRatio=0.1",
            "--changeDuplicateRatio=0.05",
            "--changeReorderRatio=0.1");
    ExpectedState state = checkAgainstReplay(stream, 3000, true);
    assertEquals(200, state.entries("Order").size());
    assertEquals(200, state.entries("Refund").size());
    assertEquals(Map.of("refund_id", "key-3"), state.entries("Refund").get(3).key());
    ChangeStream.Message first =
        stream(
                "--thriftIdl=" + SHOP_IDL,
                "--thriftStruct=Click",
                "--primaryKey=session_id,position")
            .next();
    assertEquals("Click/key-0/0", first.partitionKey());
  }

  /**
   * Replays {@code messages} messages of a fresh copy of {@code stream} as BigQuery would, reading
   * the key, change type and sequence from the bytes and attributes; checks the stream's expected
   * state (after a write and a read) against it and returns it.
   */
  private ExpectedState checkAgainstReplay(ChangeStream stream, int messages, boolean sequenceField)
      throws Exception {
    ExpectedState expected = stream.expectedState(messages);
    Path file = folder.newFile().toPath();
    expected.write(file);
    ExpectedState read = ExpectedState.read(file);
    assertEquals(Files.readAllLines(file).size(), read.entries().size());

    ChangeStreamConfig config = stream.config();
    EventMix mix = stream.mix();
    Map<List<Object>, Replayed> winners = new LinkedHashMap<>();
    for (int n = 0; n < messages; n++) {
      ChangeStream.Message message = stream.next();
      int type = message.change().type();
      String struct = mix.name(type);
      ThriftStruct thrift = mix.generator(type).struct();
      Map<String, Object> fields =
          decodeTopLevel(message.payload(), mix.generator(type).config(), thrift);
      List<Object> key = new ArrayList<>();
      key.add(struct);
      Map<String, Object> keyValues = new LinkedHashMap<>();
      for (String column : config.spec().keyOf(struct)) {
        key.add(fields.get(column));
        keyValues.put(column, fields.get(column));
      }
      String typeValue =
          config.spec().changeTypeField() != null
              ? (String) fields.get(config.spec().changeTypeField())
              : config.spec().changeType()
                      instanceof io.thriftbq.change.ChangeSpec.ChangeTypeSource.Attribute a
                  ? message.attributes().get(a.name())
                  : "UPSERT";
      boolean delete = config.spec().deleteValues().contains(typeValue);
      assertTrue(delete || config.spec().upsertValues().contains(typeValue));
      String sequence = null;
      if (sequenceField) {
        Object value = fields.get(config.spec().sequenceField());
        sequence =
            value instanceof String text
                ? text
                : ChangeSequence.ofSigned(((Number) value).longValue());
      }
      Replayed now = new Replayed(n, delete, sequence, message.payload(), keyValues);
      Replayed before = winners.get(key);
      if (before == null
          || sequence == null
          || ChangeSequence.compare(sequence, before.sequence()) >= 0) {
        winners.put(key, now);
      }
    }
    Map<List<Object>, ExpectedState.Entry> byKey = new HashMap<>();
    for (ExpectedState.Entry entry : read.entries()) {
      List<Object> key = new ArrayList<>();
      key.add(entry.struct());
      key.addAll(entry.key().values());
      assertNull("key listed twice: " + key, byKey.put(key, entry));
    }
    assertEquals(winners.size(), byKey.size());
    int rows = 0;
    for (Map.Entry<List<Object>, Replayed> winner : winners.entrySet()) {
      ExpectedState.Entry entry = byKey.get(jsonKey(winner.getKey()));
      assertNotNull("no entry for " + winner.getKey(), entry);
      Replayed replayed = winner.getValue();
      assertEquals(winner.getKey().toString(), replayed.number(), entry.message());
      assertEquals(replayed.delete(), !entry.present());
      assertEquals(replayed.sequence(), entry.sequence());
      assertArrayEquals(replayed.payload(), entry.payload());
      rows += replayed.delete() ? 0 : 1;
    }
    assertEquals(rows, read.rows().size());
    return read;
  }

  /** A replayed key as the expected state writes it: numbers as longs (enums do not key here). */
  private static List<Object> jsonKey(List<Object> key) {
    List<Object> json = new ArrayList<>();
    for (Object value : key) {
      json.add(value instanceof Number number ? (Object) number.longValue() : value);
    }
    return json;
  }

  private record Replayed(
      long number,
      boolean delete,
      String sequence,
      byte[] payload,
      Map<String, Object> keyValues) {}

  /**
   * The top-level scalar fields of a serialized event, by name, read with Thrift's own protocol
   * (enums as their names); containers and structs are skipped.
   */
  static Map<String, Object> decodeTopLevel(
      byte[] payload, GeneratorConfig config, ThriftStruct struct) throws Exception {
    Map<Short, ThriftField> byId = new HashMap<>();
    for (ThriftField field : struct.fields()) {
      byId.put(field.id(), field);
    }
    TProtocol in =
        config.protocol().newReader(new TMemoryInputTransport(payload), 1 << 20, 1 << 16);
    Map<String, Object> values = new HashMap<>();
    in.readStructBegin();
    while (true) {
      TField header = in.readFieldBegin();
      if (header.type == TType.STOP) {
        break;
      }
      ThriftField field = byId.get(header.id);
      Object value =
          switch (header.type) {
            case TType.BOOL -> in.readBool();
            case TType.BYTE -> in.readByte();
            case TType.I16 -> in.readI16();
            case TType.I32 -> in.readI32();
            case TType.I64 -> in.readI64();
            case TType.STRING -> in.readString();
            default -> {
              TProtocolUtil.skip(in, header.type);
              yield null;
            }
          };
      if (field != null && field.type() instanceof ThriftType.EnumRef ref && value != null) {
        ThriftEnum type = ref.enumType();
        value = type.nameOf((Integer) value);
      }
      if (field != null && value != null) {
        values.put(field.name(), value);
      }
      in.readFieldEnd();
    }
    return values;
  }

  @Test
  public void aUnionLayoutSetsTheKeysInsideTheMember() throws Exception {
    ChangeStream stream =
        ChangeStream.of(
            options(
                "--thriftIdl=" + SHOP_IDL,
                "--thriftUnion=AnyEvent",
                "--primaryKey=Order=order_id;Refund=refund_id;Click=session_id",
                "--changeType=attribute:op",
                "--changeDeleteRatio=0.2",
                "--changeKeys=10"));
    assertNull(stream.mix().attribute());
    for (int n = 0; n < 200; n++) {
      ChangeStream.Message message = stream.next();
      int type = message.change().type();
      // The union holds one field, the member struct: decode the member's top-level fields.
      TProtocol in =
          stream
              .mix()
              .generator(type)
              .config()
              .protocol()
              .newReader(new TMemoryInputTransport(message.payload()), 1 << 20, 1 << 16);
      in.readStructBegin();
      TField member = in.readFieldBegin();
      assertEquals(TType.STRUCT, member.type);
      String keyColumn = message.key().keySet().iterator().next();
      Map<String, Object> fields = decodeMember(in, stream.mix().generator(type).struct());
      assertEquals(message.key().get(keyColumn), fields.get(keyColumn));
      assertTrue(message.attributes().containsKey("op"));
    }
  }

  /** The top-level scalar fields of the struct {@code in} is positioned at. */
  private static Map<String, Object> decodeMember(TProtocol in, ThriftStruct struct)
      throws Exception {
    Map<String, Object> values = new HashMap<>();
    in.readStructBegin();
    while (true) {
      TField header = in.readFieldBegin();
      if (header.type == TType.STOP) {
        return values;
      }
      for (ThriftField field : struct.fields()) {
        if (field.id() == header.id && header.type == TType.STRING) {
          values.put(field.name(), in.readString());
          header = null;
          break;
        }
      }
      if (header != null) {
        TProtocolUtil.skip(in, header.type);
      }
      in.readFieldEnd();
    }
  }

  @Test
  public void keyValuesAreSpreadOverBoundedColumns() {
    ChangeStream stream =
        stream(
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent",
            "--primaryKey=tiny,level",
            "--changeKeys=768");
    List<Map<String, Object>> keys = new ArrayList<>();
    for (int n = 0; n < 3000; n++) {
      ChangeStream.Message message = stream.next();
      if (message.change().kind() == ChangeStream.Kind.INSERT) {
        keys.add(message.key());
      }
    }
    assertEquals(768, keys.size());
    assertEquals(768, keys.stream().distinct().count());
    assertEquals(Map.of("tiny", 0L, "level", "LOW"), keys.get(0));
    assertEquals(Map.of("tiny", 1L, "level", "LOW"), keys.get(1));
    assertEquals(Map.of("tiny", 0L, "level", "HIGH"), keys.get(256));
    assertEquals(Map.of("tiny", -1L, "level", "CRITICAL"), keys.get(767));
  }

  @Test
  public void refusalsSayWhatToChange() {
    assertThat(
        problems(with(ORDERS, "--changeSequence=PUBLISH_TIME")),
        hasItem(
            containsString(
                "with --changeSequence=PUBLISH_TIME the order of publication is the order")));
    assertThat(
        problems(with(ORDERS, "--changeSequence=NONE")),
        hasItem(containsString("--changeReorderRatio=0.1 asks for out-of-order changes")));
    assertThat(
        problems(with(ORDERS, "--changeType=UPSERT")),
        hasItem(containsString("--changeType=UPSERT makes every event an upsert")));
    assertThat(
        problems(with(ORDERS, "--primaryKey=total.units")),
        hasItem(containsString("top-level columns only")));
    assertThat(
        problems(with(ORDERS, "--primaryKey=items")),
        hasItem(containsString("--primaryKey column items of Order is a list or set")));
    assertThat(
        problems(
            "--thriftIdl=" + SHOP_IDL,
            "--thriftStruct=Click",
            "--primaryKey=dwell_seconds",
            "--changeKeys=10"),
        hasItem(containsString("a double (BigQuery FLOAT64), which BigQuery cannot use")));
    assertThat(
        problems(with(ORDERS, "--primaryKey=orderid")),
        hasItem(containsString("--primaryKey names orderid, which is not a top-level field")));
    assertThat(
        problems(with(ORDERS, "--changeSequence=field:total")),
        hasItem(containsString("the sequence field must be a top-level integer")));
    assertThat(
        problems(with(ORDERS, "--changeType=field:created_at_ms")),
        hasItem(containsString("must be a top-level string or enum")));
    assertThat(
        problems(with(ORDERS, "--changeType=attribute:event_id")),
        hasItem(containsString("an attribute the generator already sets")));
    assertThat(
        problems(with(ORDERS, "--changeUpdateRatio=0.9")),
        hasItem(containsString("add up to 1.2, above 1")));
    assertThat(
        problems(
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent",
            "--primaryKey=tiny",
            "--changeKeys=257"),
        hasItem(containsString("--changeKeys=257 is more than the 256 distinct keys")));
    assertThat(
        problems(
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent",
            "--primaryKey=event_id",
            "--changeType=field:level",
            "--changeKeys=10"),
        hasItem(containsString("names no value of enum Level (LOW, HIGH, CRITICAL)")));
    assertThat(
        problems(
            "--thriftIdl=" + SHOP_IDL,
            "--thriftStructs=Order,Refund",
            "--primaryKey=Order=order_id"),
        hasItem(containsString("--primaryKey gives no key for struct Refund")));
  }

  @Test
  public void aNarrowSequenceFieldFailsWhenAKeyOutgrowsIt() {
    ChangeStream stream =
        stream(
            "--thriftIdl=" + BYO_IDL,
            "--thriftStruct=ByoEvent",
            "--primaryKey=event_id",
            "--changeSequence=field:tiny",
            "--changeKeys=1",
            "--changeUpdateRatio=1");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> stream.expectedState(100));
    assertThat(e.getMessage(), containsString("more than its sequence field tiny holds (127)"));
  }

  @Test
  public void theChangeTypeValueIsCanonicalOrTheFirstSorted() {
    assertEquals("UPSERT", ChangeStream.preferred(java.util.Set.of("UPDATE", "UPSERT"), "UPSERT"));
    assertEquals("D", ChangeStream.preferred(java.util.Set.of("R", "D"), "DELETE"));
    assertNotEquals(null, ChangeStream.preferred(java.util.Set.of("X"), "DELETE"));
  }
}
