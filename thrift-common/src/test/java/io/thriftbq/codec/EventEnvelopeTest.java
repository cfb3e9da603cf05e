package io.thriftbq.codec;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class EventEnvelopeTest {
  private static final int MAX_EVENTS = EventEnvelope.DEFAULT_MAX_EVENTS;
  private static final int MAX_BYTES = 16 * 1024 * 1024;

  @Test
  public void roundTripsEventsOfManySizesIncludingEmpty() throws Exception {
    Random random = new Random(7);
    for (int count : new int[] {1, 2, 17, 1000}) {
      List<byte[]> events = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        byte[] event = new byte[i == 1 ? 0 : random.nextInt(3000)];
        random.nextBytes(event);
        events.add(event);
      }
      byte[] payload = EventEnvelope.pack(events);
      List<byte[]> unpacked =
          EventEnvelope.unpack(
              payload, EventEnvelope.envelopeAttributes(count), MAX_EVENTS, MAX_BYTES);
      assertEquals(count, unpacked.size());
      for (int i = 0; i < count; i++) {
        assertArrayEquals("event " + i, events.get(i), unpacked.get(i));
      }
    }
  }

  @Test
  public void encoderIsReusableAndCompressesRepetitiveEvents() throws Exception {
    try (EventEnvelope.Encoder encoder = new EventEnvelope.Encoder()) {
      byte[] event = "the same quick brown fox, again and again".repeat(20).getBytes();
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 100; i++) {
          encoder.add(event, 0, event.length);
        }
        assertEquals(100, encoder.count());
        assertEquals(100 * (4 + event.length), encoder.uncompressedBytes());
        byte[] payload = encoder.finish();
        assertEquals(0, encoder.count());
        assertThat(payload.length, lessThan(event.length * 100 / 10));
        List<byte[]> unpacked =
            EventEnvelope.unpack(
                payload, EventEnvelope.envelopeAttributes(100), MAX_EVENTS, MAX_BYTES);
        assertEquals(100, unpacked.size());
        assertArrayEquals(event, unpacked.get(99));
      }
    }
  }

  @Test
  public void plainMessageIsReturnedAsOneEvent() throws Exception {
    byte[] payload = {1, 2, 3};
    Map<String, String> attributes = Map.of(EventAttributes.EVENT_ID, "5");
    assertFalse(EventEnvelope.isEnvelope(attributes));
    assertFalse(EventEnvelope.isEnvelope(null));
    List<byte[]> events = EventEnvelope.unpack(payload, attributes, 1, 1);
    assertEquals(1, events.size());
    assertSame(payload, events.get(0));
  }

  @Test
  public void envelopeAttributesMarkTheFormat() {
    Map<String, String> attributes = EventEnvelope.envelopeAttributes(3);
    assertTrue(EventEnvelope.isEnvelope(attributes));
    assertEquals("deflate-v1", attributes.get("thriftbq_envelope"));
    assertEquals("3", attributes.get("record_count"));
    assertThrows(IllegalArgumentException.class, () -> EventEnvelope.envelopeAttributes(0));
  }

  @Test
  public void rejectsRandomBytes() {
    Random random = new Random(11);
    for (int i = 0; i < 500; i++) {
      byte[] garbage = new byte[1 + random.nextInt(2000)];
      random.nextBytes(garbage);
      assertRejected(garbage, EventEnvelope.envelopeAttributes(1 + random.nextInt(50)));
    }
  }

  @Test
  public void rejectsEveryTruncation() {
    byte[] payload = EventEnvelope.pack(events(5, 200));
    for (int length = 0; length < payload.length; length++) {
      assertRejected(Arrays.copyOf(payload, length), EventEnvelope.envelopeAttributes(5));
    }
  }

  @Test
  public void rejectsEverySingleByteCorruption() {
    byte[] payload = EventEnvelope.pack(events(3, 100));
    for (int position = 0; position < payload.length; position++) {
      byte[] corrupt = payload.clone();
      corrupt[position] ^= 0x55;
      assertRejected(corrupt, EventEnvelope.envelopeAttributes(3));
    }
  }

  @Test
  public void rejectsCountMismatchInBothDirections() {
    byte[] payload = EventEnvelope.pack(events(4, 50));
    assertThat(
        assertRejected(payload, EventEnvelope.envelopeAttributes(5)).getMessage(),
        containsString("count does not match"));
    assertThat(
        assertRejected(payload, EventEnvelope.envelopeAttributes(3)).getMessage(),
        containsString("count does not match"));
  }

  @Test
  public void rejectsBadRecordCountAttribute() {
    byte[] payload = EventEnvelope.pack(events(2, 10));
    Map<String, String> attributes = new HashMap<>(EventEnvelope.envelopeAttributes(2));
    attributes.remove(EventEnvelope.RECORD_COUNT_ATTRIBUTE);
    assertRejected(payload, attributes);
    for (String bad : new String[] {"", "two", "0", "-2", "99999999999", "1.5"}) {
      attributes.put(EventEnvelope.RECORD_COUNT_ATTRIBUTE, bad);
      assertRejected(payload, attributes);
    }
  }

  @Test
  public void rejectsMoreEventsThanTheReaderAllows() throws Exception {
    byte[] payload = EventEnvelope.pack(events(10, 10));
    Map<String, String> attributes = EventEnvelope.envelopeAttributes(10);
    EnvelopeException e =
        assertThrows(
            EnvelopeException.class, () -> EventEnvelope.unpack(payload, attributes, 9, MAX_BYTES));
    assertThat(e.getMessage(), containsString("outside 1..9"));
    assertEquals(10, EventEnvelope.unpack(payload, attributes, 10, MAX_BYTES).size());
  }

  @Test
  public void rejectsUnknownVersionAndOtherCompressionFormats() throws Exception {
    byte[] payload = EventEnvelope.pack(events(1, 10));
    Map<String, String> attributes = new HashMap<>(EventEnvelope.envelopeAttributes(1));
    attributes.put(EventEnvelope.ENVELOPE_ATTRIBUTE, "deflate-v2");
    assertThat(
        assertRejected(payload, attributes).getMessage(), containsString("Unsupported envelope"));

    // A gzip stream of a valid body is not a zlib stream.
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gzipped)) {
      out.write(body(new byte[] {1, 2, 3}));
    }
    assertRejected(gzipped.toByteArray(), EventEnvelope.envelopeAttributes(1));
  }

  @Test
  public void rejectsTrailingBytesAfterTheStream() {
    byte[] payload = EventEnvelope.pack(events(2, 30));
    byte[] withTrailer = Arrays.copyOf(payload, payload.length + 3);
    assertThat(
        assertRejected(withTrailer, EventEnvelope.envelopeAttributes(2)).getMessage(),
        containsString("after the end"));
  }

  @Test
  public void rejectsDeclaredLengthBeyondTheLimitWithoutAllocatingIt() throws Exception {
    // A valid zlib stream whose only length prefix claims ~4 GB (and, separately, 2 GB - 1).
    for (byte[] prefix :
        new byte[][] {{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, {0x7F, -1, -1, -1}}) {
      byte[] payload = zlib(concat(prefix, new byte[100]));
      long before = allocatedBytes();
      EnvelopeException e =
          assertThrows(
              EnvelopeException.class,
              () ->
                  EventEnvelope.unpack(
                      payload,
                      EventEnvelope.envelopeAttributes(1),
                      MAX_EVENTS,
                      Integer.MAX_VALUE - 8));
      long allocated = allocatedBytes() - before;
      assertThat(e.getMessage(), containsString("declares"));
      assertThat("bytes allocated while rejecting", allocated, lessThan(1_000_000L));
    }
  }

  @Test
  public void refusesAnEventLargerThanAPubsubMessageEvenUnderTheTotalLimit() throws Exception {
    // A decompression bomb: ~10 KB that inflate to one event just over 10 MiB.
    byte[] bomb = EventEnvelope.pack(List.of(new byte[EventEnvelope.MAX_EVENT_BYTES + 1]));
    assertThat(bomb.length, lessThan(100_000));
    EnvelopeException e =
        assertThrows(
            EnvelopeException.class,
            () ->
                EventEnvelope.unpack(
                    bomb, EventEnvelope.envelopeAttributes(1), MAX_EVENTS, 128 << 20));
    assertThat(e.getMessage(), containsString("a Pub/Sub message"));

    byte[] largest = EventEnvelope.pack(List.of(new byte[EventEnvelope.MAX_EVENT_BYTES]));
    assertEquals(
        EventEnvelope.MAX_EVENT_BYTES,
        EventEnvelope.unpack(largest, EventEnvelope.envelopeAttributes(1), MAX_EVENTS, 128 << 20)
            .get(0)
            .length);
  }

  @Test
  public void enforcesTheTotalByteLimitAcrossEvents() throws Exception {
    List<byte[]> events = events(10, 1000); // 10 x 1000 bytes
    byte[] payload = EventEnvelope.pack(events);
    Map<String, String> attributes = EventEnvelope.envelopeAttributes(10);
    assertEquals(10, EventEnvelope.unpack(payload, attributes, 10, 10_000).size());
    assertThrows(
        EnvelopeException.class, () -> EventEnvelope.unpack(payload, attributes, 10, 9_999));
  }

  @Test
  public void eventIdsInsideAnEnvelopeAreConsecutive() {
    Map<String, String> attributes = new HashMap<>(EventEnvelope.envelopeAttributes(3));
    attributes.put(EventAttributes.EVENT_ID, "41");
    attributes.put(EventAttributes.EVENT_TIME_MS, "1700000000123");
    assertEquals("41", EventAttributes.eventIdAt(attributes, 0));
    assertEquals("42", EventAttributes.eventIdAt(attributes, 1));
    assertEquals("43", EventAttributes.eventIdAt(attributes, 2));
    assertThrows(IllegalArgumentException.class, () -> EventAttributes.eventIdAt(attributes, 3));
    assertThrows(IllegalArgumentException.class, () -> EventAttributes.eventIdAt(attributes, -1));
    assertEquals(Long.valueOf(1700000000123L), EventAttributes.eventTimeMillis(attributes));

    Map<String, String> plain = Map.of(EventAttributes.EVENT_ID, "abc");
    assertEquals("abc", EventAttributes.eventIdAt(plain, 0));
    assertThrows(IllegalArgumentException.class, () -> EventAttributes.eventIdAt(plain, 1));
    assertNull(EventAttributes.eventIdAt(Map.of(), 0));
    assertNull(EventAttributes.eventTimeMillis(Map.of(EventAttributes.EVENT_TIME_MS, "x")));

    attributes.put(EventAttributes.EVENT_ID, "not-a-number");
    assertThrows(IllegalArgumentException.class, () -> EventAttributes.eventIdAt(attributes, 1));
  }

  private static EnvelopeException assertRejected(byte[] payload, Map<String, String> attributes) {
    try {
      List<byte[]> events = EventEnvelope.unpack(payload, attributes, MAX_EVENTS, MAX_BYTES);
      fail("accepted a corrupt envelope of " + payload.length + " bytes as " + events.size());
      return null;
    } catch (EnvelopeException expected) {
      return expected;
    }
  }

  private static List<byte[]> events(int count, int size) {
    Random random = new Random(count * 31L + size);
    List<byte[]> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] event = new byte[size];
      random.nextBytes(event);
      events.add(event);
    }
    return events;
  }

  private static byte[] body(byte[] event) {
    byte[] prefix = {0, 0, 0, (byte) event.length};
    return concat(prefix, event);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] zlib(byte[] raw) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflate = new DeflaterOutputStream(out, new Deflater())) {
      deflate.write(raw);
    }
    return out.toByteArray();
  }

  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
