package io.thriftbq.datagen;

import java.io.Serializable;

/**
 * The largest message payload a sink takes, and how to say so when a message is larger.
 *
 * @param maxBytes the most payload bytes per message
 * @param sink the sink and the setting behind the limit, for messages (for example "Pub/Sub")
 * @param raise what else, beyond smaller messages, would lift the limit; empty if nothing
 */
public record MessageLimit(int maxBytes, String sink, String raise) implements Serializable {

  /** Pub/Sub's, with Beam's JSON client: see {@link DatagenPipeline#MAX_MESSAGE_BYTES}. */
  public static final MessageLimit PUBSUB =
      new MessageLimit(DatagenPipeline.MAX_MESSAGE_BYTES, "Pub/Sub", "");

  public MessageLimit {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
    }
  }

  /** "the N-byte limit for SINK: lower ... (or RAISE)", the end of an over-size message. */
  String describe() {
    return "the "
        + maxBytes
        + "-byte limit for "
        + sink
        + ": lower --maxRecordsPerBatch, --maxStringLength or --maxCollectionSize"
        + (raise.isEmpty() ? "" : ", or " + raise);
  }
}
