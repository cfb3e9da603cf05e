package io.thriftbq.ingest.read;

import io.thriftbq.ingest.origin.KafkaOrigin;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One message as the pipeline carries it after the read, whatever the source: its bytes, its
 * attributes (Pub/Sub attributes or Kafka headers: the envelope markers, the event id and time and
 * the struct name come from them on either source) and where it came from. The element's timestamp
 * is the Pub/Sub publish time or the Kafka record's timestamp.
 *
 * @param payload the message body, never null
 * @param attributes Pub/Sub attributes or Kafka headers, never null
 * @param messageId the Pub/Sub message id (for an envelope member: the envelope's, plus {@code
 *     #index}), or null
 * @param kafka the Kafka record (topic, partition, offset, key), or null for Pub/Sub
 */
@DefaultCoder(EventMessageCoder.class)
public record EventMessage(
    byte[] payload,
    Map<String, String> attributes,
    @Nullable String messageId,
    @Nullable KafkaOrigin kafka) {

  private static final byte[] EMPTY = new byte[0];

  public EventMessage {
    payload = payload == null ? EMPTY : payload;
    attributes = attributes == null ? Map.of() : attributes;
  }

  /** The message Pub/Sub delivered. */
  public static EventMessage fromPubsub(PubsubMessage message) {
    return new EventMessage(
        message.getPayload(), message.getAttributeMap(), message.getMessageId(), null);
  }

  /** This message's origin, body replaced: an event unpacked from this envelope. */
  EventMessage withEvent(byte[] event, Map<String, String> eventAttributes, int index) {
    return new EventMessage(
        event, eventAttributes, messageId == null ? null : messageId + "#" + index, kafka);
  }

  // A record compares arrays by identity; messages are values (PAssert compares them).
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof EventMessage that
        && Arrays.equals(payload, that.payload)
        && attributes.equals(that.attributes)
        && Objects.equals(messageId, that.messageId)
        && Objects.equals(kafka, that.kafka);
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(payload), attributes, messageId, kafka);
  }

  @Override
  public String toString() {
    return "EventMessage{"
        + payload.length
        + " bytes, attributes="
        + attributes
        + (messageId == null ? "" : ", messageId=" + messageId)
        + (kafka == null ? "" : ", kafka=" + kafka.position())
        + "}";
  }
}
