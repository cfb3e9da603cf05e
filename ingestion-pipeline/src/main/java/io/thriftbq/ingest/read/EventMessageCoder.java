package io.thriftbq.ingest.read;

import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.EventMetadataCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;

/**
 * Coder of an {@link EventMessage}: the payload, then its metadata with {@link EventMetadataCoder}
 * (the publish time left unknown: a read message carries it as the element's timestamp).
 */
public final class EventMessageCoder extends AtomicCoder<EventMessage> {
  private static final EventMessageCoder INSTANCE = new EventMessageCoder();
  private static final Coder<byte[]> PAYLOAD = ByteArrayCoder.of();
  private static final Coder<EventMetadata> METADATA = EventMetadataCoder.of();

  private EventMessageCoder() {}

  public static EventMessageCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(EventMessage message, OutputStream out) throws IOException {
    PAYLOAD.encode(message.payload(), out);
    METADATA.encode(
        new EventMetadata(
            message.messageId(), EventMetadata.UNKNOWN_TIME, message.attributes(), message.kafka()),
        out);
  }

  @Override
  public EventMessage decode(InputStream in) throws IOException {
    byte[] payload = PAYLOAD.decode(in);
    EventMetadata metadata = METADATA.decode(in);
    return new EventMessage(payload, metadata.attributes(), metadata.messageId(), metadata.kafka());
  }

  @Override
  public void verifyDeterministic() {
    // The payload and the metadata (attributes in key order) have one encoding each.
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
