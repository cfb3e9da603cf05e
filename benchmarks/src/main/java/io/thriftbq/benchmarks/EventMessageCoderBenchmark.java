package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.read.EventMessageCoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A read message through its coder (encoded, then decoded), as on any exchange between the read and
 * the decode: {@link EventMessageCoder}, which encodes the metadata with the one metadata coder
 * (attributes sorted by key, so the encoding is deterministic; a fixed-width publish time), against
 * the coder it replaced (commit 5df9039: a {@code MapCoder} of the attributes in the map's own
 * order, no publish time), reproduced here as the baseline. The setup prints the mean encoded bytes
 * of each.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@OperationsPerInvocation(SampleCorpus.SIZE)
public class EventMessageCoderBenchmark {

  @State(Scope.Thread)
  public static class Messages {
    /** Attributes per message: the generator's two (event id, event time), or more. */
    @Param({"2", "6"})
    int attributes;

    EventMessage[] messages;
    ByteArrayOutputStream buffer;

    @Setup
    public void setUp() throws IOException {
      byte[][] payloads = SampleCorpus.serializedSampleEvents(ThriftProtocol.BINARY);
      Random random = new Random(SampleCorpus.SEED);
      messages = new EventMessage[payloads.length];
      for (int i = 0; i < payloads.length; i++) {
        // Pub/Sub hands attributes over in a hash map: not sorted.
        Map<String, String> map = new HashMap<>();
        map.put("event_id", UUID.nameUUIDFromBytes(payloads[i]).toString());
        map.put("event_time_ms", Long.toString(1_763_000_000_000L + random.nextInt(1 << 30)));
        for (int extra = 2; extra < attributes; extra++) {
          map.put("attribute_" + extra, Integer.toString(random.nextInt(1_000_000)));
        }
        messages[i] = new EventMessage(payloads[i], map, Long.toString(10_000_000_000L + i), null);
      }
      buffer = new ByteArrayOutputStream(4096);
      System.out.printf(
          "%d attributes: mean encoded bytes, current %.1f, before %.1f%n",
          attributes, meanBytes(EventMessageCoder.of()), meanBytes(Before.INSTANCE));
    }

    private double meanBytes(Coder<EventMessage> coder) throws IOException {
      long total = 0;
      for (EventMessage message : messages) {
        buffer.reset();
        coder.encode(message, buffer);
        total += buffer.size();
      }
      return (double) total / messages.length;
    }
  }

  @Benchmark
  public void current(Messages state, Blackhole blackhole) throws IOException {
    roundTrip(EventMessageCoder.of(), state, blackhole);
  }

  @Benchmark
  public void before(Messages state, Blackhole blackhole) throws IOException {
    roundTrip(Before.INSTANCE, state, blackhole);
  }

  private static void roundTrip(Coder<EventMessage> coder, Messages state, Blackhole blackhole)
      throws IOException {
    for (EventMessage message : state.messages) {
      state.buffer.reset();
      coder.encode(message, state.buffer);
      blackhole.consume(coder.decode(new ByteArrayInputStream(state.buffer.toByteArray())));
    }
  }

  /** The read message's coder before the second renovation (commit 5df9039), as the baseline. */
  private static final class Before extends AtomicCoder<EventMessage> {
    static final Before INSTANCE = new Before();
    private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
    private static final Coder<Map<String, String>> ATTRIBUTES =
        MapCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of());
    private static final Coder<String> MESSAGE_ID = NullableCoder.of(StringUtf8Coder.of());

    @Override
    public void encode(EventMessage message, OutputStream out) throws IOException {
      PAYLOAD.encode(message.payload(), out);
      ATTRIBUTES.encode(message.attributes(), out);
      MESSAGE_ID.encode(message.messageId(), out);
      KafkaOrigin.encode(message.kafka(), out);
    }

    @Override
    public EventMessage decode(InputStream in) throws IOException {
      byte[] payload = PAYLOAD.decode(in);
      Map<String, String> attributes = ATTRIBUTES.decode(in);
      String messageId = MESSAGE_ID.decode(in);
      return new EventMessage(payload, attributes, messageId, KafkaOrigin.decode(in));
    }
  }
}
