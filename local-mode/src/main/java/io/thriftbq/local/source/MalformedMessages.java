package io.thriftbq.local.source;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
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

/**
 * Messages no generator would publish, each marked with a {@value #ID_ATTRIBUTE} attribute so the
 * report can find it in the dead-letter table and check the stage it failed at.
 */
public final class MalformedMessages {
  public static final String ID_ATTRIBUTE = "malformed_id";
  public static final String KIND_ATTRIBUTE = "malformed_kind";

  /** The kinds of damage, and the stage at which the ingestion pipeline must catch each. */
  public enum Kind {
    /** Bytes from a random generator: not a Thrift struct at all. */
    RANDOM_BYTES(Stage.DECODE),
    /** A real event cut in half, as a producer crashing mid-write would leave it. */
    TRUNCATED(Stage.DECODE),
    /** A real event with a required field's bytes overwritten by an invalid field type. */
    CORRUPTED(Stage.DECODE),
    /** Marked as an envelope, but the payload is not a deflate stream of length-prefixed events. */
    CORRUPT_ENVELOPE(Stage.UNPACK);

    private final Stage expectedStage;

    Kind(Stage expectedStage) {
      this.expectedStage = expectedStage;
    }

    public Stage expectedStage() {
      return expectedStage;
    }
  }

  /** A malformed message and what the dead-letter table must say about it. */
  public record Malformed(String id, Kind kind, SourceMessage message) {}

  private MalformedMessages() {}

  /**
   * {@code count} malformed messages cycling through every {@link Kind}.
   *
   * @param validEvent serialized valid event for a sequence number, to truncate or corrupt
   */
  public static List<Malformed> create(int count, long seed, LongFunction<byte[]> validEvent) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x6d616c666f726dL);
    Kind[] kinds = Kind.values();
    List<Malformed> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Kind kind = kinds[i % kinds.length];
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
            byte[] event = validEvent.apply(1_000_000_000L + i);
            payload = Arrays.copyOf(event, Math.max(1, event.length / 2));
            break;
          }
        case CORRUPTED:
          {
            byte[] event = validEvent.apply(1_000_000_000L + i);
            payload = event.clone();
            payload[0] = 0x7f;
            break;
          }
        case CORRUPT_ENVELOPE:
          payload = new byte[32 + random.nextInt(64)];
          random.nextBytes(payload);
          attributes.putAll(EventEnvelope.envelopeAttributes(3));
          break;
        default:
          throw new IllegalStateException("unhandled kind " + kind);
      }
      attributes.put(ID_ATTRIBUTE, id);
      attributes.put(KIND_ATTRIBUTE, kind.name());
      attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(System.currentTimeMillis()));
      out.add(new Malformed(id, kind, new SourceMessage(payload, attributes)));
    }
    return out;
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
