package io.thriftbq.datagen;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.EnvelopeException;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.codec.ThriftProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class GenerateMessagesTest {
  private static final GeneratorConfig CONFIG = GeneratorConfig.builder().seed(7).build();

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Test
  public void plainMessagesCarryOneEventAndItsAttributes() {
    long before = System.currentTimeMillis();
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(CONFIG, RatePlan.of(0, 1, 25)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              Map<Long, byte[]> events = collect(all, 1);
              assertEquals(25, events.size());
              assertEquals(List.of(0L, 24L), List.of(first(events), last(events)));
              RandomEventGenerator generator = new RandomEventGenerator(CONFIG);
              events.forEach((id, bytes) -> assertArrayEquals(generator.serialize(id), bytes));
              for (PubsubMessage message : all) {
                assertFalse(EventEnvelope.isEnvelope(message.getAttributeMap()));
                long created = EventAttributes.eventTimeMillis(message.getAttributeMap());
                assertTrue(created >= before && created <= System.currentTimeMillis());
              }
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    assertEquals(25, counter(result, "events_generated"));
    assertEquals(25, counter(result, "messages_published"));
    DistributionResult sizes = distribution(result, "event_size_bytes");
    assertEquals(25, sizes.getCount());
    assertEquals(counter(result, "event_bytes"), sizes.getSum());
    assertEquals(25, distribution(result, "serialization_nanos").getCount());
  }

  @Test
  public void envelopesSplitMaxEventsThatIsNotAMultipleOfTheBatch() {
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(CONFIG, RatePlan.of(0, 5, 23)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              List<Integer> counts = new ArrayList<>();
              all.forEach(m -> counts.add(Integer.parseInt(m.getAttribute("record_count"))));
              counts.sort(null);
              assertEquals(List.of(3, 5, 5, 5, 5), counts);
              Map<Long, byte[]> events = collect(all, 5);
              assertEquals(23, events.size());
              assertEquals(List.of(0L, 22L), List.of(first(events), last(events)));
              RandomEventGenerator generator = new RandomEventGenerator(CONFIG);
              events.forEach((id, bytes) -> assertArrayEquals(generator.serialize(id), bytes));
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    assertEquals(23, counter(result, "events_generated"));
    assertEquals(5, counter(result, "messages_published"));
    assertThat(counter(result, "message_bytes"), greaterThan(0L));
    // Text-like events compress: envelopes are smaller than the events they carry.
    assertThat(counter(result, "message_bytes"), lessThanOrEqualTo(counter(result, "event_bytes")));
  }

  @Test
  public void rateBelowTheBatchSizeStillDeliversEveryEvent() {
    // 40 events/s in batches of 100: one message every 2.5 s; the second holds the last 20.
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(CONFIG, RatePlan.of(40, 100, 120)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              assertEquals(120, collect(all, 100).size());
              return null;
            });
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void rateOfOneEventPerSecondWithCompactProtocol() {
    GeneratorConfig compact = CONFIG.toBuilder().protocol(ThriftProtocol.COMPACT).build();
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(compact, RatePlan.of(1, 1, 2)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              Map<Long, byte[]> events = collect(all, 1);
              assertEquals(2, events.size());
              assertArrayEquals(new RandomEventGenerator(compact).serialize(1), events.get(1L));
              return null;
            });
    pipeline.run().waitUntilFinish();
  }

  /** Unpacks every message into id -> event bytes, checking ids are unique. */
  static Map<Long, byte[]> collect(Iterable<PubsubMessage> messages, int maxPerMessage) {
    Map<Long, byte[]> events = new TreeMap<>();
    for (PubsubMessage message : messages) {
      Map<String, String> attributes = message.getAttributeMap();
      assertNotNull(EventAttributes.eventTimeMillis(attributes));
      List<byte[]> unpacked;
      try {
        unpacked =
            EventEnvelope.unpack(
                message.getPayload(),
                attributes,
                maxPerMessage,
                EventEnvelope.DEFAULT_MAX_TOTAL_BYTES);
      } catch (EnvelopeException e) {
        throw new AssertionError(e);
      }
      for (int i = 0; i < unpacked.size(); i++) {
        long id = Long.parseLong(EventAttributes.eventIdAt(attributes, i));
        assertEquals("duplicate id " + id, null, events.put(id, unpacked.get(i)));
      }
    }
    return events;
  }

  private static long first(Map<Long, byte[]> events) {
    return ((TreeMap<Long, byte[]>) events).firstKey();
  }

  private static long last(Map<Long, byte[]> events) {
    return ((TreeMap<Long, byte[]>) events).lastKey();
  }

  static long counter(PipelineResult result, String name) {
    MetricQueryResults metrics = query(result, name);
    long total = 0;
    for (MetricResult<Long> counter : metrics.getCounters()) {
      total += counter.getAttempted();
    }
    return total;
  }

  private static DistributionResult distribution(PipelineResult result, String name) {
    for (MetricResult<DistributionResult> d : query(result, name).getDistributions()) {
      return d.getAttempted();
    }
    throw new AssertionError("no distribution " + name);
  }

  private static MetricQueryResults query(PipelineResult result, String name) {
    return result
        .metrics()
        .queryMetrics(
            MetricsFilter.builder()
                .addNameFilter(MetricNameFilter.named(GenerateMessages.METRICS_NAMESPACE, name))
                .build());
  }
}
