package io.thriftbq.local.config;

/**
 * A flag local mode refuses once it knows the run's whole set of pipeline flags (after the flags
 * were parsed): its message says what to change, so it is shown without a stack trace and the run
 * exits with status 2, as for any other bad argument.
 */
public final class BadFlagException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public BadFlagException(String message) {
    super(message);
  }
}
