package io.thriftbq.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Many serialized Thrift events in one compressed Pub/Sub message.
 *
 * <h2>Format, version {@value #FORMAT_DEFLATE_V1}</h2>
 *
 * <p>A message is an envelope if and only if it carries the attribute {@value #ENVELOPE_ATTRIBUTE};
 * a message without it is a plain message whose data is exactly one serialized event. An envelope
 * has these attributes:
 *
 * <ul>
 *   <li>{@code thriftbq_envelope = deflate-v1}: marks the envelope and its format version. A reader
 *       that does not know the version must reject the message (dead letter), never guess.
 *   <li>{@code record_count = N}: the number of events, decimal, at least 1.
 *   <li>{@code event_id} and {@code event_time_ms}: see {@link EventAttributes}; the id is the
 *       first event's, and event {@code i} (0-based) has id {@code event_id + i}.
 * </ul>
 *
 * <p>The message data is a zlib stream (RFC 1950: DEFLATE data with a 2-byte header and an Adler-32
 * checksum of the uncompressed bytes), as written by {@link Deflater} and read by any zlib (Python
 * {@code zlib.decompress}, Go {@code compress/zlib}). Uncompressed, it is exactly N records, each a
 * 4-byte big-endian unsigned length followed by that many bytes of one serialized Thrift event,
 * with nothing after the last record. The Thrift protocol (binary or compact) is not recorded: it
 * is the one both pipelines are configured with.
 *
 * <p>zlib rather than gzip because its framing costs 6 bytes instead of 18 and its checksum still
 * catches corrupt data; a length prefix rather than Thrift framing so that a reader can check each
 * length against its limits before it allocates.
 *
 * <h2>Reading safely</h2>
 *
 * {@link #unpack} never allocates more than the caller's {@code maxTotalBytes} for event data (plus
 * a list of at most {@code maxEvents} references), whatever the message declares, so a corrupt or
 * hostile message cannot exhaust memory; every inconsistency raises {@link EnvelopeException}.
 */
public final class EventEnvelope {

  /** Attribute that marks an envelope; its value is the format version. */
  public static final String ENVELOPE_ATTRIBUTE = "thriftbq_envelope";

  /** Attribute with the number of events in the envelope, decimal. */
  public static final String RECORD_COUNT_ATTRIBUTE = "record_count";

  /** The only format version this build writes and reads. */
  public static final String FORMAT_DEFLATE_V1 = "deflate-v1";

  /** Reasonable reader limit on events per envelope; the generator writes at most 10,000. */
  public static final int DEFAULT_MAX_EVENTS = 100_000;

  /**
   * Reasonable reader limit on the uncompressed event bytes of one envelope. Pub/Sub messages are
   * at most 10 MB compressed; well-compressing events may expand several times over.
   */
  public static final int DEFAULT_MAX_TOTAL_BYTES = 128 * 1024 * 1024;

  /**
   * The largest event an envelope may hold: Pub/Sub's limit on one message (10 MiB), since a larger
   * event could never have been published alone. It also keeps a decompression bomb from becoming
   * an event too large for any dead-letter row: the envelope itself becomes the dead letter.
   */
  public static final int MAX_EVENT_BYTES = 10 * 1024 * 1024;

  private static final int LENGTH_PREFIX_BYTES = 4;

  // Inflater holds native zlib state; one per thread avoids creating it for every message.
  private static final ThreadLocal<Inflater> INFLATER = ThreadLocal.withInitial(Inflater::new);

  private EventEnvelope() {}

  /** True when the attributes mark the message as an envelope (of any version). */
  public static boolean isEnvelope(Map<String, String> attributes) {
    return attributes != null && attributes.containsKey(ENVELOPE_ATTRIBUTE);
  }

  /**
   * The attributes that mark an envelope of {@code recordCount} events; add {@link EventAttributes}
   * to them.
   */
  public static Map<String, String> envelopeAttributes(int recordCount) {
    if (recordCount < 1) {
      throw new IllegalArgumentException("an envelope holds at least one event: " + recordCount);
    }
    Map<String, String> attributes = new HashMap<>();
    attributes.put(ENVELOPE_ATTRIBUTE, FORMAT_DEFLATE_V1);
    attributes.put(RECORD_COUNT_ATTRIBUTE, Integer.toString(recordCount));
    return attributes;
  }

  /**
   * The serialized events of a message: the payload itself for a plain message, the unpacked events
   * for an envelope.
   *
   * @param maxEvents refuse an envelope that declares more events than this
   * @param maxTotalBytes refuse an envelope whose events add up to more bytes than this; checked
   *     before each allocation
   * @throws EnvelopeException if the message is marked as an envelope but cannot be unpacked
   */
  public static List<byte[]> unpack(
      byte[] payload, Map<String, String> attributes, int maxEvents, int maxTotalBytes)
      throws EnvelopeException {
    if (maxEvents < 1 || maxTotalBytes < 0) {
      throw new IllegalArgumentException(
          "limits must be positive: maxEvents=" + maxEvents + ", maxTotalBytes=" + maxTotalBytes);
    }
    if (!isEnvelope(attributes)) {
      return List.of(payload == null ? new byte[0] : payload);
    }
    String version = attributes.get(ENVELOPE_ATTRIBUTE);
    if (!FORMAT_DEFLATE_V1.equals(version)) {
      throw new EnvelopeException(
          "Unsupported envelope version "
              + ENVELOPE_ATTRIBUTE
              + "='"
              + version
              + "': this build reads only '"
              + FORMAT_DEFLATE_V1
              + "'; upgrade the ingestion pipeline or publish with a matching generator");
    }
    int count = recordCount(attributes, maxEvents);
    if (payload == null) {
      throw new EnvelopeException("Envelope has no data");
    }
    Inflater inflater = INFLATER.get();
    inflater.reset();
    inflater.setInput(payload);
    try {
      List<byte[]> events = new ArrayList<>(count);
      byte[] prefix = new byte[LENGTH_PREFIX_BYTES];
      long total = 0;
      for (int i = 0; i < count; i++) {
        readFully(inflater, prefix, i, count, "length prefix");
        long length =
            ((prefix[0] & 0xFFL) << 24)
                | ((prefix[1] & 0xFFL) << 16)
                | ((prefix[2] & 0xFFL) << 8)
                | (prefix[3] & 0xFFL);
        if (length > MAX_EVENT_BYTES) {
          throw new EnvelopeException(
              "Envelope event "
                  + i
                  + " declares "
                  + length
                  + " bytes, more than the "
                  + MAX_EVENT_BYTES
                  + " bytes a Pub/Sub message (so an event) can hold");
        }
        if (length > maxTotalBytes - total) {
          throw new EnvelopeException(
              "Envelope event "
                  + i
                  + " declares "
                  + length
                  + " bytes, which would take the envelope past the limit of "
                  + maxTotalBytes
                  + " bytes ("
                  + total
                  + " bytes already read)");
        }
        byte[] event = new byte[(int) length];
        readFully(inflater, event, i, count, "event data");
        total += length;
        events.add(event);
      }
      expectEnd(inflater, count);
      return events;
    } catch (DataFormatException e) {
      throw new EnvelopeException("Envelope data is not a valid zlib stream: " + e.getMessage(), e);
    } finally {
      // Drop the reference to the payload; the native state is reused by the next call.
      inflater.reset();
    }
  }

  /** Packs events into an envelope payload (convenience for tests and small batches). */
  public static byte[] pack(List<byte[]> events) {
    Encoder encoder = new Encoder();
    try {
      for (byte[] event : events) {
        encoder.add(event, 0, event.length);
      }
      return encoder.finish();
    } finally {
      encoder.close();
    }
  }

  private static int recordCount(Map<String, String> attributes, int maxEvents)
      throws EnvelopeException {
    String declared = attributes.get(RECORD_COUNT_ATTRIBUTE);
    if (declared == null) {
      throw new EnvelopeException(
          "Envelope has no " + RECORD_COUNT_ATTRIBUTE + " attribute; it is required");
    }
    long count;
    try {
      count = Long.parseLong(declared.trim());
    } catch (NumberFormatException e) {
      throw new EnvelopeException(
          "Envelope attribute " + RECORD_COUNT_ATTRIBUTE + "='" + declared + "' is not a number");
    }
    if (count < 1 || count > maxEvents) {
      throw new EnvelopeException(
          "Envelope attribute "
              + RECORD_COUNT_ATTRIBUTE
              + "="
              + count
              + " is outside 1.."
              + maxEvents
              + " (the reader's limit on events per envelope)");
    }
    return (int) count;
  }

  private static void readFully(Inflater inflater, byte[] into, int index, int count, String what)
      throws DataFormatException, EnvelopeException {
    int read = 0;
    while (read < into.length) {
      int n = inflater.inflate(into, read, into.length - read);
      if (n > 0) {
        read += n;
        continue;
      }
      if (inflater.finished()) {
        throw new EnvelopeException(
            "Envelope ends inside the "
                + what
                + " of event "
                + index
                + " but "
                + RECORD_COUNT_ATTRIBUTE
                + "="
                + count
                + ": the count does not match the data");
      }
      if (inflater.needsDictionary()) {
        throw new EnvelopeException(
            "Envelope data asks for a zlib preset dictionary; none is used");
      }
      if (inflater.needsInput()) {
        throw new EnvelopeException(
            "Envelope compressed data is truncated (inside the "
                + what
                + " of event "
                + index
                + ")");
      }
    }
  }

  private static void expectEnd(Inflater inflater, int count)
      throws DataFormatException, EnvelopeException {
    byte[] probe = new byte[1];
    while (!inflater.finished()) {
      int n = inflater.inflate(probe);
      if (n > 0) {
        throw new EnvelopeException(
            "Envelope holds more data after its "
                + count
                + " declared events ("
                + RECORD_COUNT_ATTRIBUTE
                + "="
                + count
                + "): the count does not match the data");
      }
      if (inflater.needsDictionary()) {
        throw new EnvelopeException(
            "Envelope data asks for a zlib preset dictionary; none is used");
      }
      if (inflater.needsInput()) {
        throw new EnvelopeException(
            "Envelope compressed data is truncated (the zlib stream has no end or checksum)");
      }
    }
    if (inflater.getRemaining() > 0) {
      throw new EnvelopeException(
          "Envelope has " + inflater.getRemaining() + " bytes after the end of its zlib stream");
    }
  }

  /**
   * Builds envelope payloads. Reuse one per thread: it keeps its buffers and its {@link Deflater}
   * between envelopes. Call {@link #close()} when done to free the native compressor early.
   */
  public static final class Encoder implements AutoCloseable {
    private final Deflater deflater;
    private byte[] raw = new byte[64 * 1024];
    private int rawLength;
    private int count;
    private byte[] compressed = new byte[16 * 1024];

    /** An encoder at {@link Deflater#BEST_SPEED}, which suits a generator that must be fast. */
    public Encoder() {
      this(Deflater.BEST_SPEED);
    }

    /** An encoder at the given zlib level (0-9, or {@link Deflater#DEFAULT_COMPRESSION}). */
    public Encoder(int level) {
      this.deflater = new Deflater(level);
    }

    /** Appends one serialized event. */
    public void add(byte[] event, int offset, int length) {
      ensureRaw((long) rawLength + LENGTH_PREFIX_BYTES + length);
      raw[rawLength] = (byte) (length >>> 24);
      raw[rawLength + 1] = (byte) (length >>> 16);
      raw[rawLength + 2] = (byte) (length >>> 8);
      raw[rawLength + 3] = (byte) length;
      System.arraycopy(event, offset, raw, rawLength + LENGTH_PREFIX_BYTES, length);
      rawLength += LENGTH_PREFIX_BYTES + length;
      count++;
    }

    /** Events added since the last {@link #finish()}. */
    public int count() {
      return count;
    }

    /** Uncompressed size of the events added so far, length prefixes included. */
    public int uncompressedBytes() {
      return rawLength;
    }

    /** Compresses the events added so far into a payload and starts a new, empty envelope. */
    public byte[] finish() {
      if (count == 0) {
        throw new IllegalStateException("an envelope holds at least one event; add one first");
      }
      deflater.reset();
      deflater.setInput(raw, 0, rawLength);
      deflater.finish();
      int length = 0;
      while (!deflater.finished()) {
        if (length == compressed.length) {
          compressed = Arrays.copyOf(compressed, compressed.length * 2);
        }
        length += deflater.deflate(compressed, length, compressed.length - length);
      }
      rawLength = 0;
      count = 0;
      return Arrays.copyOf(compressed, length);
    }

    @Override
    public void close() {
      deflater.end();
    }

    private void ensureRaw(long needed) {
      if (needed > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("envelope too large: " + needed + " bytes");
      }
      if (needed > raw.length) {
        raw = Arrays.copyOf(raw, (int) Math.max(needed, Math.min(2L * raw.length, 1 << 30)));
      }
    }
  }
}
