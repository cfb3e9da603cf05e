package io.thriftbq.benchmarks;

import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.DatagenOptions;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
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
 *
 * <p>{@link #serializeShopMessage} compares one struct with a mix of three ({@code
 * --thriftStructs}) from the shop IDL, read from {@code
 * thrift-common/src/main/idl/shop_events.thrift} relative to the working directory (run from the
 * repository root, or set {@code -Dshop.idl=PATH}).
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

  /**
   * The generator of the shop IDL's event types as a DoFn instance holds it: one struct alone, or a
   * weighted mix of three.
   */
  @State(Scope.Thread)
  public static class ShopState {
    /**
     * A struct alone (the single-type path), or the three-struct mix of issue 22. JMH's {@code -p}
     * splits values on commas, so on the command line write the list with semicolons ({@code -p
     * thriftStructs=Order:5;Refund:1;Click:94}).
     */
    @Param({"Order", "Refund", "Click", "Order:5,Refund:1,Click:94"})
    public String thriftStructs;

    EventMix mix;
    long sequence;

    @Setup(Level.Trial)
    public void setUp() {
      String idl = System.getProperty("shop.idl", "thrift-common/src/main/idl/shop_events.thrift");
      DatagenOptions options =
          PipelineOptionsFactory.fromArgs(
                  "--thriftIdl=" + idl, "--thriftStructs=" + thriftStructs.replace(';', ','))
              .as(DatagenOptions.class);
      mix = new EventMix(GeneratorConfig.fromOptions(options));
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

  /**
   * What the pipeline does per plain message with {@code --thriftStructs}: pick the message's type
   * by weight, then serialize the event with that type's generator (a single struct picks nothing).
   */
  @Benchmark
  public int serializeShopMessage(ShopState state, Bytes bytes) {
    long sequence = state.sequence++;
    int length = state.mix.generator(state.mix.chooseType(sequence)).serializeToBuffer(sequence);
    bytes.bytes += length;
    return length;
  }

  /** The weighted pick alone, the mix's only cost on top of its structs' own. */
  @Benchmark
  public int chooseShopType(ShopState state) {
    return state.mix.chooseType(state.sequence++);
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
