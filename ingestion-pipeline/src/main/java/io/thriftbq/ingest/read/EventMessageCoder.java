package io.thriftbq.ingest.read;

import io.thriftbq.ingest.origin.KafkaOrigin;
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

/** Coder of an {@link EventMessage}: payload, attributes, message id and Kafka origin. */
public final class EventMessageCoder extends AtomicCoder<EventMessage> {
  private static final EventMessageCoder INSTANCE = new EventMessageCoder();
  private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
  private static final Coder<Map<String, String>> ATTRIBUTES =
      MapCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of());
  private static final Coder<String> MESSAGE_ID = NullableCoder.of(StringUtf8Coder.of());

  private EventMessageCoder() {}

  public static EventMessageCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EventMessage message, OutputStream out) throws IOException {
    PAYLOAD.encode(message.payload(), out);
    ATTRIBUTES.encode(message.attributes(), out);
    MESSAGE_ID.encode(message.messageId(), out);
    KafkaOrigin.encode(message.kafka(), out);
  }

  @Override
  public EventMessage decode(InputStream in) throws IOException {
    byte[] payload = PAYLOAD.decode(in);
    Map<String, String> attributes = ATTRIBUTES.decode(in);
    String messageId = MESSAGE_ID.decode(in);
    return new EventMessage(payload, attributes, messageId, KafkaOrigin.decode(in));
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    throw new NonDeterministicException(this, List.of("attribute maps have no encoding order"));
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
