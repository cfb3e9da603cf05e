package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConversionException;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Events from a producer on a newer IDL: the sample corpus with {@link #UNKNOWN_FIELDS} string
 * fields the IDL does not know added to each event, which the decoder skips and counts. Run with
 * {@code -prof gc} to see the bytes allocated per event ({@code gc.alloc.rate.norm}); compare with
 * {@code ConversionBenchmark} for the same events without the extra fields.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@OperationsPerInvocation(SampleCorpus.SIZE)
public class UnknownFieldsBenchmark {
  static final int UNKNOWN_FIELDS = 4;

  @State(Scope.Thread)
  public static class Corpus {
    byte[][] events;
    EventConverter<EncodedRow> protoMessages;

    @Setup
    public void setUp() throws Exception {
      byte[][] plain = SampleCorpus.serializedSampleEvents(ThriftProtocol.BINARY);
      events = new byte[plain.length][];
      for (int i = 0; i < plain.length; i++) {
        events[i] = withUnknownFields(plain[i]);
      }
      ConverterConfig config =
          ConverterConfig.of(Event.class.getName(), ThriftProtocol.BINARY, MetadataColumns.NONE);
      protoMessages = EventConverters.encodedRows(config);
      protoMessages.fromBytes(events[0], EventMetadata.EMPTY);
      if (protoMessages.takeUnknownFields().count() != UNKNOWN_FIELDS) {
        throw new IllegalStateException("the added fields were not skipped as unknown");
      }
    }

    /** The event with string fields 1001.. inserted before its stop byte (binary protocol). */
    static byte[] withUnknownFields(byte[] event) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(event.length + 64);
      out.write(event, 0, event.length - 1);
      for (int f = 0; f < UNKNOWN_FIELDS; f++) {
        byte[] value = ("added by a newer IDL " + f).getBytes(StandardCharsets.UTF_8);
        ByteBuffer field = ByteBuffer.allocate(7 + value.length);
        field.put((byte) 11).putShort((short) (1001 + f)).putInt(value.length).put(value);
        out.write(field.array(), 0, field.capacity());
      }
      out.write(0);
      return out.toByteArray();
    }
  }

  /** PROTO_MESSAGE, the default format: Thrift bytes to the row's Storage Write bytes. */
  @Benchmark
  public void protoMessageWithUnknownFields(Corpus corpus, Blackhole blackhole)
      throws ThriftDecodeException, ConversionException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(corpus.protoMessages.fromBytes(payload, EventMetadata.EMPTY));
    }
    // The DoFn takes the counts for its report once per bundle, not per event.
    blackhole.consume(corpus.protoMessages.takeUnknownFields());
  }
}
