package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * What a converter made of one payload: a row, or a dead letter, the only exceptions a converter
 * may throw. Anything else (including Errors such as StackOverflowError) propagates and is a
 * finding. Shared by the tests that compare formats and sources on the same payloads.
 */
final class Outcome<T> {
  final T row;
  final Exception deadLetter;

  private Outcome(T row, Exception deadLetter) {
    this.row = row;
    this.deadLetter = deadLetter;
  }

  static <T> Outcome<T> of(Callable<T> convert) {
    T row;
    try {
      row = convert.call();
    } catch (ThriftDecodeException | ConversionException e) {
      assertNotNull(e.getMessage(), "a dead letter without a reason");
      assertFalse(e.getMessage().isBlank(), "a dead letter without a reason");
      return new Outcome<>(null, e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // Checked exceptions of the sink-side conversion (not a dead letter of ours).
      throw new AssertionError("unexpected checked exception", e);
    }
    return new Outcome<>(Objects.requireNonNull(row, "converter returned null"), null);
  }

  String describe() {
    return row != null ? "row" : "dead letter";
  }

  /** The dead letter's reason, or null for a row. */
  String reason() {
    return deadLetter == null ? null : deadLetter.getMessage();
  }
}
