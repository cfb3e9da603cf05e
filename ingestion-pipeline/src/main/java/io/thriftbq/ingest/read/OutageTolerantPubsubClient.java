package io.thriftbq.ingest.read;

import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.schemas.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link PubsubClient} for Beam's Pub/Sub source that rides out a Pub/Sub outage instead of
 * failing the job.
 *
 * <p>Beam's {@code PubsubUnboundedSource} lets any error of a pull, an acknowledgement or an
 * ack-deadline extension escape, and a runner that executes the source itself (Flink: local mode, a
 * Flink cluster of one's own) then fails the job over to its last checkpoint. A failover replays
 * everything read since that checkpoint, and Beam's exactly-once Storage Write sink cannot take a
 * replay on Flink without writing rows twice (docs/RELIABILITY.md). Dataflow reads Pub/Sub with its
 * own source and retries instead; this client gives the Beam source the same behaviour:
 *
 * <ul>
 *   <li>a failed pull is answered as "no messages yet", and the next pulls are skipped for a
 *       backoff that doubles from {@link #FIRST_BACKOFF_MS} to {@link #MAX_BACKOFF_MS}, so a source
 *       thread never blocks and never hammers a server that is down;
 *   <li>a failed acknowledgement or deadline change is logged and dropped: Pub/Sub redelivers those
 *       messages, and the source's de-duplication by message id (or an at-least-once step's
 *       documented duplicates) takes them;
 *   <li>everything else (publishing, administration, the subscription's ack deadline) is passed
 *       through unchanged.
 * </ul>
 *
 * It can also pace an idle reader: Beam's source pulls with {@code returnImmediately} whenever it
 * has nothing left to emit, and Flink's source loop asks again 50 ms after an empty answer, so an
 * idle or lightly loaded reader sends about 20-40 pulls a second. With an empty-pull pause, the
 * pulls after an empty one are answered "no messages yet" without a request for that long: fewer,
 * fuller pulls, for up to that much more latency on the first message after a quiet spell.
 *
 * <p>Every failure is logged at WARN with Pub/Sub's answer (the first of an outage, then at most
 * one every {@link #LOG_EVERY_MS}), and the end of an outage at INFO with its length, so an outage
 * that does not end (a deleted subscription, a revoked permission) stays visible.
 */
final class OutageTolerantPubsubClient extends PubsubClient {
  private static final Logger LOG = LoggerFactory.getLogger(OutageTolerantPubsubClient.class);
  static final long FIRST_BACKOFF_MS = 100;
  static final long MAX_BACKOFF_MS = 2_000;
  static final long LOG_EVERY_MS = 30_000;

  private final PubsubClient delegate;
  private final LongSupplier clockMs;
  private final long emptyPullPauseMs;

  private long pullFailures;
  private long outageStartedMs;
  private long nextPullMs;
  private long lastWarningMs;

  OutageTolerantPubsubClient(PubsubClient delegate, LongSupplier clockMs) {
    this(delegate, clockMs, 0);
  }

  OutageTolerantPubsubClient(PubsubClient delegate, LongSupplier clockMs, long emptyPullPauseMs) {
    this.delegate = delegate;
    this.clockMs = clockMs;
    this.emptyPullPauseMs = emptyPullPauseMs;
  }

  /** Pulls failed since the last successful pull; 0 when Pub/Sub answers. */
  synchronized long consecutivePullFailures() {
    return pullFailures;
  }

  @Override
  public synchronized List<IncomingMessage> pull(
      long requestTimeMsSinceEpoch,
      SubscriptionPath subscription,
      int batchSize,
      boolean returnImmediately)
      throws IOException {
    long now = clockMs.getAsLong();
    if (now < nextPullMs) {
      return List.of();
    }
    List<IncomingMessage> messages;
    try {
      messages = delegate.pull(requestTimeMsSinceEpoch, subscription, batchSize, returnImmediately);
    } catch (IOException | RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        // The runner is stopping the reader (gRPC's blocking client answers an interrupt with
        // CANCELLED and keeps the flag set): not an outage, nothing to report or back off from.
        return List.of();
      }
      pullFailed(subscription, e, now);
      return List.of();
    }
    if (messages.isEmpty()) {
      nextPullMs = now + emptyPullPauseMs;
    }
    if (pullFailures > 0) {
      LOG.info(
          "Pulling from {} works again after {} failed pulls over {} ms",
          subscription.getPath(),
          pullFailures,
          now - outageStartedMs);
      pullFailures = 0;
    }
    return messages;
  }

  private void pullFailed(SubscriptionPath subscription, Exception error, long now) {
    if (pullFailures == 0) {
      outageStartedMs = now;
    }
    pullFailures++;
    // Doubles from the first failure; the shift is capped so it cannot overflow.
    long backoffMs = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS << Math.min(pullFailures - 1, 20));
    nextPullMs = now + backoffMs;
    if (pullFailures == 1 || now - lastWarningMs >= LOG_EVERY_MS) {
      lastWarningMs = now;
      LOG.warn(
          "Pulling from {} failed ({} in a row over {} ms); retrying in {} ms without failing the"
              + " job: {}",
          subscription.getPath(),
          pullFailures,
          now - outageStartedMs,
          backoffMs,
          error.toString());
    }
  }

  @Override
  public void acknowledge(SubscriptionPath subscription, List<String> ackIds) {
    try {
      delegate.acknowledge(subscription, ackIds);
    } catch (IOException | RuntimeException e) {
      dropped("Acknowledging", subscription, ackIds, e);
    }
  }

  @Override
  public void modifyAckDeadline(
      SubscriptionPath subscription, List<String> ackIds, int deadlineSeconds) {
    try {
      delegate.modifyAckDeadline(subscription, ackIds, deadlineSeconds);
    } catch (IOException | RuntimeException e) {
      dropped("Setting the ack deadline to " + deadlineSeconds + " s for", subscription, ackIds, e);
    }
  }

  private void dropped(
      String what, SubscriptionPath subscription, List<String> ackIds, Exception error) {
    LOG.warn(
        "{} {} messages of {} failed; Pub/Sub will deliver them again: {}",
        what,
        ackIds.size(),
        subscription.getPath(),
        error.toString());
  }

  @Override
  public int publish(TopicPath topic, List<OutgoingMessage> outgoingMessages) throws IOException {
    return delegate.publish(topic, outgoingMessages);
  }

  @Override
  public void createTopic(TopicPath topic) throws IOException {
    delegate.createTopic(topic);
  }

  @Override
  public void createTopic(TopicPath topic, SchemaPath schema) throws IOException {
    delegate.createTopic(topic, schema);
  }

  @Override
  public void deleteTopic(TopicPath topic) throws IOException {
    delegate.deleteTopic(topic);
  }

  @Override
  public List<TopicPath> listTopics(ProjectPath project) throws IOException {
    return delegate.listTopics(project);
  }

  @Override
  public boolean isTopicExists(TopicPath topic) throws IOException {
    return delegate.isTopicExists(topic);
  }

  @Override
  public void createSubscription(
      TopicPath topic, SubscriptionPath subscription, int ackDeadlineSeconds) throws IOException {
    delegate.createSubscription(topic, subscription, ackDeadlineSeconds);
  }

  @Override
  public void deleteSubscription(SubscriptionPath subscription) throws IOException {
    delegate.deleteSubscription(subscription);
  }

  @Override
  public List<SubscriptionPath> listSubscriptions(ProjectPath project, TopicPath topic)
      throws IOException {
    return delegate.listSubscriptions(project, topic);
  }

  @Override
  public int ackDeadlineSeconds(SubscriptionPath subscription) throws IOException {
    return delegate.ackDeadlineSeconds(subscription);
  }

  @Override
  public boolean isEOF() {
    return delegate.isEOF();
  }

  @Override
  public void createSchema(
      SchemaPath schemaPath, String schemaContent, com.google.pubsub.v1.Schema.Type type)
      throws IOException {
    delegate.createSchema(schemaPath, schemaContent, type);
  }

  @Override
  public void deleteSchema(SchemaPath schemaPath) throws IOException {
    delegate.deleteSchema(schemaPath);
  }

  @Override
  public SchemaPath getSchemaPath(TopicPath topicPath) throws IOException {
    return delegate.getSchemaPath(topicPath);
  }

  @Override
  public Schema getSchema(SchemaPath schemaPath) throws IOException {
    return delegate.getSchema(schemaPath);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  /**
   * Wraps another factory (Beam's JSON client by default) so its clients tolerate outages, and
   * pause for {@code emptyPullPauseMs} after an empty pull (0: Beam's own pace).
   */
  static final class Factory implements PubsubClientFactory {
    private static final long serialVersionUID = 1L;
    private final PubsubClientFactory delegate;
    private final long emptyPullPauseMs;

    Factory(PubsubClientFactory delegate, long emptyPullPauseMs) {
      this.delegate = delegate;
      this.emptyPullPauseMs = emptyPullPauseMs;
    }

    @Override
    public PubsubClient newClient(
        @Nullable String timestampAttribute,
        @Nullable String idAttribute,
        PubsubOptions options,
        @Nullable String rootUrlOverride)
        throws IOException {
      return new OutageTolerantPubsubClient(
          delegate.newClient(timestampAttribute, idAttribute, options, rootUrlOverride),
          System::currentTimeMillis,
          emptyPullPauseMs);
    }

    @Override
    public PubsubClient newClient(
        @Nullable String timestampAttribute, @Nullable String idAttribute, PubsubOptions options)
        throws IOException {
      return new OutageTolerantPubsubClient(
          delegate.newClient(timestampAttribute, idAttribute, options),
          System::currentTimeMillis,
          emptyPullPauseMs);
    }

    @Override
    public String getKind() {
      return delegate.getKind() + ", outage-tolerant";
    }
  }
}
