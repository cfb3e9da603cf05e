package io.thriftbq.local.progress;

import java.util.OptionalDouble;

/** What the progress follower needs to know about a run's publishing, whoever publishes. */
public interface Publishing {
  /** Generated events plus malformed messages published so far. */
  long published();

  /** The generated events are all published (or publishing stopped). */
  boolean eventsDone();

  /** The generated events and the malformed messages are all published. */
  boolean allDone();

  int malformedCount();

  /**
   * CPU seconds the publisher has spent in this JVM so far, to leave out of the pipeline's; empty
   * when it cannot be told apart from the pipeline's (and then no CPU figures are taken).
   */
  OptionalDouble publisherCpuSeconds();
}
