package io.thriftbq.ingest.convert;

/**
 * A field's value that the decoding rules refuse (see {@link DecodingRules}); the struct codecs add
 * the field's path on the way out, so the dead letter names e.g. {@code session.device.platform}.
 */
final class InvalidFieldValueException extends ThriftDecodeException {
  private static final long serialVersionUID = 1L;

  private final String problem;
  private final String path;

  InvalidFieldValueException(String problem) {
    this(problem, "");
  }

  private InvalidFieldValueException(String problem, String path) {
    super(path.isEmpty() ? problem : "Field '" + path + "': " + problem);
    this.problem = problem;
    this.path = path;
  }

  /** This problem one level up: inside field {@code name}. */
  InvalidFieldValueException inField(String name) {
    return new InvalidFieldValueException(problem, path.isEmpty() ? name : name + "." + path);
  }
}
