package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
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
        EventConverters.create(
            ConverterConfig.of(className, ThriftProtocol.BINARY, MetadataColumns.NONE),
            StorageFormat.TABLE_ROW);
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
}
