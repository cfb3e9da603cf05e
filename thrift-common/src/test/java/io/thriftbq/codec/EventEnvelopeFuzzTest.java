package io.thriftbq.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.EventType;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz test of {@link EventEnvelope#unpack}: any message ends as its events or as an {@link
 * EnvelopeException} with a reason; never another exception, a hang, or an allocation past the
 * reader's limits.
 *
 * <p>Input layout (so that raw files in the corpus stay readable): byte 0 picks the attributes
 * (bits 0-2) and whether the rest is already compressed (bit 3 clear) or is the uncompressed record
 * stream that the harness compresses (bit 3 set: the fuzzer then controls the length prefixes
 * through the zlib checksum, which it could not get past by mutating compressed bytes); byte 1
 * picks the reader's limits; bytes 2-5 are the declared {@code record_count} (big-endian int); the
 * rest is the message data. Shorter inputs are padded with zeros.
 *
 * <p>Regression mode (every {@code ./mvnw verify}) replays {@code
 * src/test/resources/io/thriftbq/codec/EventEnvelopeFuzzTestInputs/unpack/**} and the seeds below;
 * fuzzing: docs/FUZZING.md.
 */
class EventEnvelopeFuzzTest {
  private static final int HEADER = 6;
  private static final int[] MAX_EVENTS = {1, 3, 1000, EventEnvelope.DEFAULT_MAX_EVENTS};
  private static final int[] MAX_TOTAL_BYTES = {0, 100, 64 * 1024, 4 * 1024 * 1024};

  /** Slack for the list, the prefix buffer, exception messages and the JIT's own allocations. */
  private static final long ALLOCATION_SLACK = 256 * 1024;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @MethodSource("seeds")
  @FuzzTest(maxDuration = "5m")
  void unpack(byte[] input) {
    byte[] header = Arrays.copyOf(input, HEADER); // zero-padded
    byte[] rest =
        input.length > HEADER ? Arrays.copyOfRange(input, HEADER, input.length) : new byte[0];
    byte[] payload = (header[0] & 8) != 0 ? deflate(rest) : rest;
    int declared = ByteBuffer.wrap(header, 2, 4).getInt();
    Map<String, String> attributes = attributes(header[0], declared);
    int maxEvents = MAX_EVENTS[header[1] & 3];
    int maxTotalBytes = MAX_TOTAL_BYTES[(header[1] >> 2) & 3];

    Callable<List<byte[]>> unpack =
        () -> EventEnvelope.unpack(payload, attributes, maxEvents, maxTotalBytes);
    long before = allocatedBytes();
    List<byte[]> events;
    try {
      events = unpack.call();
    } catch (EnvelopeException e) {
      // A dead letter: it must say why.
      assertNotNull(e.getMessage());
      assertFalse(e.getMessage().isBlank());
      events = null;
    } catch (RuntimeException e) {
      throw e; // a finding
    } catch (Exception e) {
      throw new AssertionError("unexpected checked exception", e);
    }
    assertWithinAllocationLimit(allocatedBytes() - before, unpack, maxEvents, maxTotalBytes);
    if (events == null) {
      return;
    }

    assertNotNull(events);
    if (!EventEnvelope.isEnvelope(attributes)) {
      assertEquals(1, events.size());
      assertArrayEquals(payload, events.get(0));
      return;
    }
    assertEquals(
        Long.parseLong(attributes.get(EventEnvelope.RECORD_COUNT_ATTRIBUTE).trim()), events.size());
    long total = 0;
    for (byte[] event : events) {
      assertNotNull(event);
      total += event.length;
    }
    assertTrue(total <= maxTotalBytes, "events add up to " + total + " > " + maxTotalBytes);
    // Round trip: what unpacks must pack to an envelope that unpacks to the same events.
    List<byte[]> again;
    try {
      again =
          EventEnvelope.unpack(EventEnvelope.pack(events), attributes, maxEvents, maxTotalBytes);
    } catch (EnvelopeException e) {
      throw new AssertionError("re-packed envelope does not unpack: " + e.getMessage(), e);
    }
    assertEquals(events.size(), again.size());
    for (int i = 0; i < events.size(); i++) {
      assertArrayEquals(events.get(i), again.get(i), "event " + i);
    }
  }

  private static Map<String, String> attributes(byte selector, int declared) {
    Map<String, String> attributes = new HashMap<>();
    String count = Integer.toString(declared);
    switch (selector & 7) {
      case 0 -> {
        return null; // a plain message without attributes
      }
      case 1 -> attributes.put("event_id", count); // a plain message with other attributes
      case 2, 3 -> {
        attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, EventEnvelope.FORMAT_DEFLATE_V1);
        attributes.put(EventEnvelope.RECORD_COUNT_ATTRIBUTE, count);
      }
      case 4 -> attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, EventEnvelope.FORMAT_DEFLATE_V1);
      case 5 -> {
        attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, "deflate-v" + (declared & 0xFF));
        attributes.put(EventEnvelope.RECORD_COUNT_ATTRIBUTE, count);
      }
      case 6 -> {
        attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, EventEnvelope.FORMAT_DEFLATE_V1);
        attributes.put(EventEnvelope.RECORD_COUNT_ATTRIBUTE, " " + count + "\t");
      }
      default -> {
        attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, EventEnvelope.FORMAT_DEFLATE_V1);
        attributes.put(EventEnvelope.RECORD_COUNT_ATTRIBUTE, count + "0x" + (declared >>> 28));
      }
    }
    return attributes;
  }

  private static byte[] deflate(byte[] raw) {
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try {
      deflater.setInput(raw);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 16);
      byte[] buffer = new byte[4096];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  private static long allocatedBytes() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }

  /**
   * Event data is capped by maxTotalBytes; the list and the empty arrays by maxEvents. The first
   * run of a new code path also loads (and, when fuzzing, instruments) classes on this thread,
   * which counts as allocation; so an input over the limit is unpacked again and only that second
   * run counts.
   */
  private static void assertWithinAllocationLimit(
      long allocated, Callable<?> unpack, int maxEvents, int maxTotalBytes) {
    long limit = (long) maxTotalBytes + 48L * maxEvents + ALLOCATION_SLACK;
    if (allocated > limit) {
      long before = allocatedBytes();
      try {
        unpack.call();
      } catch (Exception expected) {
        // Only the allocation matters here.
      }
      allocated = allocatedBytes() - before;
    }
    assertTrue(
        allocated <= limit,
        "unpack allocated " + allocated + " bytes, more than its limits allow (" + limit + ")");
  }

  /** Envelopes of real sample events (and a plain message) to start from. */
  static Stream<byte[]> seeds() throws TException {
    TSerializer serializer = new TSerializer(new TBinaryProtocol.Factory());
    Random random = new Random(1);
    List<byte[]> seeds = new ArrayList<>();
    for (int count : new int[] {1, 2, 5}) {
      List<byte[]> events = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Event event =
            new Event()
                .setEvent_id("e-" + random.nextInt(1000))
                .setEvent_type(EventType.CLICK)
                .setEvent_time(1_700_000_000_000L + random.nextInt(1_000_000));
        events.add(serializer.serialize(event));
      }
      seeds.add(input((byte) 2, (byte) 0b1010, count, EventEnvelope.pack(events)));
    }
    seeds.add(input((byte) 6, (byte) 0b1110, 1, EventEnvelope.pack(List.of(new byte[] {1, 2}))));
    // Uncompressed record streams (bit 3): two events of 3 and 0 bytes; a length past the limit.
    seeds.add(input((byte) 10, (byte) 0b0110, 2, new byte[] {0, 0, 0, 3, 7, 8, 9, 0, 0, 0, 0}));
    seeds.add(input((byte) 10, (byte) 0b0101, 1, new byte[] {0, 0, 1, 0, 1}));
    seeds.add(input((byte) 1, (byte) 0, 0, new byte[] {12, 0, 1, 0}));
    return seeds.stream();
  }

  static byte[] input(byte selector, byte limits, int count, byte[] payload) {
    return ByteBuffer.allocate(HEADER + payload.length)
        .put(selector)
        .put(limits)
        .putInt(count)
        .put(payload)
        .array();
  }
}
