package io.thriftbq.benchmarks;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.StorageFormat;
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
 * <p>The corpus is {@value #PER_STRUCT} events of each of the shop IDL's Order, Refund and Click
 * (thrift-common/src/main/idl/shop_events.thrift), generated with the generator's defaults and a
 * fixed seed. {@code singleOrder}, {@code singleRefund} and {@code singleClick} run one struct's
 * converter on that struct's events alone, as a single-type job does: their mean is what the mix
 * would cost per event if routing and mixing cost nothing. {@code mixAttribute} runs the same
 * events shuffled together, each routed by its {@code thrift_struct} attribute with {@link
 * EventRouter} and converted by its struct's converter, as the decoder of a many-types job does;
 * {@code mixUnion} the same events wrapped in the {@code AnyEvent} union, routed by member (the
 * router copies the member's bytes out of the union). Each benchmark method runs in its own fork,
 * so a single-struct fork has only its one converter, as a single-type worker.
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
  static final int PER_STRUCT = 3_000;
  static final int MIX = 3 * PER_STRUCT;
  static final long SEED = 20261125L;
  static final List<String> STRUCTS = List.of("Order", "Refund", "Click");
  private static final EventMetadata METADATA = EventMetadata.EMPTY;

  /** The events of each struct, the shuffled mix, its attributes and its union-wrapped form. */
  @State(Scope.Thread)
  public static class Corpus {
    /** events[type][i]: the Thrift bytes of event i of STRUCTS.get(type). */
    byte[][][] events;

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
      events = new byte[STRUCTS.size()][PER_STRUCT][];
      StringBuilder sizes = new StringBuilder();
      for (int type = 0; type < STRUCTS.size(); type++) {
        RandomEventGenerator generator =
            new RandomEventGenerator(
                GeneratorConfig.builder()
                    .source(attributeTypes.types().get(type).source())
                    .seed(SEED + type)
                    .protocol(ThriftProtocol.BINARY)
                    .build());
        for (int i = 0; i < PER_STRUCT; i++) {
          events[type][i] = generator.serialize(i);
        }
        sizes
            .append(STRUCTS.get(type))
            .append(String.format(" %.1f B  ", SampleCorpus.meanSize(events[type])));
      }
      // The mix: every event of every struct once, in a fixed random order.
      List<int[]> order = new ArrayList<>();
      for (int type = 0; type < STRUCTS.size(); type++) {
        for (int i = 0; i < PER_STRUCT; i++) {
          order.add(new int[] {type, i});
        }
      }
      java.util.Collections.shuffle(order, new Random(SEED));
      mixType = new int[MIX];
      mixPayload = new byte[MIX][];
      mixAttributes = new Map[MIX];
      mixUnion = new byte[MIX][];
      long total = 0;
      for (int k = 0; k < MIX; k++) {
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
      System.out.printf(
          "%nmean event size: %smix %.1f B (%d events, %d per struct)%n",
          sizes, (double) total / MIX, MIX, PER_STRUCT);
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
      events = corpus.events[type];
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
    for (byte[] payload : single.events) {
      blackhole.consume(single.converter.fromBytes(payload, METADATA).toByteArray());
    }
  }

  // ---- the three-struct mix: route, then the routed struct's converter ------------------------

  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixAttribute(
      Corpus corpus, Converters converters, AttributeRouter router, Blackhole blackhole)
      throws ThriftDecodeException, UnroutableException {
    for (int k = 0; k < MIX; k++) {
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
  }

  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixUnion(
      Corpus corpus, Converters converters, UnionRouter router, Blackhole blackhole)
      throws ThriftDecodeException, UnroutableException {
    Map<String, String> none = Map.of();
    for (int k = 0; k < MIX; k++) {
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
  }

  // ---- controls: where the mix's extra cost comes from -----------------------------------------

  /** The mix without the router: each event's type known in advance. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void mixKnownType(Corpus corpus, Converters converters, Blackhole blackhole)
      throws ThriftDecodeException {
    for (int k = 0; k < MIX; k++) {
      blackhole.consume(
          converters
              .byType
              .get(corpus.mixType[k])
              .fromBytes(corpus.mixPayload[k], METADATA)
              .toByteArray());
    }
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
    for (int type = 0; type < STRUCTS.size(); type++) {
      Map<String, String> attributes =
          Map.of(EventTypes.DEFAULT_STRUCT_ATTRIBUTE, STRUCTS.get(type));
      for (byte[] payload : corpus.events[type]) {
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
  }

  /** The router alone on the union layout: its member copy, without conversion. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void routeUnionOnly(Corpus corpus, UnionRouter router, Blackhole blackhole)
      throws UnroutableException {
    Map<String, String> none = Map.of();
    for (int k = 0; k < MIX; k++) {
      blackhole.consume(router.router.route(corpus.mixUnion[k], none));
    }
  }

  /** The router alone on the attribute layout. */
  @Benchmark
  @OperationsPerInvocation(MIX)
  public void routeAttributeOnly(Corpus corpus, AttributeRouter router, Blackhole blackhole)
      throws UnroutableException {
    for (int k = 0; k < MIX; k++) {
      blackhole.consume(router.router.route(corpus.mixPayload[k], corpus.mixAttributes[k]));
    }
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
