package io.thriftbq.datagen;

import static io.thriftbq.datagen.EventMixTest.config;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.EnvelopeException;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.schema.EventTypes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** The generator pipeline with several event types: the attribute, the union, envelopes. */
@RunWith(JUnit4.class)
public class GenerateManyTypesTest {
  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Test
  public void eachPlainMessageNamesItsStructInTheAttribute() {
    GeneratorConfig mixed = config("--thriftStructs=Order:5,Refund:1,Click:94", "--seed=3");
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(mixed, RatePlan.of(0, 1, 400)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              EventMix mix = new EventMix(mixed);
              Map<String, Integer> byName = new HashMap<>();
              int count = 0;
              for (PubsubMessage message : all) {
                long id = Long.parseLong(message.getAttribute(EventAttributes.EVENT_ID));
                String named = message.getAttribute(EventTypes.DEFAULT_STRUCT_ATTRIBUTE);
                assertEquals("event " + id, mix.type(mix.chooseType(id)).name(), named);
                assertArrayEquals("event " + id, mix.serialize(id), message.getPayload());
                byName.merge(named, 1, Integer::sum);
                count++;
              }
              assertEquals(400, count);
              assertTrue(byName.toString(), byName.get("Click") > byName.get("Order"));
              return null;
            });
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    long order = GenerateMessagesTest.counter(result, "events_generated_order");
    long refund = GenerateMessagesTest.counter(result, "events_generated_refund");
    long click = GenerateMessagesTest.counter(result, "events_generated_click");
    assertEquals(400, order + refund + click);
    assertTrue("Click is 94% of the mix: " + click, click > 340);
    assertEquals(400, GenerateMessagesTest.counter(result, "events_generated"));
  }

  @Test
  public void anEnvelopeHoldsEventsOfOneStructNamedByTheChosenAttribute() {
    GeneratorConfig mixed =
        config("--thriftStructs=Order,Refund,Click", "--structAttribute=event_type");
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(mixed, RatePlan.of(0, 10, 95)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              EventMix mix = new EventMix(mixed);
              int events = 0;
              for (PubsubMessage message : all) {
                Map<String, String> attributes = message.getAttributeMap();
                assertTrue(EventEnvelope.isEnvelope(attributes));
                assertFalse(attributes.containsKey(EventTypes.DEFAULT_STRUCT_ATTRIBUTE));
                long first = Long.parseLong(attributes.get(EventAttributes.EVENT_ID));
                int type = mix.chooseType(first / 10); // the batch number
                assertEquals(mix.type(type).name(), attributes.get("event_type"));
                List<byte[]> unpacked = unpack(message);
                for (int i = 0; i < unpacked.size(); i++) {
                  assertArrayEquals(mix.generator(type).serialize(first + i), unpacked.get(i));
                }
                events += unpacked.size();
              }
              assertEquals(95, events);
              return null;
            });
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void unionMessagesCarryNoStructAttribute() {
    GeneratorConfig union = config("--thriftUnion=AnyEvent", "--seed=9");
    PCollection<PubsubMessage> messages =
        pipeline.apply(new GenerateMessages(union, RatePlan.of(0, 1, 60)));
    PAssert.that(messages)
        .satisfies(
            all -> {
              EventMix mix = new EventMix(union);
              for (PubsubMessage message : all) {
                long id = Long.parseLong(message.getAttribute(EventAttributes.EVENT_ID));
                // The set member names the type, as in a real union estate: no attribute.
                assertEquals(
                    Set.of(EventAttributes.EVENT_ID, EventAttributes.EVENT_TIME_MS),
                    message.getAttributeMap().keySet());
                assertArrayEquals("event " + id, mix.serialize(id), message.getPayload());
              }
              return null;
            });
    pipeline.run().waitUntilFinish();
  }

  private static List<byte[]> unpack(PubsubMessage message) {
    try {
      return EventEnvelope.unpack(
          message.getPayload(),
          message.getAttributeMap(),
          100,
          EventEnvelope.DEFAULT_MAX_TOTAL_BYTES);
    } catch (EnvelopeException e) {
      throw new AssertionError(e);
    }
  }
}
