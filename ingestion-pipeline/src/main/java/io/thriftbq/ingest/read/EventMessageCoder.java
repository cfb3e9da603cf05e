package io.thriftbq.ingest.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;

/**
 * Coder of a message holding one event: payload, attributes and message id. Unlike Beam's
 * PubsubMessageWithAttributesAndMessageIdCoder it accepts a missing message id, which messages from
 * sources other than Pub/Sub (tests, the generator's transform, replays) may lack.
 */
public final class EventMessageCoder extends AtomicCoder<PubsubMessage> {
  private static final EventMessageCoder INSTANCE = new EventMessageCoder();
  private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
  private static final Coder<Map<String, String>> ATTRIBUTES =
      NullableCoder.of(MapCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()));
  private static final Coder<String> MESSAGE_ID = NullableCoder.of(StringUtf8Coder.of());

  private EventMessageCoder() {}

  public static EventMessageCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(PubsubMessage message, OutputStream out) throws IOException {
    PAYLOAD.encode(message.getPayload(), out);
    ATTRIBUTES.encode(message.getAttributeMap(), out);
    MESSAGE_ID.encode(message.getMessageId(), out);
  }

  @Override
  public PubsubMessage decode(InputStream in) throws IOException {
    byte[] payload = PAYLOAD.decode(in);
    Map<String, String> attributes = ATTRIBUTES.decode(in);
    String messageId = MESSAGE_ID.decode(in);
    return new PubsubMessage(payload, attributes, messageId);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    throw new NonDeterministicException(this, List.of("attribute maps have no encoding order"));
  }
}
