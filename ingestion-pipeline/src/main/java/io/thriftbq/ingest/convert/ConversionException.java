package io.thriftbq.ingest.convert;

/** A decoded event (for example one changed by a user function) cannot be turned into a row. */
public final class ConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConversionException(String message) {
    super(message);
  }

  public ConversionException(String message, Throwable cause) {
    super(message, cause);
  }
}
