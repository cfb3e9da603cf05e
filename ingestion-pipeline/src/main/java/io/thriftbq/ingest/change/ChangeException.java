package io.thriftbq.ingest.change;

/** An event that cannot be a change: no key, an unknown change type, no or a bad sequence. */
public final class ChangeException extends Exception {
  private static final long serialVersionUID = 1L;

  public ChangeException(String message) {
    super(message);
  }
}
