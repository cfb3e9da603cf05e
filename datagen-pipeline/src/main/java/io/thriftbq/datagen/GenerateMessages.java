package io.thriftbq.datagen;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.schema.EventTypes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * Generates the generator's messages, rate-limited: one plain message per event, or one {@link
 * EventEnvelope} per batch, each a payload with its attributes. Both sinks publish exactly these:
 * {@code PubsubIO.writeMessages()} as they are, {@link KafkaSink} as records (value, key and
 * headers from the same payload and attributes). Separate from the sinks so tests can assert on the
 * messages.
 *
 * <p><b>How the rate holds across workers.</b> The source is {@link GenerateSequence} with {@code
 * withRate}, counting batch numbers. Its unbounded source splits into N sub-sources, split {@code
 * i} emitting {@code i, i + N, i + 2N, ...}; each sub-source releases the next number only once
 * {@code elapsed / period * batchesPerPeriod} has reached it, so each emits 1/N of the rate and the
 * sum is the configured rate whatever N is (Dataflow picks N from the worker count at launch; more
 * workers later do not add splits). With {@code --maxEvents} the source reads exactly {@code
 * ceil(maxEvents / batchSize)} numbers and stops. The rate is a schedule counted from the moment
 * each split starts reading, not a cap: if workers fall behind (too few cores for the rate), a
 * split catches up by emitting as fast as it can until it is back on schedule.
 */
public final class GenerateMessages extends PTransform<PBegin, PCollection<PubsubMessage>> {
  public static final String METRICS_NAMESPACE = "datagen";

  private final GeneratorConfig config;
  private final RatePlan plan;
  private final MessageLimit limit;

  /** Messages for Pub/Sub (at most {@link DatagenPipeline#MAX_MESSAGE_BYTES} each). */
  public GenerateMessages(GeneratorConfig config, RatePlan plan) {
    this(config, plan, MessageLimit.PUBSUB);
  }

  /** Messages for a sink that takes at most {@code limit} bytes of payload per message. */
  public GenerateMessages(GeneratorConfig config, RatePlan plan, MessageLimit limit) {
    this.config = config;
    this.plan = plan;
    this.limit = limit;
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    GenerateSequence batches = GenerateSequence.from(0);
    if (plan.bounded()) {
      batches = batches.to(plan.numBatches());
    }
    if (plan.throttled()) {
      batches = batches.withRate(plan.batchesPerPeriod(), plan.period());
    }
    return input
        .apply("BatchNumbers", batches)
        .apply("GenerateAndSerialize", ParDo.of(new GenerateFn(config, plan, limit)))
        .setCoder(PubsubMessageWithAttributesCoder.of());
  }

  /**
   * Turns batch number b into a message with events b*batchSize..., all of the type {@link
   * EventMix#chooseType} picks for b (one type per message: the attribute naming it is per
   * message).
   */
  static final class GenerateFn extends DoFn<Long, PubsubMessage> {
    private final GeneratorConfig config;
    private final RatePlan plan;
    private final MessageLimit limit;

    private final Counter eventsGenerated = Metrics.counter(METRICS_NAMESPACE, "events_generated");
    private final Counter eventBytes = Metrics.counter(METRICS_NAMESPACE, "event_bytes");
    private final Counter messagesPublished =
        Metrics.counter(METRICS_NAMESPACE, "messages_published");
    private final Counter messageBytes = Metrics.counter(METRICS_NAMESPACE, "message_bytes");
    private final Distribution serializationNanos =
        Metrics.distribution(METRICS_NAMESPACE, "serialization_nanos");
    private final Distribution eventSize =
        Metrics.distribution(METRICS_NAMESPACE, "event_size_bytes");

    private transient EventMix mix;
    private transient Counter[] eventsByType;
    private transient EventEnvelope.Encoder encoder;

    GenerateFn(GeneratorConfig config, RatePlan plan, MessageLimit limit) {
      this.config = config;
      this.plan = plan;
      this.limit = limit;
    }

    @Setup
    public void setup() {
      mix = new EventMix(config);
      if (mix.size() > 1) {
        eventsByType = new Counter[mix.size()];
        for (int i = 0; i < eventsByType.length; i++) {
          eventsByType[i] = Metrics.counter(METRICS_NAMESPACE, eventsGeneratedOf(mix.type(i)));
        }
      }
      if (plan.enveloped()) {
        encoder = new EventEnvelope.Encoder();
      }
    }

    @ProcessElement
    public void processElement(@Element Long batch, OutputReceiver<PubsubMessage> out) {
      int count = plan.eventsInBatch(batch);
      if (count == 0) {
        // The source reads exactly numBatches() numbers; anything else is a bug worth failing on.
        throw new IllegalStateException(
            "batch " + batch + " is past the end of the run (" + plan.numBatches() + " batches)");
      }
      long first = plan.firstSequence(batch);
      int type = mix.chooseType(batch);
      RandomEventGenerator generator = mix.generator(type);
      long createdAtMs = System.currentTimeMillis();
      byte[] payload;
      Map<String, String> attributes;
      if (!plan.enveloped()) {
        int length = serializeOne(generator, first); // first: it may replace the buffer
        payload = Arrays.copyOf(generator.buffer(), length);
        attributes = new HashMap<>(8);
      } else {
        for (int i = 0; i < count; i++) {
          int length = serializeOne(generator, first + i);
          encoder.add(generator.buffer(), 0, length);
        }
        payload = encoder.finish();
        attributes = EventEnvelope.envelopeAttributes(count);
      }
      if (payload.length > limit.maxBytes()) {
        throw new IllegalStateException(
            "A message of " + payload.length + " bytes exceeds " + limit.describe());
      }
      attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(createdAtMs));
      attributes.put(EventAttributes.EVENT_ID, Long.toString(first));
      String attribute = mix.attribute();
      if (attribute != null) {
        attributes.put(attribute, mix.name(type));
      }
      if (eventsByType != null) {
        eventsByType[type].inc(count);
      }
      messagesPublished.inc();
      messageBytes.inc(payload.length);
      out.output(new PubsubMessage(payload, attributes));
    }

    private int serializeOne(RandomEventGenerator generator, long sequence) {
      long start = System.nanoTime();
      int length = generator.serializeToBuffer(sequence);
      serializationNanos.update(System.nanoTime() - start);
      eventsGenerated.inc();
      eventBytes.inc(length);
      eventSize.update(length);
      return length;
    }

    /** The per-type counter: events_generated_order for Order (the type's table name). */
    static String eventsGeneratedOf(EventTypes.EventType type) {
      return "events_generated_" + type.tableName();
    }

    @Teardown
    public void teardown() {
      if (encoder != null) {
        encoder.close();
      }
    }
  }
}
