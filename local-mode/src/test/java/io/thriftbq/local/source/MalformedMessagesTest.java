package io.thriftbq.local.source;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.fail;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.DatagenOptions;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.route.UnroutableException;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.source.MalformedMessages.Kind;
import io.thriftbq.local.source.MalformedMessages.Malformed;
import io.thriftbq.schema.EventTypes;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Every malformed message local mode publishes fails in the ingestion pipeline's own router and
 * decoder at the stage the report expects, for events that serialize to a single byte too (a struct
 * with no fields, or none of its optional fields set), where cutting an event in half would leave
 * it whole.
 */
@RunWith(Parameterized.class)
public class MalformedMessagesTest {
  private static final int COUNT = 60;

  @Parameters(name = "{0} {1}")
  public static Collection<Object[]> layouts() {
    List<Object[]> out = new ArrayList<>();
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      out.add(new Object[] {"--thriftStruct=Heartbeat", protocol});
      out.add(new Object[] {"--thriftStruct=Sparse", protocol});
      out.add(new Object[] {"--thriftStructs=Heartbeat,Sparse,Filled", protocol});
      out.add(new Object[] {"--thriftUnion=AnySparse", protocol});
    }
    return out;
  }

  private final EventMix mix;
  private final ThriftProtocol protocol;

  public MalformedMessagesTest(String types, ThriftProtocol protocol) throws Exception {
    this.protocol = protocol;
    DatagenOptions options =
        PipelineOptionsFactory.fromArgs(
                "--thriftIdl=" + idl(), types, "--thriftProtocol=" + protocol.name())
            .as(DatagenOptions.class);
    this.mix = new EventMix(GeneratorConfig.fromOptions(options));
  }

  private static String idl() throws URISyntaxException {
    return Path.of(MalformedMessagesTest.class.getResource("/idl/sparse_events.thrift").toURI())
        .toString();
  }

  @Test
  public void everyMalformedMessageFailsAtItsExpectedStage() throws Exception {
    EventTypes types = mix.eventTypes();
    EventRouter router = types.isSingle() ? null : EventRouter.of(types, protocol);
    List<EventConverter<?>> converters = new ArrayList<>();
    for (EventTypes.EventType type : types.types()) {
      converters.add(
          EventConverters.tableRows(
              ConverterConfig.of(
                  type.source(), protocol, MetadataColumns.of(MetadataColumn.ATTRIBUTES))));
    }
    Map<Kind, Integer> checked = new EnumMap<>(Kind.class);
    for (Malformed bad : MalformedMessages.create(COUNT, 7, mix, protocol)) {
      byte[] payload = bad.message().data();
      Map<String, String> attributes = bad.message().attributes();
      if (bad.expectedStage() == Stage.UNPACK) {
        continue; // an envelope's failure: not the router's or the decoder's
      }
      if (bad.expectedStage() == Stage.ROUTE) {
        assertThrows(
            bad.kind() + " must not route",
            UnroutableException.class,
            () -> router.route(payload, attributes));
        checked.merge(bad.kind(), 1, Integer::sum);
        continue;
      }
      assertEquals(bad.kind() + " expected stage", Stage.DECODE, bad.expectedStage());
      int type = 0;
      int offset = 0;
      int length = payload.length;
      if (router != null) {
        try {
          type = router.route(payload, attributes);
        } catch (UnroutableException e) {
          fail(bad.kind() + " of " + bad.expectedStruct() + " must route: " + e.getMessage());
        }
        offset = router.eventOffset();
        length = router.eventLength();
        assertEquals(bad.kind() + " routes to its struct", bad.expectedStruct(), mix.name(type));
      }
      EventMetadata metadata = new EventMetadata(bad.id(), 0L, attributes, null);
      EventConverter<?> converter = converters.get(type);
      int from = offset;
      int bytes = length;
      assertThrows(
          bad.kind() + " of " + mix.name(type) + " must not decode: " + Arrays.toString(payload),
          ThriftDecodeException.class,
          () -> converter.fromBytes(payload, from, bytes, metadata));
      checked.merge(bad.kind(), 1, Integer::sum);
    }
    assertThat(checked.getOrDefault(Kind.TRUNCATED, 0), greaterThan(0));
    assertThat(checked.getOrDefault(Kind.CORRUPTED, 0), greaterThan(0));
  }

  @Test
  public void aStructOfOneByteIsCutInsideAFieldHeader() {
    byte[] stopOnly = {0};
    assertArrayEquals(new byte[] {0x08}, MalformedMessages.truncated(stopOnly));
    assertArrayEquals(new byte[] {1, 2}, MalformedMessages.truncated(new byte[] {1, 2, 3, 0}));
  }
}
