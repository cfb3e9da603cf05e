package io.thriftbq.ingest.change;

/**
 * An event that cannot be a change: no key, an unknown change type, no or a bad sequence.
 * Unchecked, because PROTO_MESSAGE's converter decides the change where it writes the row ({@link
 * ChangeStamp}) and lets it through; the decoder dead-letters it at the CHANGE stage.
 */
public final class ChangeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ChangeException(String message) {
    super(message);
  }
}
