package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.route.UnroutableException;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSchemaOptions;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
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
 * The many-types hot path against the single-struct one, PROTO_MESSAGE, whole path (Thrift bytes →
 * the bytes the Storage Write API sends), in nanoseconds per event.
 *
 * <p>The corpus is {@code perStruct} events (3,000 unless {@code -p perStruct=N}) of each of the
 * shop IDL's Order, Refund and Click (thrift-common/src/main/idl/shop_events.thrift), generated
 * with the generator's defaults and a fixed seed; each single-struct benchmark has as many bytes of
 * its struct's events as the mix holds (see {@link Corpus#singleEvents}). Every invocation converts
 * {@value #PER_STRUCT} events of one struct or {@value #MIX} of the mix, going on where the last
 * one stopped. {@code singleOrder}, {@code singleRefund} and {@code singleClick} run one struct's
 * converter on that struct's events alone, as a single-type job does: their mean is what the mix
 * would cost per event if routing and mixing cost nothing. {@code mixAttribute} runs the same
 * events shuffled together, each routed by its {@code thrift_struct} attribute with {@link
 * EventRouter} and converted by its struct's converter, as the decoder of a many-types job does;
 * {@code mixUnion} the same events wrapped in the {@code AnyEvent} union, routed by member (the
 * member is read in place). Each benchmark method runs in its own fork, so a single-struct fork has
 * only its one converter, as a single-type worker.
 *
 * <p>Run from the repository root (the IDL is read from there; or set {@code -Dthriftbq.shopIdl}).
 * See benchmarks/RESULTS.md.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ManyTypesBenchmark {
  /** Events converted per invocation of a single-struct benchmark. */
  static final int PER_STRUCT = 3_000;

  /** Events converted per invocation of a mix benchmark. */
  static final int MIX = 3 * PER_STRUCT;

  static final long SEED = 20261125L;
  static final List<String> STRUCTS = List.of("Order", "Refund", "Click");
  private static final EventMetadata METADATA = EventMetadata.EMPTY;

  /** The events of each struct, the shuffled mix, its attributes and its union-wrapped form. */
  @State(Scope.Thread)
  public static class Corpus {
    /** Events of each struct in the mix. */
    @Param({"3000"})
    int perStruct;

    /** events[type][i]: the Thrift bytes of event i of STRUCTS.get(type), the mix's share. */
    byte[][][] events;

    /**
     * singleEvents[type]: that struct's events for its single-struct benchmark, the mix's share and
     * more, up to as many bytes as the whole mix. A corpus that fits in the core's L2 cache
     * converts faster than one that does not (on this machine, 1 MiB L2: 3,000 Clicks take 185 ns
     * each, 20,000 take 271), so each single-struct corpus is as large as the mix's, or the
     * comparison would measure cache sizes.
     */
    byte[][][] singleEvents;

    int[] mixType;
    byte[][] mixPayload;
    Map<String, String>[] mixAttributes;
    byte[][] mixUnion;
    EventTypes attributeTypes;
    EventTypes unionTypes;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() throws Exception {
      String idl = shopIdl();
      attributeTypes = types("--thriftIdl=" + idl, "--thriftStructs=" + String.join(",", STRUCTS));
      unionTypes = types("--thriftIdl=" + idl, "--thriftUnion=AnyEvent");
      events = new byte[STRUCTS.size()][perStruct][];
      List<RandomEventGenerator> generators = new ArrayList<>();
      StringBuilder sizes = new StringBuilder();
      for (int type = 0; type < STRUCTS.size(); type++) {
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder()
                    .source(attributeTypes.types().get(type).source())
                    .seed(SEED + type)
                    .protocol(ThriftProtocol.BINARY)
                    .build());
        generators.add(generator);
        for (int i = 0; i < perStruct; i++) {
          events[type][i] = generator.serialize(i);
        }
        sizes
            .append(STRUCTS.get(type))
            .append(String.format(" %.1f B  ", SampleCorpus.meanSize(events[type])));
      }
      // The mix: every event of every struct once, in a fixed random order.
      List<int[]> order = new ArrayList<>();
      for (int type = 0; type < STRUCTS.size(); type++) {
        for (int i = 0; i < perStruct; i++) {
          order.add(new int[] {type, i});
        }
      }
      java.util.Collections.shuffle(order, new Random(SEED));
      int mixSize = STRUCTS.size() * perStruct;
      mixType = new int[mixSize];
      mixPayload = new byte[mixSize][];
      mixAttributes = new Map[mixSize];
      mixUnion = new byte[mixSize][];
      long total = 0;
      for (int k = 0; k < mixSize; k++) {
        int type = order.get(k)[0];
        mixType[k] = type;
        mixPayload[k] = events[type][order.get(k)[1]];
        Map<String, String> attributes = new HashMap<>();
        attributes.put(EventTypes.DEFAULT_STRUCT_ATTRIBUTE, STRUCTS.get(type));
        attributes.put("event_time_ms", Long.toString(1_764_000_000_000L + k));
        mixAttributes[k] = attributes;
        mixUnion[k] = wrap(unionTypes.types().get(type).unionFieldId(), mixPayload[k]);
        total += mixPayload[k].length;
      }
      singleEvents = new byte[STRUCTS.size()][][];
      StringBuilder singleSizes = new StringBuilder();
      for (int type = 0; type < STRUCTS.size(); type++) {
        List<byte[]> single = new ArrayList<>(List.of(events[type]));
        long bytes = 0;
        for (byte[] event : single) {
          bytes += event.length;
        }
        for (int i = perStruct; bytes < total; i++) {
          byte[] event = generators.get(type).serialize(i);
          single.add(event);
          bytes += event.length;
        }
        singleEvents[type] = single.toArray(new byte[0][]);
        singleSizes.append(String.format(" %s %d", STRUCTS.get(type), single.size()));
      }
      System.out.printf(
          "%nmean event size: %smix %.1f B (%d events, %d per struct, %d bytes);"
              + " single-struct corpora of as many bytes:%s events%n",
          sizes, (double) total / mixSize, mixSize, perStruct, total, singleSizes);
    }

    /** Where the mix benchmarks go on from: each invocation takes the next {@value #MIX} events. */
    int mixCursor;

    /** Where {@code mixSorted} goes on from in each struct's events. */
    int sortedCursor;

    /** The index after {@code k} in the mix, wrapping at its end. */
    int nextInMix(int k) {
      return k + 1 == mixType.length ? 0 : k + 1;
    }
  }

  /** The three converters, built once as the decoder builds them (PROTO_MESSAGE). */
  @State(Scope.Thread)
  public static class Converters {
    List<EventConverter<EncodedRow>> byType;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp(Corpus corpus) {
      byType = new ArrayList<>();
      for (EventTypes.EventType type : corpus.attributeTypes.types()) {
        byType.add(
            (EventConverter<EncodedRow>)
                Format.of(StorageFormat.PROTO_MESSAGE)
                    .newConverter(
                        io.thriftbq.ingest.convert.ConverterConfig.of(
                            type.source(), ThriftProtocol.BINARY, MetadataColumns.NONE)));
      }
    }
  }

  /** A single-type job's one converter: only the struct it measures is built in its fork. */
  public abstract static class Single {
    EventConverter<EncodedRow> converter;
    byte[][] events;
    int cursor;

    @SuppressWarnings("unchecked")
    void setUp(Corpus corpus, int type) {
      converter =
          (EventConverter<EncodedRow>)
              Format.of(StorageFormat.PROTO_MESSAGE)
                  .newConverter(
                      io.thriftbq.ingest.convert.ConverterConfig.of(
                          corpus.attributeTypes.types().get(type).source(),
                          ThriftProtocol.BINARY,
                          MetadataColumns.NONE));
      events = corpus.singleEvents[type];
    }
  }

  @State(Scope.Thread)
  public static class SingleOrder extends Single {
    @Setup
    public void setUp(Corpus corpus) {
      setUp(corpus, 0);
    }
  }

  @State(Scope.Thread)
  public static class SingleRefund extends Single {
    @Setup
    public void setUp(Corpus corpus) {
      setUp(corpus, 1);
    }
  }

  @State(Scope.Thread)
  public static class SingleClick extends Single {
    @Setup
    public void setUp(Corpus corpus) {
      setUp(corpus, 2);
    }
  }

  @State(Scope.Thread)
  public static class AttributeRouter {
    EventRouter router;

    @Setup
    public void setUp(Corpus corpus) {
      router = EventRouter.of(corpus.attributeTypes, ThriftProtocol.BINARY);
    }
  }

  @State(Scope.Thread)
  public static class UnionRouter {
    EventRouter router;

    @Setup
    public void setUp(Corpus corpus) {
      router = EventRouter.of(corpus.unionTypes, ThriftProtocol.BINARY);
    }
  }

  // ---- one struct alone: the single-type job's path --------------------------------------------

  @Benchmark
  @OperationsPerInvocation(PER_STRUCT)
  public void singleOrder(SingleOrder single, Blackhole blackhole) throws ThriftDecodeException {
    convertAll(single, blackhole);
  }

  @Benchmark
  @OperationsPerInvocation(PER_STRUCT)
  public void singleRefund(SingleRefund single, Blackhole blackhole) throws ThriftDecodeException {
    convertAll(single, blackhole);
  }

  @Benchmark
  @OperationsPerInvocation(PER_STRUCT)
  public void singleClick(SingleClick single, Blackhole blackhole) throws ThriftDecodeException {
    convertAll(single, blackhole);
  }

  private static void convertAll(Single single, Blackhole blackhole) throws ThriftDecodeException {
    byte[][] events = single.events;
    int i = single.cursor;
    for (int n = 0; n < PER_STRUCT; n++) {
      blackhole.consume(single.converter.fromBytes(events[i], METADATA).toByteArray());
      i = i + 1 == events.length ? 0 : i + 1;
    }
    single.cursor = i;
  }

  // ---- the three-struct mix: route, then the routed struct's converter ------------------------

  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixAttribute(
      Corpus corpus, Converters converters, AttributeRouter router, Blackhole blackhole)
      throws ThriftDecodeException, UnroutableException {
    int k = corpus.mixCursor;
    for (int n = 0; n < MIX; n++, k = corpus.nextInMix(k)) {
      int type = router.router.route(corpus.mixPayload[k], corpus.mixAttributes[k]);
      blackhole.consume(
          converters
              .byType
              .get(type)
              .fromBytes(
                  corpus.mixPayload[k],
                  router.router.eventOffset(),
                  router.router.eventLength(),
                  METADATA)
              .toByteArray());
    }
    corpus.mixCursor = k;
  }

  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixUnion(
      Corpus corpus, Converters converters, UnionRouter router, Blackhole blackhole)
      throws ThriftDecodeException, UnroutableException {
    Map<String, String> none = Map.of();
    int k = corpus.mixCursor;
    for (int n = 0; n < MIX; n++, k = corpus.nextInMix(k)) {
      int type = router.router.route(corpus.mixUnion[k], none);
      blackhole.consume(
          converters
              .byType
              .get(type)
              .fromBytes(
                  corpus.mixUnion[k],
                  router.router.eventOffset(),
                  router.router.eventLength(),
                  METADATA)
              .toByteArray());
    }
    corpus.mixCursor = k;
  }

  // ---- controls: where the mix's extra cost comes from -----------------------------------------

  /** The mix without the router: each event's type known in advance. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixKnownType(Corpus corpus, Converters converters, Blackhole blackhole)
      throws ThriftDecodeException {
    int k = corpus.mixCursor;
    for (int n = 0; n < MIX; n++, k = corpus.nextInMix(k)) {
      blackhole.consume(
          converters
              .byType
              .get(corpus.mixType[k])
              .fromBytes(corpus.mixPayload[k], METADATA)
              .toByteArray());
    }
    corpus.mixCursor = k;
  }

  /**
   * The three structs in one JVM, routed, but in runs of one struct (all Orders, then all Refunds,
   * then all Clicks) instead of shuffled.
   */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixSorted(
      Corpus corpus, Converters converters, AttributeRouter router, Blackhole blackhole)
      throws ThriftDecodeException, UnroutableException {
    int first = corpus.sortedCursor;
    for (int type = 0; type < STRUCTS.size(); type++) {
      Map<String, String> attributes =
          Map.of(EventTypes.DEFAULT_STRUCT_ATTRIBUTE, STRUCTS.get(type));
      byte[][] events = corpus.events[type];
      for (int n = 0, i = first; n < PER_STRUCT; n++, i = i + 1 == events.length ? 0 : i + 1) {
        byte[] payload = events[i];
        int routed = router.router.route(payload, attributes);
        blackhole.consume(
            converters
                .byType
                .get(routed)
                .fromBytes(
                    payload, router.router.eventOffset(), router.router.eventLength(), METADATA)
                .toByteArray());
      }
    }
    corpus.sortedCursor = (first + PER_STRUCT) % corpus.perStruct;
  }

  /** The router alone on the union layout, without conversion. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void routeUnionOnly(Corpus corpus, UnionRouter router, Blackhole blackhole)
      throws UnroutableException {
    Map<String, String> none = Map.of();
    int k = corpus.mixCursor;
    for (int n = 0; n < MIX; n++, k = corpus.nextInMix(k)) {
      blackhole.consume(router.router.route(corpus.mixUnion[k], none));
    }
    corpus.mixCursor = k;
  }

  /** The router alone on the attribute layout. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void routeAttributeOnly(Corpus corpus, AttributeRouter router, Blackhole blackhole)
      throws UnroutableException {
    int k = corpus.mixCursor;
    for (int n = 0; n < MIX; n++, k = corpus.nextInMix(k)) {
      blackhole.consume(router.router.route(corpus.mixPayload[k], corpus.mixAttributes[k]));
    }
    corpus.mixCursor = k;
  }

  private static EventTypes types(String... args) {
    ThriftSchemaOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(ThriftSchemaOptions.class);
    return EventTypes.choose(options, "--thriftClassName", null, false);
  }

  /** {@code body} as the member {@code memberId} of a union, binary protocol. */
  static byte[] wrap(short memberId, byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 4);
    out.write(12); // struct
    out.write(memberId >> 8);
    out.write(memberId);
    out.writeBytes(body);
    out.write(0); // the union's field stop
    return out.toByteArray();
  }

  static String shopIdl() {
    String given = System.getProperty("thriftbq.shopIdl");
    if (given != null) {
      return given;
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      Path idl = dir.resolve("thrift-common/src/main/idl/shop_events.thrift");
      if (Files.isRegularFile(idl)) {
        return idl.toString();
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(
        "shop_events.thrift not found above the working directory: run from the repository root"
            + " or set -Dthriftbq.shopIdl=PATH");
  }
}
