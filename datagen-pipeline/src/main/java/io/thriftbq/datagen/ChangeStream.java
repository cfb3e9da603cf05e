package io.thriftbq.datagen;

import io.thriftbq.change.ChangeSequence;
import io.thriftbq.change.ChangeSpec;
import io.thriftbq.change.ChangeSpec.ChangeTypeSource;
import io.thriftbq.change.ChangeSpec.SequenceSource;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.schema.ThriftEnum;
import io.thriftbq.schema.ThriftField;
import io.thriftbq.schema.ThriftStruct;
import io.thriftbq.schema.ThriftType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A deterministic stream of change events (BigQuery change data capture) over the generator's
 * structs, with the final state BigQuery must end up with: what a change-mode ingestion job reads,
 * and what to check its table against.
 *
 * <p><b>The stream.</b> Message number {@code n} is an insert (a key not seen before), an update or
 * a delete of a key seen before, an exact duplicate of one of the last {@value #DUPLICATE_WINDOW}
 * messages (the same bytes and attributes: a redelivery), or an out-of-order change (a change of a
 * key whose sequence is older than the newest one already sent for the key, so BigQuery must keep
 * the newer). Its kind, struct (by {@link EventMix#chooseType}) and key are drawn from a random
 * stream seeded by ({@code --seed}, {@code n}); its content is the generator's event {@code n} with
 * the key columns, the change type field and the sequence field replaced. Each struct has its own
 * keys ({@link ChangeSpec#keyOf}) and {@link ChangeStreamConfig#keys()} of them.
 *
 * <p><b>Keys.</b> Key number {@code k} (0, 1, 2, ...) is spread over the key columns as digits: a
 * bool column holds 2 values, i8 256, i16 65536, i32 2^32, an enum its members, and the first i64
 * or string column takes the rest ({@code k} itself, or {@code "key-" + k}); every other column is
 * 0, false, the first member or {@code "key-0"}.
 *
 * <p><b>Sequences.</b> The changes of one key are numbered 2, 4, 6, ...; an out-of-order change
 * sent after change {@code 2v} is {@code 2v - 1}. The sequence field holds the number itself (an
 * integer field), 2024-01-01 plus that many milliseconds (an i64 field whose name looks like a
 * timestamp), or the number as a BigQuery sequence string ({@link ChangeSequence#ofSigned}).
 *
 * <p><b>Winners.</b> Per key, BigQuery keeps the change with the highest sequence ({@link
 * ChangeSequence#compare}), the last ingested of equal ones; with no sequence field (NONE,
 * PUBLISH_TIME, KAFKA_OFFSET), the last published. {@link #expectedState} replays the plan that
 * way. The expected state of a publish-order sequence holds only if the messages of one key are
 * published and ingested in stream order.
 *
 * <p>Not thread-safe: use one per thread.
 */
public final class ChangeStream {
  /** Duplicates resend one of this many most recent messages. */
  public static final int DUPLICATE_WINDOW = 8;

  /** The key values of a string key column: this prefix and the key number. */
  public static final String STRING_KEY_PREFIX = "key-";

  static final long TIMESTAMP_BASE_MS = 1_704_067_200_000L; // 2024-01-01T00:00:00Z

  /** Keeps the stream's draws apart from the events' and the type choice's. */
  private static final long STREAM_SALT = 0xC4A9_6E5E_0D1F_F00DL;

  /** What a message is. */
  public enum Kind {
    INSERT,
    UPDATE,
    DELETE,
    DUPLICATE,
    REORDER
  }

  /** What a change does to its key's row. */
  public enum ChangeType {
    UPSERT,
    DELETE
  }

  /**
   * One message of the stream, before it is serialized.
   *
   * @param number its position in the stream, from 0
   * @param kind what it is
   * @param type its struct, an index into the {@link EventMix}
   * @param key its key number, from 0 per struct
   * @param changeType what it does
   * @param version the order of the changes of its key (2, 4, ...; odd when out of order)
   * @param origin the number of the message whose change it carries: its own, or for a duplicate
   *     the original's; the event's content and its {@code event_id} attribute
   */
  public record Change(
      long number,
      Kind kind,
      int type,
      long key,
      ChangeType changeType,
      long version,
      long origin) {}

  /**
   * A message as published: {@code payload} and {@code attributes} (event_id, the struct attribute
   * of a many-types job, the change type attribute). A publisher adds {@code event_time_ms}.
   */
  public record Message(
      Change change,
      String struct,
      Map<String, Object> key,
      @Nullable String sequence,
      byte[] payload,
      Map<String, String> attributes) {
    /**
     * The struct and the key values as one string, {@code Order/key-7} (values in key order,
     * separated by {@code /}): a Kafka record key that keeps the changes of one key in one
     * partition, in order.
     */
    public String partitionKey() {
      StringBuilder text = new StringBuilder(struct);
      for (Object value : key.values()) {
        text.append('/').append(value);
      }
      return text.toString();
    }
  }

  private final EventMix mix;
  private final ChangeStreamConfig config;
  private final ChangeSpec spec;
  private final long streamSeed;
  private final Rule[] rules;
  private final boolean hasSequenceField;
  private final double duplicateBelow;
  private final double reorderBelow;
  private final double deleteBelow;
  private final double updateBelow;
  private final double reorderDeleteShare;
  private final Cursor cursor;
  private final List<Cursor> randomAccess = new ArrayList<>();

  /** Most cursors {@link #messageAt} keeps. */
  static final int RANDOM_ACCESS_CURSORS = 8;

  /**
   * A stream over the structs of {@code generator} (one, or a many-types mix).
   *
   * @throws IllegalArgumentException if the configuration does not fit the structs (a key column
   *     missing, nested or of a type BigQuery cannot key on, too few key values for {@code
   *     --changeKeys}, a change type or sequence field of the wrong type...); the message names the
   *     flag to change
   */
  public ChangeStream(GeneratorConfig generator, ChangeStreamConfig config) {
    this(new EventMix(generator), config);
  }

  /**
   * The stream the generator's flags describe ({@code --primaryKey} and the other change flags, the
   * struct flags, {@code --seed} and the value flags), as the generator job builds it: what local
   * mode publishes in-process.
   *
   * @throws IllegalArgumentException listing every problem, each naming the flag to change
   */
  public static ChangeStream of(DatagenOptions options) {
    List<String> problems = new ArrayList<>();
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, problems);
    if (change == null) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return new ChangeStream(GeneratorConfig.fromOptions(options), change);
  }

  /** A stream over the types of {@code mix}; see {@link #ChangeStream(GeneratorConfig, ...)}. */
  public ChangeStream(EventMix mix, ChangeStreamConfig config) {
    this(mix, config, new ArrayList<>(), true);
  }

  /**
   * Everything wrong with {@code config} for the types of {@code mix}, each naming the flag to
   * change; empty when a stream can be built.
   */
  public static List<String> problems(EventMix mix, ChangeStreamConfig config) {
    List<String> problems = new ArrayList<>();
    new ChangeStream(mix, config, problems, false);
    return problems;
  }

  private ChangeStream(
      EventMix mix, ChangeStreamConfig config, List<String> problems, boolean failOnProblems) {
    problems.addAll(config.problems());
    this.mix = mix;
    this.config = config;
    this.spec = config.spec();
    this.streamSeed = mix.generator(0).config().seed() ^ STREAM_SALT;
    this.hasSequenceField = spec.sequence() instanceof SequenceSource.Field;
    this.rules = new Rule[mix.size()];
    if (problems.isEmpty()) {
      for (int i = 0; i < rules.length; i++) {
        rules[i] = rule(i, problems);
      }
      if (spec.changeType() instanceof ChangeTypeSource.Attribute attribute) {
        attributeProblems(attribute.name(), problems);
      }
    }
    if (failOnProblems && !problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    duplicateBelow = config.duplicateRatio();
    reorderBelow = duplicateBelow + config.reorderRatio();
    deleteBelow = reorderBelow + config.deleteRatio();
    updateBelow = deleteBelow + config.updateRatio();
    double changes = config.updateRatio() + config.deleteRatio();
    reorderDeleteShare = changes > 0 ? config.deleteRatio() / changes : 0;
    cursor = new Cursor();
  }

  public ChangeStreamConfig config() {
    return config;
  }

  public EventMix mix() {
    return mix;
  }

  /** The change of the next message, without serializing it (cheap); advances the stream. */
  public Change nextChange() {
    return cursor.step();
  }

  /** The next message; advances the stream. */
  public Message next() {
    return message(cursor.step());
  }

  /**
   * Message number {@code number}, without moving {@link #next()}'s position. Cheap when the
   * numbers asked for increase, even interleaved from up to {@value #RANDOM_ACCESS_CURSORS}
   * increasing sequences (a pipeline's source splits): each has a cursor that moves forward; a
   * number behind every cursor replays the plan from the start.
   */
  public Message messageAt(long number) {
    if (number < 0) {
      throw new IllegalArgumentException("message numbers start at 0: " + number);
    }
    Cursor best = null;
    for (Cursor candidate : randomAccess) {
      if (candidate.next <= number && (best == null || candidate.next > best.next)) {
        best = candidate;
      }
    }
    if (best == null) {
      if (randomAccess.size() == RANDOM_ACCESS_CURSORS) {
        Cursor oldest = randomAccess.get(0);
        for (Cursor candidate : randomAccess) {
          if (candidate.next < oldest.next) {
            oldest = candidate;
          }
        }
        randomAccess.remove(oldest);
      }
      best = new Cursor();
      randomAccess.add(best);
    }
    Change change;
    do {
      change = best.step();
    } while (change.number() < number);
    return message(change);
  }

  /** The message that carries {@code change} (a change of this stream). */
  public Message message(Change change) {
    Rule rule = rules[change.type()];
    byte[] payload =
        mix.generator(change.type()).serialize(change.origin(), rule.slots, rule.values(change));
    Map<String, String> attributes = new TreeMap<>();
    attributes.put(EventAttributes.EVENT_ID, Long.toString(change.origin()));
    String structAttribute = mix.attribute();
    if (structAttribute != null) {
      attributes.put(structAttribute, mix.name(change.type()));
    }
    if (spec.changeType() instanceof ChangeTypeSource.Attribute attribute) {
      attributes.put(attribute.name(), rule.changeValueText(change.changeType()));
    }
    return new Message(
        change,
        rule.struct,
        rule.keyValues(change.key()),
        rule.sequence(change),
        payload,
        Collections.unmodifiableMap(attributes));
  }

  /**
   * What BigQuery holds once the first {@code messages} messages are applied: per struct and key,
   * the winning change (a key whose winner is a DELETE has no row). Replays the plan from the start
   * on a cursor of its own: the stream's position is unchanged.
   *
   * @throws IllegalStateException if a key's sequence outgrows its field (an i8 or i16 field)
   */
  public ExpectedState expectedState(long messages) {
    Cursor replay = new Cursor();
    List<Map<Long, Change>> winners = new ArrayList<>();
    for (int i = 0; i < rules.length; i++) {
      winners.add(new HashMap<>());
    }
    for (long n = 0; n < messages; n++) {
      Change change = replay.step();
      Map<Long, Change> ofType = winners.get(change.type());
      Change best = ofType.get(change.key());
      if (best == null || !hasSequenceField || wins(change, best)) {
        ofType.put(change.key(), change);
      }
    }
    List<ExpectedState.Entry> entries = new ArrayList<>();
    for (int type = 0; type < rules.length; type++) {
      Map<Long, Change> ofType = winners.get(type);
      List<Long> keys = new ArrayList<>(ofType.keySet());
      Collections.sort(keys);
      for (long key : keys) {
        Message winner = message(ofType.get(key));
        entries.add(
            new ExpectedState.Entry(
                winner.struct(),
                winner.key(),
                winner.change().changeType(),
                winner.sequence(),
                winner.change().number(),
                winner.payload()));
      }
    }
    return new ExpectedState(entries);
  }

  /** Whether {@code later}, ingested after {@code best}, replaces it: not older (BigQuery). */
  private boolean wins(Change later, Change best) {
    Rule rule = rules[later.type()];
    return ChangeSequence.compare(rule.sequence(later), rule.sequence(best)) >= 0;
  }

  // ---------------------------------------------------------------------------------------------
  // The plan: kinds, keys and versions, drawn per message

  /** A position in the stream and what it has seen: each key's newest version, recent messages. */
  private final class Cursor {
    private long next;
    private final SplitMixRandom random = new SplitMixRandom(0);
    private final long[][] versions = new long[rules.length][];
    private final long[] used = new long[rules.length];
    private final Change[] recent = new Change[DUPLICATE_WINDOW];
    private int recentCount;
    private int recentNext;

    Cursor() {
      for (int i = 0; i < versions.length; i++) {
        versions[i] = new long[(int) Math.min(config.keys(), 1024)];
      }
    }

    Change step() {
      long n = next++;
      random.reseed(SplitMixRandom.seedFor(streamSeed, n));
      double u = random.nextDouble();
      Kind kind =
          u < duplicateBelow
              ? Kind.DUPLICATE
              : u < reorderBelow
                  ? Kind.REORDER
                  : u < deleteBelow ? Kind.DELETE : u < updateBelow ? Kind.UPDATE : Kind.INSERT;
      Change change;
      if (kind == Kind.DUPLICATE && recentCount > 0) {
        Change original = recent[random.nextInt(recentCount)];
        change =
            new Change(
                n,
                Kind.DUPLICATE,
                original.type(),
                original.key(),
                original.changeType(),
                original.version(),
                original.origin());
      } else {
        int type = mix.chooseType(n);
        if (kind == Kind.DUPLICATE || used[type] == 0) {
          kind = Kind.INSERT; // nothing to resend or to change yet
        }
        if (kind == Kind.INSERT && used[type] >= config.keys()) {
          kind = Kind.UPDATE; // every key exists
        }
        long key;
        long version;
        ChangeType changeType = ChangeType.UPSERT;
        switch (kind) {
          case INSERT -> {
            key = used[type]++;
            if (key >= versions[type].length) {
              versions[type] =
                  Arrays.copyOf(
                      versions[type],
                      (int) Math.min(config.keys(), 2L * versions[type].length + 1));
            }
            version = 2;
            versions[type][(int) key] = version;
          }
          case UPDATE, DELETE -> {
            key = random.nextLong(used[type]);
            version = versions[type][(int) key] + 2;
            versions[type][(int) key] = version;
            changeType = kind == Kind.DELETE ? ChangeType.DELETE : ChangeType.UPSERT;
          }
          default -> { // REORDER
            key = random.nextLong(used[type]);
            version = versions[type][(int) key] - 1;
            changeType =
                random.nextDouble() < reorderDeleteShare ? ChangeType.DELETE : ChangeType.UPSERT;
          }
        }
        rules[type].checkVersion(key, version);
        change = new Change(n, kind, type, key, changeType, version, n);
      }
      recent[recentNext] = change;
      recentNext = (recentNext + 1) % DUPLICATE_WINDOW;
      recentCount = Math.min(DUPLICATE_WINDOW, recentCount + 1);
      return change;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Per struct: where the key, the change type and the sequence go

  /** How a sequence field holds a change's version. */
  private enum SequenceKind {
    INTEGER,
    TIMESTAMP,
    STRING
  }

  /** A key column: its slot, and how key digits become values. */
  private record KeyColumn(String name, ThriftType type, long capacity) {
    /** The column's value for digit {@code d} (below capacity), as the field holds it. */
    Object value(long d) {
      if (type instanceof ThriftType.EnumRef ref) {
        return ref.enumType().members().get((int) d).value();
      }
      return switch (((ThriftType.Primitive) type).kind()) {
        case BOOL -> d == 1;
        case I8 -> (byte) d;
        case I16 -> (short) d;
        case I32 -> (int) d;
        case I64 -> d;
        default -> STRING_KEY_PREFIX + d; // STRING
      };
    }

    /** The value as BigQuery shows it, for JSON: a number, a string or a boolean. */
    Object json(long d) {
      if (type instanceof ThriftType.EnumRef ref) {
        return ref.enumType().members().get((int) d).name();
      }
      Object value = value(d);
      return value instanceof Number number ? (Object) number.longValue() : value;
    }
  }

  private final class Rule {
    final String struct;
    final KeyColumn[] keys;
    final int[] slots;
    final @Nullable Object upsertValue;
    final @Nullable Object deleteValue;
    final @Nullable String upsertText;
    final @Nullable String deleteText;
    final @Nullable SequenceKind sequenceKind;
    final @Nullable String sequenceFieldName;
    final long maxVersion;

    Rule(
        String struct,
        KeyColumn[] keys,
        int[] slots,
        @Nullable Object upsertValue,
        @Nullable Object deleteValue,
        @Nullable String upsertText,
        @Nullable String deleteText,
        @Nullable SequenceKind sequenceKind,
        @Nullable String sequenceFieldName,
        long maxVersion) {
      this.struct = struct;
      this.keys = keys;
      this.slots = slots;
      this.upsertValue = upsertValue;
      this.deleteValue = deleteValue;
      this.upsertText = upsertText;
      this.deleteText = deleteText;
      this.sequenceKind = sequenceKind;
      this.sequenceFieldName = sequenceFieldName;
      this.maxVersion = maxVersion;
    }

    /** The key's digits, one per column: the first unbounded column takes what the rest leave. */
    long[] digits(long key) {
      long[] digits = new long[keys.length];
      long rest = key;
      for (int i = 0; i < keys.length; i++) {
        long capacity = keys[i].capacity();
        if (capacity == 0) {
          digits[i] = rest;
          rest = 0;
        } else {
          digits[i] = rest % capacity;
          rest /= capacity;
        }
      }
      return digits;
    }

    Map<String, Object> keyValues(long key) {
      long[] digits = digits(key);
      Map<String, Object> values = new LinkedHashMap<>();
      for (int i = 0; i < keys.length; i++) {
        values.put(keys[i].name(), keys[i].json(digits[i]));
      }
      return Collections.unmodifiableMap(values);
    }

    /** The values for {@link #slots}: the key columns, then the change type, then the sequence. */
    Object[] values(Change change) {
      Object[] values = new Object[slots.length];
      long[] digits = digits(change.key());
      int i = 0;
      for (; i < keys.length; i++) {
        values[i] = keys[i].value(digits[i]);
      }
      if (upsertValue != null) {
        values[i++] = change.changeType() == ChangeType.UPSERT ? upsertValue : deleteValue;
      }
      if (sequenceKind != null) {
        values[i] = sequenceValue(change.version());
      }
      return values;
    }

    private Object sequenceValue(long version) {
      return switch (sequenceKind) {
        case TIMESTAMP -> TIMESTAMP_BASE_MS + version;
        case STRING -> ChangeSequence.ofSigned(version);
        default -> narrow(version);
      };
    }

    private Object narrow(long version) {
      if (maxVersion == Byte.MAX_VALUE) {
        return (byte) version;
      }
      if (maxVersion == Short.MAX_VALUE) {
        return (short) version;
      }
      if (maxVersion == Integer.MAX_VALUE) {
        return (int) version;
      }
      return version;
    }

    /** The change's BigQuery sequence number, as the ingestion job derives it; null without. */
    @Nullable String sequence(Change change) {
      if (sequenceKind == null) {
        return null;
      }
      Object value = sequenceValue(change.version());
      return value instanceof String text
          ? text
          : ChangeSequence.ofSigned(((Number) value).longValue());
    }

    String changeValueText(ChangeType type) {
      return type == ChangeType.UPSERT ? upsertText : deleteText;
    }

    void checkVersion(long key, long version) {
      if (version > maxVersion) {
        throw new IllegalStateException(
            "key "
                + keyValues(key)
                + " of "
                + struct
                + " reached change sequence "
                + version
                + ", more than its sequence field "
                + sequenceFieldName
                + " holds ("
                + maxVersion
                + "): use a wider integer field in --changeSequence, more --changeKeys or fewer"
                + " messages");
      }
    }
  }

  private Rule rule(int type, List<String> problems) {
    String name = mix.name(type);
    RandomEventGenerator generator = mix.generator(type);
    ThriftStruct struct = generator.struct();
    int before = problems.size();
    if (struct.isUnion()) {
      problems.add(
          name + " is a union: change streams need a struct whose top-level fields hold the key");
      return null;
    }
    List<String> keyNames = spec.keyOf(name);
    if (keyNames.isEmpty()) {
      problems.add(
          "--primaryKey gives no key for struct "
              + name
              + ": add "
              + name
              + "=COLUMN[,COLUMN] (every struct of a change stream needs one)");
    }
    List<Integer> slots = new ArrayList<>();
    List<KeyColumn> keys = new ArrayList<>();
    double room = 1;
    boolean unbounded = false;
    for (String column : keyNames) {
      int slot = slot(generator, name, column, "--primaryKey", problems);
      if (slot < 0) {
        continue;
      }
      ThriftType fieldType = generator.topLevelField(slot).type();
      long capacity = keyCapacity(fieldType);
      if (capacity < 0) {
        problems.add(
            "--primaryKey column "
                + column
                + " of "
                + name
                + " is "
                + describe(fieldType)
                + ", which BigQuery cannot use in a primary key: choose columns that map to INT64,"
                + " STRING or BOOLEAN (Thrift bool, i8, i16, i32, i64, string or an enum)");
        continue;
      }
      if (capacity == 0) {
        if (unbounded) {
          capacity = 1; // the first unbounded column takes every key number: this one holds key-0
        } else {
          unbounded = true;
        }
      } else {
        room *= capacity;
      }
      slots.add(slot);
      keys.add(new KeyColumn(column, fieldType, capacity));
    }
    if (!unbounded && !keys.isEmpty() && room < config.keys()) {
      problems.add(
          "--changeKeys="
              + config.keys()
              + " is more than the "
              + (long) room
              + " distinct keys the key columns of "
              + name
              + " ("
              + String.join(", ", keyNames)
              + ") can hold: lower --changeKeys, or add an i64 or string column to --primaryKey");
    }
    Object upsertValue = null;
    Object deleteValue = null;
    String upsertText = null;
    String deleteText = null;
    String typeField = spec.changeTypeField();
    if (spec.changeType() instanceof ChangeTypeSource.Attribute) {
      upsertText = preferred(spec.upsertValues(), "UPSERT");
      deleteText = preferred(spec.deleteValues(), "DELETE");
    } else if (typeField != null) {
      int slot = slot(generator, name, typeField, "--changeType", problems);
      if (slot >= 0) {
        ThriftType fieldType = generator.topLevelField(slot).type();
        if (keyNames.contains(typeField)) {
          problems.add(
              "--changeType=field:"
                  + typeField
                  + " is also a --primaryKey column of "
                  + name
                  + ": the change type needs a field of its own");
        } else if (fieldType instanceof ThriftType.EnumRef ref) {
          ThriftEnum enumType = ref.enumType();
          upsertText =
              enumMember(enumType, spec.upsertValues(), "UPSERT", "--upsertValues", problems);
          deleteText =
              enumMember(enumType, spec.deleteValues(), "DELETE", "--deleteValues", problems);
          if (upsertText != null && deleteText != null) {
            upsertValue = valueOf(enumType, upsertText);
            deleteValue = valueOf(enumType, deleteText);
            slots.add(slot);
          }
        } else if (fieldType instanceof ThriftType.Primitive primitive
            && primitive.kind() == ThriftType.PrimitiveKind.STRING) {
          upsertText = preferred(spec.upsertValues(), "UPSERT");
          deleteText = preferred(spec.deleteValues(), "DELETE");
          upsertValue = upsertText;
          deleteValue = deleteText;
          slots.add(slot);
        } else {
          problems.add(
              "--changeType=field:"
                  + typeField
                  + " of "
                  + name
                  + " is "
                  + describe(fieldType)
                  + ": the change type field must be a top-level string or enum");
        }
      }
    }
    SequenceKind sequenceKind = null;
    long maxVersion = Long.MAX_VALUE;
    String sequenceField = spec.sequenceField();
    if (sequenceField != null) {
      int slot = slot(generator, name, sequenceField, "--changeSequence", problems);
      if (slot >= 0) {
        ThriftType fieldType = generator.topLevelField(slot).type();
        if (keyNames.contains(sequenceField) || sequenceField.equals(typeField)) {
          problems.add(
              "--changeSequence=field:"
                  + sequenceField
                  + " is also "
                  + (keyNames.contains(sequenceField) ? "a --primaryKey column" : "--changeType")
                  + " of "
                  + name
                  + ": the sequence needs a field of its own");
        } else if (fieldType instanceof ThriftType.Primitive primitive
            && switch (primitive.kind()) {
              case I8, I16, I32, I64, STRING -> true;
              default -> false;
            }) {
          boolean timestamp =
              primitive.kind() == ThriftType.PrimitiveKind.I64
                  && RandomEventGenerator.looksLikeTimestamp(
                      sequenceField, primitive.typedefName());
          sequenceKind =
              primitive.kind() == ThriftType.PrimitiveKind.STRING
                  ? SequenceKind.STRING
                  : timestamp ? SequenceKind.TIMESTAMP : SequenceKind.INTEGER;
          maxVersion =
              switch (primitive.kind()) {
                case I8 -> Byte.MAX_VALUE;
                case I16 -> Short.MAX_VALUE;
                case I32 -> Integer.MAX_VALUE;
                default -> timestamp ? Long.MAX_VALUE - TIMESTAMP_BASE_MS : Long.MAX_VALUE;
              };
          slots.add(slot);
        } else {
          problems.add(
              "--changeSequence=field:"
                  + sequenceField
                  + " of "
                  + name
                  + " is "
                  + describe(fieldType)
                  + ": the sequence field must be a top-level integer (i8 to i64, a version or a"
                  + " timestamp) or a string holding a BigQuery sequence number");
        }
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new Rule(
        name,
        keys.toArray(new KeyColumn[0]),
        slots.stream().mapToInt(Integer::intValue).toArray(),
        upsertValue,
        deleteValue,
        upsertText,
        deleteText,
        sequenceKind,
        sequenceField,
        maxVersion);
  }

  /** The slot of top-level field {@code column}, or -1 with a problem naming {@code flag}. */
  private static int slot(
      RandomEventGenerator generator,
      String struct,
      String column,
      String flag,
      List<String> problems) {
    if (column.contains(".")) {
      problems.add(
          flag
              + " names "
              + column
              + ", a nested field: BigQuery primary keys and change columns are top-level columns"
              + " only; promote the field to the top level of "
              + struct);
      return -1;
    }
    int slot = generator.topLevelSlot(column);
    if (slot < 0) {
      List<String> names = new ArrayList<>();
      for (ThriftField field : generator.struct().fields()) {
        names.add(field.name());
      }
      problems.add(
          flag
              + " names "
              + column
              + ", which is not a top-level field of "
              + struct
              + ": use one of "
              + String.join(", ", names));
    }
    return slot;
  }

  /** How many values a key column of this type takes: 0 unbounded, -1 not a key type. */
  private static long keyCapacity(ThriftType type) {
    if (type instanceof ThriftType.EnumRef ref) {
      return ref.enumType().members().size();
    }
    if (!(type instanceof ThriftType.Primitive primitive)) {
      return -1;
    }
    return switch (primitive.kind()) {
      case BOOL -> 2;
      case I8 -> 1L << 8;
      case I16 -> 1L << 16;
      case I32 -> 1L << 32;
      case I64, STRING -> 0;
      default -> -1; // double (FLOAT64), binary (BYTES)
    };
  }

  private static String describe(ThriftType type) {
    if (type instanceof ThriftType.Primitive primitive) {
      return switch (primitive.kind()) {
        case DOUBLE -> "a double (BigQuery FLOAT64)";
        case BINARY -> "a binary (BigQuery BYTES)";
        default -> "a " + primitive.kind().name().toLowerCase(java.util.Locale.ROOT);
      };
    }
    if (type instanceof ThriftType.EnumRef) {
      return "an enum";
    }
    if (type instanceof ThriftType.StructRef ref && ref.struct().fields().isEmpty()) {
      return "a struct with no fields (a BOOLEAN that is only ever true)";
    }
    if (type instanceof ThriftType.StructRef) {
      return "a struct (BigQuery RECORD)";
    }
    if (type instanceof ThriftType.MapOf) {
      return "a map (a repeated RECORD)";
    }
    return "a list or set (a REPEATED column)";
  }

  /**
   * The value the stream writes for a change type: {@code canonical} if the set has it, else the
   * first in sorted order. {@link ChangeSpec} keeps the values as a set, without the flag's order,
   * so "first" must be a rule of its own to be the same in every JVM.
   */
  static String preferred(Set<String> values, String canonical) {
    if (values.contains(canonical)) {
      return canonical;
    }
    return new TreeSet<>(values).first();
  }

  private static @Nullable String enumMember(
      ThriftEnum type, Set<String> values, String canonical, String flag, List<String> problems) {
    Set<String> members = new TreeSet<>();
    for (ThriftEnum.Member member : type.members()) {
      if (values.contains(member.name())) {
        members.add(member.name());
      }
    }
    if (members.isEmpty()) {
      List<String> names = type.members().stream().map(ThriftEnum.Member::name).toList();
      problems.add(
          flag
              + " "
              + new TreeSet<>(values)
              + " names no value of enum "
              + type.name()
              + " ("
              + String.join(", ", names)
              + "), so the generator cannot write that change type: name one of them");
      return null;
    }
    return preferred(members, canonical);
  }

  private static int valueOf(ThriftEnum type, String name) {
    for (ThriftEnum.Member member : type.members()) {
      if (member.name().equals(name)) {
        return member.value();
      }
    }
    throw new IllegalArgumentException(name);
  }

  private void attributeProblems(String attribute, List<String> problems) {
    List<String> reserved = new ArrayList<>();
    reserved.add(EventAttributes.EVENT_ID);
    reserved.add(EventAttributes.EVENT_TIME_MS);
    reserved.add(EventEnvelope.ENVELOPE_ATTRIBUTE);
    reserved.add(EventEnvelope.RECORD_COUNT_ATTRIBUTE);
    if (mix.attribute() != null) {
      reserved.add(mix.attribute());
    }
    if (reserved.contains(attribute)) {
      problems.add(
          "--changeType=attribute:"
              + attribute
              + " is an attribute the generator already sets ("
              + String.join(", ", reserved)
              + "): choose another name, for example attribute:op");
    }
  }
}
