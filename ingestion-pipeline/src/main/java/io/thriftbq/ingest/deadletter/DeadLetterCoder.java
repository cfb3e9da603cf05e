package io.thriftbq.ingest.deadletter;

import io.thriftbq.ingest.origin.KafkaOrigin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.joda.time.Instant;

/**
 * Coder of {@link DeadLetter}. Hand-written rather than schema-inferred because dead letters cross
 * a shuffle only on the rare failure path, where a compact, dependency-free encoding is all we
 * need.
 */
public final class DeadLetterCoder extends AtomicCoder<DeadLetter> {
  private static final DeadLetterCoder INSTANCE = new DeadLetterCoder();

  private static final Coder<byte[]> BYTES = ByteArrayCoder.of();
  private static final Coder<String> STRING = StringUtf8Coder.of();
  private static final Coder<String> NULLABLE_STRING = NullableCoder.of(StringUtf8Coder.of());
  private static final Coder<Instant> INSTANT = InstantCoder.of();
  private static final Coder<Instant> NULLABLE_INSTANT = NullableCoder.of(InstantCoder.of());
  private static final Coder<Map<String, String>> ATTRIBUTES =
      MapCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of());

  private DeadLetterCoder() {}

  public static DeadLetterCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(DeadLetter value, OutputStream out) throws IOException {
    BYTES.encode(value.payload(), out);
    // Names, not ordinals: a running job can be updated with reordered or extended enums.
    STRING.encode(value.payloadFormat().name(), out);
    STRING.encode(value.stage().name(), out);
    STRING.encode(value.errorMessage(), out);
    NULLABLE_STRING.encode(value.messageId(), out);
    NULLABLE_INSTANT.encode(value.publishTime(), out);
    ATTRIBUTES.encode(value.attributes(), out);
    INSTANT.encode(value.failedAt(), out);
    STRING.encode(value.eventTable(), out);
    STRING.encode(value.eventStruct(), out);
    KafkaOrigin.encode(value.kafka(), out);
  }

  @Override
  public DeadLetter decode(InputStream in) throws IOException {
    return new DeadLetter(
        BYTES.decode(in),
        PayloadFormat.valueOf(STRING.decode(in)),
        Stage.valueOf(STRING.decode(in)),
        STRING.decode(in),
        NULLABLE_STRING.decode(in),
        NULLABLE_INSTANT.decode(in),
        ATTRIBUTES.decode(in),
        INSTANT.decode(in),
        STRING.decode(in),
        STRING.decode(in),
        KafkaOrigin.decode(in));
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    throw new NonDeterministicException(
        this, List.of("attribute maps have no defined encoding order"));
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
