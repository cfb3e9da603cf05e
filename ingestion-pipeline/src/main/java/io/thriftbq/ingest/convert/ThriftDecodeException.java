package io.thriftbq.ingest.convert;

/** The payload is not a valid serialized event of the configured struct and protocol. */
public class ThriftDecodeException extends Exception {
  private static final long serialVersionUID = 1L;

  public ThriftDecodeException(String message) {
    super(message);
  }

  public ThriftDecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
