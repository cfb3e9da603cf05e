package io.thriftbq.codec;

/**
 * A Pub/Sub message marked as an {@link EventEnvelope} could not be unpacked: unknown version, bad
 * {@code record_count}, corrupt or truncated compressed data, a length prefix that runs past the
 * data or past the caller's limit, or more or fewer events than declared.
 *
 * <p>Checked on purpose: a caller must route the whole message to a dead letter rather than drop
 * it, so the compiler reminds it to handle the failure.
 */
public class EnvelopeException extends Exception {
  private static final long serialVersionUID = 1L;

  public EnvelopeException(String message) {
    super(message);
  }

  public EnvelopeException(String message, Throwable cause) {
    super(message, cause);
  }
}
