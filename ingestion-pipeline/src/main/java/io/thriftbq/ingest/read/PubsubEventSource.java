package io.thriftbq.ingest.read;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import java.time.Duration;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubJsonClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Reads Pub/Sub messages with their attributes and message id, from a subscription or a topic, as
 * {@link EventMessage}s. Elements are stamped with the publish time, which later steps use as the
 * publish-time metadata. Where Beam's own Pub/Sub source runs (Flink, the direct runner), its
 * client rides out a Pub/Sub outage instead of failing the job ({@link
 * OutageTolerantPubsubClient}); Dataflow replaces the source with its own, which does the same. The
 * client is Beam's JSON one unless {@link #withClientFactory} names another (local mode reads its
 * local server over plaintext gRPC).
 */
public final class PubsubEventSource extends PTransform<PBegin, PCollection<EventMessage>> {
  private final @Nullable String subscription;
  private final @Nullable String topic;
  private final PubsubClient.PubsubClientFactory clientFactory;
  private final @Nullable String idAttribute;
  private final Duration emptyPullPause;

  private PubsubEventSource(
      @Nullable String subscription,
      @Nullable String topic,
      PubsubClient.PubsubClientFactory clientFactory,
      @Nullable String idAttribute,
      Duration emptyPullPause) {
    this.subscription = subscription;
    this.topic = topic;
    this.clientFactory = clientFactory;
    this.idAttribute = idAttribute;
    this.emptyPullPause = emptyPullPause;
  }

  public static PubsubEventSource fromSubscription(String subscription) {
    return new PubsubEventSource(subscription, null, PubsubJsonClient.FACTORY, null, Duration.ZERO);
  }

  public static PubsubEventSource fromTopic(String topic) {
    return new PubsubEventSource(null, topic, PubsubJsonClient.FACTORY, null, Duration.ZERO);
  }

  /**
   * This source de-duplicating by the publisher id in {@code attribute} ({@code --idAttribute},
   * PubsubIO's {@code withIdAttribute}), where the runner honours record ids.
   */
  public PubsubEventSource withIdAttribute(@Nullable String attribute) {
    return new PubsubEventSource(subscription, topic, clientFactory, attribute, emptyPullPause);
  }

  /** The attribute holding the publisher id, or null. */
  public @Nullable String idAttribute() {
    return idAttribute;
  }

  /**
   * This source reading through clients of {@code factory} instead of Beam's JSON client (still
   * wrapped to ride out an outage). Only where Beam's own Pub/Sub source runs: Dataflow uses its
   * native source whatever the client.
   */
  public PubsubEventSource withClientFactory(PubsubClient.PubsubClientFactory factory) {
    return new PubsubEventSource(subscription, topic, factory, idAttribute, emptyPullPause);
  }

  /**
   * This source pausing its pulls for {@code pause} after a pull that found nothing (Beam's source
   * and Flink's loop otherwise ask again about every 50 ms): fewer, fuller pulls, for up to {@code
   * pause} more latency after a quiet spell. Only where Beam's own Pub/Sub source runs; local mode
   * sets it for its local Pub/Sub server, whose CPU goes mostly to answering pulls.
   */
  public PubsubEventSource withEmptyPullPause(Duration pause) {
    checkArgument(!pause.isNegative(), "The empty-pull pause cannot be negative: %s", pause);
    return new PubsubEventSource(subscription, topic, clientFactory, idAttribute, pause);
  }

  /** How long pulls pause after an empty one; zero for Beam's own pace. */
  public Duration emptyPullPause() {
    return emptyPullPause;
  }

  /** The factory of the clients Beam's source reads with (before the outage wrapper). */
  public PubsubClient.PubsubClientFactory clientFactory() {
    return clientFactory;
  }

  @Override
  public PCollection<EventMessage> expand(PBegin begin) {
    checkArgument(
        isSet(subscription) != isSet(topic), "Set exactly one of a subscription and a topic");
    PubsubIO.Read<PubsubMessage> read =
        PubsubIO.readMessagesWithAttributesAndMessageId()
            .withClientFactory(
                new OutageTolerantPubsubClient.Factory(clientFactory, emptyPullPause.toMillis()));
    read = isSet(subscription) ? read.fromSubscription(subscription) : read.fromTopic(topic);
    if (isSet(idAttribute)) {
      read = read.withIdAttribute(idAttribute);
    }
    return begin
        .apply(isSet(subscription) ? "ReadSubscription" : "ReadTopic", read)
        .apply("ToEventMessages", ParDo.of(new ToEventMessage()))
        .setCoder(EventMessageCoder.of());
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }

  /** Pub/Sub messages to the pipeline's carrier; fused with the read, it costs no shuffle. */
  public static final class ToEventMessage extends DoFn<PubsubMessage, EventMessage> {
    @ProcessElement
    public void process(@Element PubsubMessage message, OutputReceiver<EventMessage> out) {
      out.output(EventMessage.fromPubsub(message));
    }
  }
}
