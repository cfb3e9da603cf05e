package io.thriftbq.local.source;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.ingest.deadletter.Stage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Messages no generator would publish, each marked with a {@value #ID_ATTRIBUTE} attribute so the
 * report can find it in the dead-letter table and check the stage it failed at.
 */
public final class MalformedMessages {
  public static final String ID_ATTRIBUTE = "malformed_id";
  public static final String KIND_ATTRIBUTE = "malformed_kind";

  /** The type byte that {@link #truncated} leaves of a field header when nothing else is left. */
  private static final byte CUT_FIELD_HEADER = 0x08;

  /** The kinds of damage, and the stage at which the ingestion pipeline must catch each. */
  public enum Kind {
    /** Bytes from a random generator: not a Thrift struct at all. */
    RANDOM_BYTES(Stage.DECODE),
    /**
     * A real event cut in half, as a producer crashing mid-write would leave it ({@link
     * #truncated}: an event of one byte is cut inside a field header instead).
     */
    TRUNCATED(Stage.DECODE),
    /** A real event with a required field's bytes overwritten by an invalid field type. */
    CORRUPTED(Stage.DECODE),
    /** Marked as an envelope, but the payload is not a deflate stream of length-prefixed events. */
    CORRUPT_ENVELOPE(Stage.UNPACK),
    /** Many types by attribute: a valid event whose message lacks the struct attribute. */
    MISSING_STRUCT(Stage.ROUTE),
    /** Many types by attribute: a valid event whose attribute names a struct the job lacks. */
    UNKNOWN_STRUCT(Stage.ROUTE),
    /** Many types in a union: a union with no member set. */
    EMPTY_UNION(Stage.ROUTE),
    /** Many types in a union: a member id the union does not have. */
    UNKNOWN_MEMBER(Stage.ROUTE),
    /** Many types in a union: a member that is not a struct (a union's {@code string note}). */
    NON_STRUCT_MEMBER(Stage.ROUTE);

    /** The kinds every run mixes in. */
    public static final List<Kind> COMMON =
        List.of(RANDOM_BYTES, TRUNCATED, CORRUPTED, CORRUPT_ENVELOPE);

    private final Stage expectedStage;

    Kind(Stage expectedStage) {
      this.expectedStage = expectedStage;
    }

    public Stage expectedStage() {
      return expectedStage;
    }
  }

  /**
   * A malformed message and what the dead-letter table must say about it.
   *
   * @param expectedStage the stage it must be dead-lettered at
   * @param expectedStruct the dead letter's {@code struct} column with many types (the struct a
   *     DECODE failure was routed to), else null
   */
  public record Malformed(
      String id,
      Kind kind,
      SourceMessage message,
      Stage expectedStage,
      @Nullable String expectedStruct) {
    public Malformed(String id, Kind kind, SourceMessage message) {
      this(id, kind, message, kind.expectedStage(), null);
    }
  }

  private MalformedMessages() {}

  /**
   * {@code count} malformed messages cycling through every {@link Kind}.
   *
   * @param validEvent serialized valid event for a sequence number, to truncate or corrupt
   */
  public static List<Malformed> create(int count, long seed, LongFunction<byte[]> validEvent) {
    List<Malformed> out = new ArrayList<>(count);
    for (Malformed bad : createCommon(count, seed, validEvent, Kind.COMMON)) {
      out.add(new Malformed(bad.id(), bad.kind(), bad.message()));
    }
    return out;
  }

  /**
   * {@code count} malformed messages for the event types of {@code mix}: with one type as {@link
   * #create(int, long, LongFunction)}; with many, those damaged events carry their struct (the
   * attribute, or the union around them) so that they fail to decode as that struct, and the
   * layout's routing failures are mixed in (missing and unknown struct attribute; empty union,
   * unknown member, non-struct member).
   */
  public static List<Malformed> create(
      int count, long seed, EventMix mix, ThriftProtocol protocol) {
    if (mix.eventTypes().isSingle()) {
      return create(count, seed, mix::serialize);
    }
    return new ManyTypesMalformed(mix, protocol).create(count, seed);
  }

  static List<Malformed> createCommon(
      int count, long seed, LongFunction<byte[]> validEvent, List<Kind> kinds) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x6d616c666f726dL);
    List<Malformed> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Kind kind = kinds.get(i % kinds.size());
      String id = "bad-" + i;
      Map<String, String> attributes = new LinkedHashMap<>();
      byte[] payload;
      switch (kind) {
        case RANDOM_BYTES:
          payload = new byte[64 + random.nextInt(512)];
          random.nextBytes(payload);
          // 0x7f is no Thrift type id, so even the first field header is invalid.
          payload[0] = 0x7f;
          break;
        case TRUNCATED:
          {
            payload = truncated(validEvent.apply(1_000_000_000L + i));
            break;
          }
        case CORRUPTED:
          {
            payload = corrupted(validEvent.apply(1_000_000_000L + i));
            break;
          }
        case CORRUPT_ENVELOPE:
          payload = new byte[32 + random.nextInt(64)];
          random.nextBytes(payload);
          attributes.putAll(EventEnvelope.envelopeAttributes(3));
          break;
        default:
          // The other kinds need many event types: ManyTypesMalformed makes them.
          payload = new byte[0];
      }
      attributes.put(ID_ATTRIBUTE, id);
      attributes.put(KIND_ATTRIBUTE, kind.name());
      attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(System.currentTimeMillis()));
      out.add(new Malformed(id, kind, new SourceMessage(payload, attributes)));
    }
    return out;
  }

  /**
   * A serialized struct cut short: its first half, which lacks the struct's closing field stop. A
   * struct of one byte (only that stop: an empty struct, or one with no field set) has no shorter
   * prefix that is still a message, so it becomes a field header cut after its type byte instead
   * (an i32 in BINARY, a field whose id is missing in COMPACT): every protocol's decoder runs out
   * of bytes inside it.
   */
  static byte[] truncated(byte[] struct) {
    if (struct.length <= 1) {
      return new byte[] {CUT_FIELD_HEADER};
    }
    return Arrays.copyOf(struct, struct.length / 2);
  }

  /**
   * A copy of a serialized struct whose first byte, its first field's type, is 0x7f: no Thrift type
   * in either protocol, so the decoder fails at the first field.
   */
  static byte[] corrupted(byte[] struct) {
    byte[] damaged = struct.clone();
    damaged[0] = 0x7f;
    return damaged;
  }

  /**
   * Publishes {@code malformed} in up to ten batches spread over {@code runMillis} (the generator's
   * expected run time), so they reach the pipeline among the events rather than in one lump.
   */
  public static void publishSpread(
      EventSource source, List<Malformed> malformed, long runMillis, AtomicLong published) {
    if (malformed.isEmpty()) {
      return;
    }
    int batches = Math.min(10, malformed.size());
    try {
      for (int b = 0; b < batches; b++) {
        List<SourceMessage> batch = new ArrayList<>();
        for (int i = b; i < malformed.size(); i += batches) {
          batch.add(malformed.get(i).message());
        }
        source.publish(batch);
        published.addAndGet(batch.size());
        Thread.sleep(Math.max(1, runMillis) / batches);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
