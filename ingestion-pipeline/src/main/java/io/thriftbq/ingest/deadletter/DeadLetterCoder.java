package io.thriftbq.ingest.deadletter;

import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.EventMetadataCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.joda.time.Instant;

/**
 * Coder of {@link DeadLetter}. Hand-written rather than schema-inferred because dead letters cross
 * a shuffle only on the rare failure path, where a compact, dependency-free encoding is all we
 * need. The message's metadata is written by {@link EventMetadataCoder}, as every coder of an
 * element that carries it does.
 */
public final class DeadLetterCoder extends AtomicCoder<DeadLetter> {
  private static final DeadLetterCoder INSTANCE = new DeadLetterCoder();

  private static final Coder<byte[]> BYTES = ByteArrayCoder.of();
  private static final Coder<String> STRING = StringUtf8Coder.of();
  private static final Coder<Instant> INSTANT = InstantCoder.of();
  private static final Coder<EventMetadata> METADATA = EventMetadataCoder.of();

  private DeadLetterCoder() {}

  public static DeadLetterCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(DeadLetter value, OutputStream out) throws IOException {
    BYTES.encode(value.payload(), out);
    // Names, not ordinals: a running job can be updated with reordered or extended enums.
    STRING.encode(value.payloadEncoding().name(), out);
    STRING.encode(value.stage().name(), out);
    STRING.encode(value.errorMessage(), out);
    METADATA.encode(value.metadata(), out);
    INSTANT.encode(value.failedAt(), out);
    STRING.encode(value.eventTable(), out);
    STRING.encode(value.eventStruct(), out);
  }

  @Override
  public DeadLetter decode(InputStream in) throws IOException {
    return new DeadLetter(
        BYTES.decode(in),
        PayloadEncoding.valueOf(STRING.decode(in)),
        Stage.valueOf(STRING.decode(in)),
        STRING.decode(in),
        METADATA.decode(in),
        INSTANT.decode(in),
        STRING.decode(in),
        STRING.decode(in));
  }

  @Override
  public void verifyDeterministic() {
    // Every field has one encoding; the metadata's attributes are written in key order.
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
