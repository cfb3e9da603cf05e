package io.thriftbq.benchmarks;

import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.TBase;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-thread cost of the data generator's hot path: generate and serialize the sample event with
 * default options (about 1 KB with the binary protocol). The score is events per second per core;
 * the {@code bytes} secondary result is serialized bytes per second (divide by 10^6 for MB/s).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DatagenBenchmark -f 1 -wi 3 -i 5 -t 1}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class DatagenBenchmark {
  private static final int BATCH = 100;

  /** One generator per benchmark thread, as one per DoFn instance in the pipeline. */
  @State(Scope.Thread)
  public static class GeneratorState {
    @Param({"BINARY", "COMPACT"})
    public ThriftProtocol protocol;

    RandomEventGenerator generator;
    EventEnvelope.Encoder encoder;
    long sequence;

    @Setup(Level.Trial)
    public void setUp() {
      generator = new RandomEventGenerator(GeneratorConfig.builder().protocol(protocol).build());
      encoder = new EventEnvelope.Encoder();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      encoder.close();
    }
  }

  /** Serialized bytes, reported by JMH as a rate next to the event rate. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Bytes {
    public long bytes;

    @Setup(Level.Iteration)
    public void reset() {
      bytes = 0;
    }
  }

  /** The path the pipeline takes for plain messages: serialize into the reused buffer. */
  @Benchmark
  public int serializeEvent(GeneratorState state, Bytes bytes) {
    int length = state.generator.serializeToBuffer(state.sequence++);
    bytes.bytes += length;
    return length;
  }

  /**
   * As the pipeline does for a plain message: serialize, then copy into the message's own array.
   */
  @Benchmark
  public byte[] serializeEventToNewArray(GeneratorState state, Bytes bytes) {
    byte[] event = state.generator.serialize(state.sequence++);
    bytes.bytes += event.length;
    return event;
  }

  /** The object path (tests, user code): build a TBase with generated setters. */
  @Benchmark
  public TBase<?, ?> generateObject(GeneratorState state) {
    return state.generator.generate(state.sequence++);
  }

  /** Envelope mode: 100 events serialized and zlib-compressed (BEST_SPEED) into one payload. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public byte[] serializeEnvelopeOf100(GeneratorState state, Bytes bytes) {
    for (int i = 0; i < BATCH; i++) {
      int length = state.generator.serializeToBuffer(state.sequence++);
      state.encoder.add(state.generator.buffer(), 0, length);
      bytes.bytes += length;
    }
    return state.encoder.finish();
  }
}
