package io.thriftbq.local;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.stack.EmulatorStack;

/**
 * One emulator pair for every end-to-end test class in the surefire JVM: starting them costs 5-15
 * s, and each test uses its own topic and tables. {@link EmulatorStack} stops them from its
 * shutdown hook when the JVM ends.
 */
final class SharedEmulators {
  private static EmulatorStack stack;
  private static RuntimeException startFailure;

  private SharedEmulators() {}

  /**
   * @throws IllegalStateException when an emulator is not installed: the tests fail rather than
   *     skip, so a CI machine without the emulators cannot pass silently
   */
  static synchronized EmulatorStack get() throws Exception {
    return shared();
  }

  /**
   * The shared stack with a Kafka broker beside its Pub/Sub emulator (started on first use, stopped
   * with the stack): Kafka tests then share the BigQuery emulator too. Read with {@code
   * KafkaSource.create(stack, prefix)} or a run configured with {@code source(SourceKind.KAFKA)}.
   */
  static synchronized EmulatorStack withKafka() throws Exception {
    EmulatorStack stack = shared();
    stack.startKafka();
    return stack;
  }

  /**
   * A private pair for a test that cancels a pipeline mid-append: if it misbehaves, no other test
   * shares it.
   */
  static EmulatorStack startPrivate() throws Exception {
    return startPrivate(SourceKind.PUBSUB);
  }

  /** A private pair as {@link #startPrivate()}, reading from {@code source}. */
  static EmulatorStack startPrivate(SourceKind source) throws Exception {
    try {
      return EmulatorStack.start(LocalRunConfig.PROJECT, LocalRunConfig.DATASET, source, false);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "The end-to-end tests need both emulators and do not skip without them.\n"
              + e.getMessage(),
          e);
    }
  }

  private static EmulatorStack shared() throws Exception {
    if (startFailure != null) {
      throw startFailure;
    }
    if (stack == null) {
      try {
        // -Dthriftbq.test.keep=true keeps the emulators' data and logs, to investigate a failure.
        // The BigQuery emulator runs on protobuf's C backend, as local mode starts it: the fault
        // tests kill pipelines mid-append, which made it segfault until the launcher kept the
        // classes of nested message types (docs/RELIABILITY.md); until then these tests ran it
        // on the pure-Python backend.
        stack =
            EmulatorStack.start(
                LocalRunConfig.PROJECT,
                LocalRunConfig.DATASET,
                Boolean.getBoolean("thriftbq.test.keep"));
      } catch (IllegalStateException e) {
        startFailure =
            new IllegalStateException(
                "The end-to-end tests need both emulators and do not skip without them.\n"
                    + e.getMessage(),
                e);
        throw startFailure;
      }
    }
    return stack;
  }

  /**
   * Parameters for a test run per step: {@code defaults}, or the steps the system property {@code
   * thriftbq.test.steps} lists (comma-separated), to rerun one step while investigating.
   */
  static java.util.List<Object[]> steps(int... defaults) {
    String chosen = System.getProperty("thriftbq.test.steps", "");
    java.util.stream.IntStream steps =
        chosen.isBlank()
            ? java.util.Arrays.stream(defaults)
            : java.util.Arrays.stream(chosen.split(",")).mapToInt(s -> Integer.parseInt(s.trim()));
    return steps.mapToObj(step -> new Object[] {step}).toList();
  }
}
