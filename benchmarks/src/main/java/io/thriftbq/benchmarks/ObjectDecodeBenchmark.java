package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding into the generated object, as every job with a user function does: bare libthrift
 * ({@code new T()} and {@link TDeserializer}, no checks) against {@code EventConverter.decode},
 * which applies the decoding contract (size limits, UTF-8, enum values, unions, required fields,
 * the row-size estimate, unknown fields, trailing bytes) on the same bytes into the same class.
 *
 * <p>The corpus is {@value #SIZE} events of a struct the converters were not tuned on, by default
 * the test IDL's {@code AllTypes} (every Thrift type, nested structs, a union, maps of structs,
 * lists of lists, enums) from the data generator, about 1 KB each; {@code Event} is the sample
 * struct, for comparison. Each JMH operation is one event. Compare the two benchmarks within one
 * run only (see benchmarks/RESULTS.md), with {@code -prof gc} for bytes allocated per event.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@OperationsPerInvocation(ObjectDecodeBenchmark.SIZE)
@State(Scope.Thread)
public class ObjectDecodeBenchmark {
  static final int SIZE = 2_000;
  private static final long SEED = 20261125L;

  @Param({"AllTypes", "Event"})
  public String struct;

  private byte[][] events;
  private Supplier<TBase<?, ?>> newEvent;
  private TDeserializer deserializer;
  private EventConverter<?> converter;

  @Setup
  public void setUp() throws Exception {
    String className;
    GeneratorConfig.Builder generator = GeneratorConfig.builder().seed(SEED);
    if (struct.equals("AllTypes")) {
      className = AllTypes.class.getName();
      newEvent = AllTypes::new;
      // About 1 KB: every field set, short strings and collections.
      generator.completeObjects(true).minStringLength(4).maxStringLength(24).maxCollectionSize(4);
    } else {
      className = Event.class.getName();
      newEvent = Event::new;
    }
    RandomEventGenerator random =
        new RandomEventGenerator(
            generator.className(className).protocol(ThriftProtocol.BINARY).build());
    converter =
        EventConverters.tableRows(
            ConverterConfig.of(className, ThriftProtocol.BINARY, MetadataColumns.NONE));
    deserializer = new TDeserializer(new TBinaryProtocol.Factory());
    events = new byte[SIZE][];
    for (int i = 0; i < SIZE; i++) {
      events[i] = random.serialize(i);
      // Both sides must give the same object: the corpus holds no payload the contract refuses.
      TBase<?, ?> bare = newEvent.get();
      deserializer.deserialize(bare, events[i]);
      if (!bare.equals(converter.decode(events[i]))) {
        throw new IllegalStateException("decode() and libthrift disagree on event " + i);
      }
    }
    System.out.printf(
        "%ncorpus: %d %s events, mean %.1f bytes%n", SIZE, struct, SampleCorpus.meanSize(events));
  }

  /** Bare libthrift: a new object and the generated reader, no checks. */
  @Benchmark
  public void libthrift(Blackhole blackhole) throws TException {
    for (byte[] payload : events) {
      TBase<?, ?> event = newEvent.get();
      deserializer.deserialize(event, payload);
      blackhole.consume(event);
    }
  }

  /** Ours: the same object under the decoding contract. */
  @Benchmark
  public void decode(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : events) {
      blackhole.consume(converter.decode(payload));
    }
  }

  /**
   * Thread CPU time of each side, measured in turns in one JVM, for a machine shared with other
   * work: each invocation decodes the corpus with libthrift, then with {@code decode}, and adds the
   * CPU time of each (time the thread was descheduled does not count, and both sides meet the same
   * conditions within milliseconds). Read {@code libthriftCpuNanos / decodeCpuNanos} per iteration
   * as the throughput ratio. Both readers' call sites see two protocol classes here, not one as in
   * the separate benchmarks, so both sides are slightly slower than alone.
   */
  @Benchmark
  @OperationsPerInvocation(2 * SIZE)
  public void alternating(CpuTime cpu, Blackhole blackhole)
      throws TException, ThriftDecodeException {
    long start = THREADS.getCurrentThreadCpuTime();
    for (byte[] payload : events) {
      TBase<?, ?> event = newEvent.get();
      deserializer.deserialize(event, payload);
      blackhole.consume(event);
    }
    long middle = THREADS.getCurrentThreadCpuTime();
    for (byte[] payload : events) {
      blackhole.consume(converter.decode(payload));
    }
    long end = THREADS.getCurrentThreadCpuTime();
    cpu.libthriftCpuNanos += middle - start;
    cpu.decodeCpuNanos += end - middle;
    cpu.events += SIZE;
  }

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** CPU nanoseconds per side and events per side, summed per iteration. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class CpuTime {
    public long libthriftCpuNanos;
    public long decodeCpuNanos;
    public long events;

    @Setup(Level.Iteration)
    public void clear() {
      libthriftCpuNanos = 0;
      decodeCpuNanos = 0;
      events = 0;
    }
  }
}
