package io.thriftbq.ingest.route;

/** A message no event type of the job can take; the message is the dead letter's reason. */
public final class UnroutableException extends Exception {
  private static final long serialVersionUID = 1L;

  public UnroutableException(String message) {
    super(message, null, false, false);
  }
}
