package io.thriftbq.benchmarks;

import io.thriftbq.change.ChangeSpec;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import java.util.ArrayList;
import java.util.List;
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
 * What change mode adds to PROTO_MESSAGE's hot path (issue 31's target: at least 0.9x the
 * throughput per core, allocation within 5%): the same corpus written plain, and written with the
 * change decided from the row's bytes and the pseudo-columns appended in the one-pass writer's
 * buffer (step 9: every event an upsert keyed on event_id; and with a sequence from the event_time
 * field, which adds a 16-digit sequence number per row). Each benchmark runs in its own fork.
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
public class ChangeModeBenchmark {
  private static final EventMetadata METADATA = EventMetadata.EMPTY;

  @State(Scope.Thread)
  public static class Corpus {
    byte[][] events;
    ConverterConfig config;
    EventSchemas schemas;

    @Setup
    public void setUp() throws Exception {
      events = SampleCorpus.serializedSampleEvents(ThriftProtocol.BINARY);
      config =
          ConverterConfig.of(Event.class.getName(), ThriftProtocol.BINARY, MetadataColumns.NONE);
      schemas = EventSchemas.of(Event.class.getName(), MetadataColumns.NONE);
    }

    @SuppressWarnings("unchecked")
    EventConverter<EncodedRow> changeConverter(String sequence) {
      List<String> problems = new ArrayList<>();
      ChangeRule rule =
          ChangeRule.of(
              ChangeSpec.parse("event_id", null, sequence, null, null, problems),
              "Event",
              schemas.tableSchema(),
              problems);
      if (!problems.isEmpty()) {
        throw new IllegalStateException(problems.toString());
      }
      return (EventConverter<EncodedRow>)
          Format.of(StorageFormat.PROTO_MESSAGE).newConverter(config, rule);
    }
  }

  @State(Scope.Thread)
  public static class Plain {
    EventConverter<EncodedRow> converter;

    @Setup
    public void setUp(Corpus corpus) {
      converter = EventConverters.encodedRows(corpus.config);
    }
  }

  @State(Scope.Thread)
  public static class Upserts {
    EventConverter<EncodedRow> converter;

    @Setup
    public void setUp(Corpus corpus) {
      converter = corpus.changeConverter(null);
    }
  }

  @State(Scope.Thread)
  public static class UpsertsWithSequence {
    EventConverter<EncodedRow> converter;

    @Setup
    public void setUp(Corpus corpus) {
      converter = corpus.changeConverter("field:event_time");
    }
  }

  @Benchmark
  public void protoMessage(Corpus corpus, Plain format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void protoMessageUpserts(Corpus corpus, Upserts format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void protoMessageUpsertsWithSequence(
      Corpus corpus, UpsertsWithSequence format, Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }
}
