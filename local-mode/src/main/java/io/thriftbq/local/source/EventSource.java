package io.thriftbq.local.source;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where a local run's events travel from the publisher to the ingestion pipeline: what the run
 * created on the broker, how it publishes into it, and the flags that point the pipelines at it.
 * The run, the progress follower and the report see only this, so a second broker (a Kafka broker
 * beside the Pub/Sub emulator) is one more implementation, not a change to them.
 */
public interface EventSource {
  /** The ingestion pipeline's flags that make it read from this source. */
  List<String> ingestionArgs();

  /** The data generator pipeline's flags that make it publish into this source. */
  List<String> generatorArgs();

  /** Publishes {@code messages} in order; returns once the source has accepted all of them. */
  void publish(List<SourceMessage> messages) throws IOException;

  /** What the report names as the run's source (for Pub/Sub: topic and subscription paths). */
  Map<String, String> describe();
}
