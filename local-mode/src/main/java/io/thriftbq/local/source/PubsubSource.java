package io.thriftbq.local.source;

import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.PubsubEmulator;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A topic and its subscription on the stack's Pub/Sub emulator, created for one run. */
public final class PubsubSource implements EventSource {
  /** Ack deadline of the subscription: short, so a restarted pipeline gets unacked work back. */
  public static final int ACK_DEADLINE_SECONDS = 10;

  // The stack, not its emulator: a test may kill and restart the emulator mid-run.
  private final EmulatorStack stack;
  private final String topic;
  private final String subscription;

  private PubsubSource(EmulatorStack stack, String topic, String subscription) {
    this.stack = stack;
    this.topic = topic;
    this.subscription = subscription;
  }

  public static PubsubSource create(EmulatorStack stack, String prefix) throws IOException {
    return create(stack, prefix, false);
  }

  /** A new topic and subscription; {@code replayable} keeps acked messages for a later seek. */
  public static PubsubSource create(EmulatorStack stack, String prefix, boolean replayable)
      throws IOException {
    String topic = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    String subscription = topic + "-sub";
    stack.pubsub().createTopic(topic);
    stack.pubsub().createSubscription(subscription, topic, ACK_DEADLINE_SECONDS, replayable);
    return new PubsubSource(stack, topic, subscription);
  }

  public String topic() {
    return topic;
  }

  public String subscription() {
    return subscription;
  }

  @Override
  public List<String> ingestionArgs() {
    PubsubEmulator pubsub = stack.pubsub();
    return ingestionArgs(pubsub.rootUrl(), pubsub.subscriptionPath(subscription));
  }

  /** The flags that read {@code subscriptionPath} at {@code rootUrl}, with its metadata columns. */
  public static List<String> ingestionArgs(String rootUrl, String subscriptionPath) {
    return List.of(
        "--pubsubRootUrl=" + rootUrl,
        "--subscription=" + subscriptionPath,
        "--includeAttributes=true",
        "--includePubsubMessageId=true",
        "--includePublishTime=true");
  }

  @Override
  public String attributesColumn() {
    return MetadataColumn.ATTRIBUTES.columnName();
  }

  @Override
  public List<String> generatorArgs() {
    PubsubEmulator pubsub = stack.pubsub();
    return List.of(
        "--project=" + pubsub.project(),
        "--pubsubRootUrl=" + pubsub.rootUrl(),
        "--outputTopic=" + pubsub.topicPath(topic));
  }

  @Override
  public void publish(List<SourceMessage> messages) throws IOException {
    stack
        .pubsub()
        .publish(
            topic,
            messages.stream()
                .map(m -> new PubsubEmulator.RawMessage(m.data(), m.attributes()))
                .toList());
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put(SOURCE, SourceKind.PUBSUB.flagValue());
    names.put(TOPIC, stack.pubsub().topicPath(topic));
    names.put(SUBSCRIPTION, stack.pubsub().subscriptionPath(subscription));
    return names;
  }

  @Override
  public String toString() {
    return "Pub/Sub topic " + topic;
  }
}
