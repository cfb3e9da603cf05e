package io.thriftbq.local.profile;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.thriftbq.local.profile.ComponentRules.Frame;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The classification rules of components.tsv, on synthetic stacks and thread names. */
public class ComponentRulesTest {
  private static final ComponentRules RULES = ComponentRules.standard();

  private static final String PROBE = "local mode's latency probe";
  private static final String OURS = "our code: unpack, route, decode, convert (io.thriftbq)";
  private static final String CONVERTERS =
      "BigQueryIO row to Storage Write proto (Beam's converters)";
  private static final String STORAGE_WRITE = "Storage Write client, BigQueryIO's write";
  private static final String ENGINE =
      "engine: Flink and Beam runner (operators, coders and serialization between them, timers,"
          + " bundles)";
  private static final String GRPC =
      "gRPC transport (Netty, HTTP/2, message parsing; Storage Write, and Pub/Sub once it uses"
          + " gRPC)";

  /** A stack from the sampled method outwards. */
  private static List<Frame> stack(String... classes) {
    List<Frame> frames = new ArrayList<>();
    for (String type : classes) {
      frames.add(new Frame(type, "m"));
    }
    return frames;
  }

  @Test
  public void theInnermostListedFrameDecidesAndGenericLibrariesGoToTheirCaller() {
    // protobuf parsing under the latency probe, itself under Storage Write and Flink: the probe's.
    List<Frame> probe =
        stack(
            "com.google.protobuf.CodedInputStream",
            "java.util.HashMap",
            "io.thriftbq.local.latency.EventTimeExtractor",
            "io.thriftbq.local.beamio.EmulatorBigQueryServices$PinnedAppendClient",
            "org.apache.flink.streaming.runtime.tasks.StreamTask");
    assertEquals(PROBE, RULES.classify(probe));
    assertEquals("io.thriftbq.local.latency.EventTimeExtractor.m", RULES.decidingFrame(probe));
    // The same protobuf frames under our converter are ours.
    assertEquals(
        OURS,
        RULES.classify(
            stack(
                "com.google.protobuf.CodedOutputStream",
                "io.thriftbq.ingest.convert.DirectProtoWriter",
                "org.apache.flink.streaming.runtime.tasks.StreamTask")));
  }

  @Test
  public void jsonLibrariesGoToWhoeverEncodesWithThem() {
    // Streaming inserts encode each row as JSON under BigQueryIO's insertAll: the BigQuery write's.
    assertEquals(
        STORAGE_WRITE,
        RULES.classify(
            stack(
                "com.google.gson.stream.JsonWriter",
                "com.google.api.client.json.JsonGenerator",
                "org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl$DatasetServiceImpl",
                "org.apache.flink.streaming.runtime.tasks.StreamTask")));
    // The same libraries under Beam's Pub/Sub JSON client are the source's.
    assertEquals(
        "source client",
        RULES.group(
            RULES.classify(
                stack(
                    "com.fasterxml.jackson.core.json.ReaderBasedJsonParser",
                    "com.google.api.client.json.JsonParser",
                    "org.apache.beam.sdk.io.gcp.pubsub.PubsubJsonClient"))));
  }

  @Test
  public void theLongestPrefixOfAFrameWins() {
    // Both "org.apache.beam.sdk.io.gcp.bigquery" (Storage Write) and the converter's full name
    // match; the longer one decides.
    assertEquals(
        CONVERTERS,
        RULES.classify(stack("org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto")));
    assertEquals(
        STORAGE_WRITE,
        RULES.classify(
            stack("org.apache.beam.sdk.io.gcp.bigquery.StorageApiWritesShardedRecords")));
    assertEquals(
        ENGINE,
        RULES.classify(stack("org.apache.flink.runtime.io.network.api.writer.RecordWriter")));
  }

  @Test
  public void aStackWithNoListedFrameIsUnlisted() {
    List<Frame> generic = stack("java.lang.String", "java.lang.Thread");
    assertEquals(ComponentRules.UNLISTED, RULES.classify(generic));
    assertEquals("java.lang.String.m", RULES.decidingFrame(generic));
    assertEquals(ComponentRules.UNLISTED, RULES.classify(List.of()));
    assertEquals(ComponentRules.OTHER_GROUP, RULES.group(ComponentRules.UNLISTED));
  }

  @Test
  public void threadsWithoutSamplesAreChargedByNameEvenWhenLinuxCutTheName() {
    assertEquals("JIT compilers", RULES.byThreadName("C1 CompilerThre"));
    assertEquals("JIT compilers", RULES.byThreadName("C2 CompilerThread0"));
    assertEquals("GC (G1 threads)", RULES.byThreadName("GC Thread#1"));
    assertEquals("GC (G1 threads)", RULES.byThreadName("G1 Young RemSet"));
    assertEquals(GRPC, RULES.byThreadName("grpc-default-worker-ELG-1-2"));
    assertEquals("JFR itself (the profiler's threads)", RULES.byThreadName("JFR Thread Samp"));
    assertEquals(ENGINE, RULES.byThreadName("Flink-Metric-Reporter"));
    assertEquals(ComponentRules.UNSAMPLED, RULES.byThreadName("pool-7-thread-1"));
    assertEquals(ComponentRules.UNSAMPLED, RULES.byThreadName(null));
    // A 15-character name only matches a longer prefix it starts; a shorter name must match whole.
    assertEquals(ComponentRules.UNSAMPLED, RULES.byThreadName("C1 Compiler"));
  }

  @Test
  public void everyComponentIsInADeclaredGroupAndTheGroupsAreFew() {
    List<String> groups = RULES.groups();
    assertThat(
        groups.size() >= 6 && groups.size() <= 8 ? "ok" : groups.toString(), containsString("ok"));
    for (String component : RULES.components()) {
      assertThat(component, groups, hasItem(RULES.group(component)));
    }
    assertEquals("source client", RULES.group("source: Kafka client"));
    assertEquals("BigQuery write and gRPC", RULES.group(GRPC));
    assertEquals(
        "engine",
        RULES.group("checkpointing (state and timer snapshots, checkpoint coordination)"));
    assertEquals("JIT compilers", RULES.group("JIT compilers"));
  }

  @Test
  public void malformedRulesAreRefused() {
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> ComponentRules.parse(List.of("a\tundeclared\tcom.example")))
            .getMessage(),
        containsString("not declared"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ComponentRules.parse(List.of("group\tg", "a\tcom.example")));
    ComponentRules tiny =
        ComponentRules.parse(
            List.of("# comment", "group\tg", "", "a\tg\tcom.example,thread:worker-", "b\tg\tcom"));
    assertEquals("a", tiny.classify(stack("com.example.Thing")));
    assertEquals("b", tiny.classify(stack("com.other.Thing")));
    assertEquals("a", tiny.byThreadName("worker-3"));
    assertEquals(List.of("g", ComponentRules.OTHER_GROUP), tiny.groups());
  }
}
