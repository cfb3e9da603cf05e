package io.thriftbq.datagen;

import io.thriftbq.codec.EventAttributes;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * The messages of a {@link ChangeStream}, rate-limited like {@link GenerateMessages}: message
 * number {@code n} of the stream for each number the source emits (one change per message, no
 * envelopes), with {@code event_time_ms} set to when it was made. The stream is bounded ({@code
 * --maxEvents}), so that its expected state is complete.
 *
 * <p>Counters (namespace {@value GenerateMessages#METRICS_NAMESPACE}): {@code messages_published},
 * {@code events_generated} and one per kind of message, {@code changes_insert}, {@code
 * changes_update}, {@code changes_delete}, {@code changes_duplicate}, {@code changes_reorder}.
 */
public final class GenerateChangeMessages extends PTransform<PBegin, PCollection<PubsubMessage>> {
  private final GeneratorConfig config;
  private final ChangeStreamConfig change;
  private final RatePlan plan;
  private final MessageLimit limit;
  private final boolean keyRecords;

  /** Messages for Pub/Sub: see {@link #GenerateChangeMessages(GeneratorConfig, ...)}. */
  public GenerateChangeMessages(
      GeneratorConfig config, ChangeStreamConfig change, RatePlan plan, MessageLimit limit) {
    this(config, change, plan, limit, false);
  }

  /**
   * @param keyRecords whether to set {@link KafkaSink#RECORD_KEY_ATTRIBUTE} to the message's {@link
   *     ChangeStream.Message#partitionKey()} (for {@link KafkaSink}: the changes of one key go to
   *     one partition)
   */
  public GenerateChangeMessages(
      GeneratorConfig config,
      ChangeStreamConfig change,
      RatePlan plan,
      MessageLimit limit,
      boolean keyRecords) {
    if (!plan.bounded() || plan.batchSize() != 1) {
      throw new IllegalArgumentException(
          "a change stream needs --maxEvents and --maxRecordsPerBatch=1, not " + plan);
    }
    this.config = config;
    this.change = change;
    this.plan = plan;
    this.limit = limit;
    this.keyRecords = keyRecords;
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    GenerateSequence numbers = GenerateSequence.from(0).to(plan.maxEvents());
    if (plan.throttled()) {
      numbers = numbers.withRate(plan.batchesPerPeriod(), plan.period());
    }
    return input
        .apply("MessageNumbers", numbers)
        .apply("GenerateChanges", ParDo.of(new ChangeFn(config, change, limit, keyRecords)))
        .setCoder(PubsubMessageWithAttributesCoder.of());
  }

  static final class ChangeFn extends DoFn<Long, PubsubMessage> {
    private final GeneratorConfig config;
    private final ChangeStreamConfig change;
    private final MessageLimit limit;
    private final boolean keyRecords;

    private final Counter eventsGenerated =
        Metrics.counter(GenerateMessages.METRICS_NAMESPACE, "events_generated");
    private final Counter messagesPublished =
        Metrics.counter(GenerateMessages.METRICS_NAMESPACE, "messages_published");
    private final Counter messageBytes =
        Metrics.counter(GenerateMessages.METRICS_NAMESPACE, "message_bytes");
    private final Counter[] byKind = new Counter[ChangeStream.Kind.values().length];

    private transient ChangeStream stream;

    ChangeFn(
        GeneratorConfig config, ChangeStreamConfig change, MessageLimit limit, boolean keyRecords) {
      this.config = config;
      this.change = change;
      this.limit = limit;
      this.keyRecords = keyRecords;
      for (ChangeStream.Kind kind : ChangeStream.Kind.values()) {
        byKind[kind.ordinal()] =
            Metrics.counter(
                GenerateMessages.METRICS_NAMESPACE,
                "changes_" + kind.name().toLowerCase(Locale.ROOT));
      }
    }

    @Setup
    public void setup() {
      stream = new ChangeStream(config, change);
    }

    @ProcessElement
    public void processElement(@Element Long number, OutputReceiver<PubsubMessage> out) {
      ChangeStream.Message message = stream.messageAt(number);
      byte[] payload = message.payload();
      if (payload.length > limit.maxBytes()) {
        throw new IllegalStateException(
            "A message of " + payload.length + " bytes exceeds " + limit.describe());
      }
      Map<String, String> attributes = new HashMap<>(message.attributes());
      attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(System.currentTimeMillis()));
      if (keyRecords) {
        attributes.put(KafkaSink.RECORD_KEY_ATTRIBUTE, message.partitionKey());
      }
      byKind[message.change().kind().ordinal()].inc();
      eventsGenerated.inc();
      messagesPublished.inc();
      messageBytes.inc(payload.length);
      out.output(new PubsubMessage(payload, attributes));
    }
  }
}
