package io.thriftbq.ingest.read;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient.IncomingMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient.SubscriptionPath;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient.TopicPath;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubJsonClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.Test;

public class OutageTolerantPubsubClientTest {
  private static final SubscriptionPath SUBSCRIPTION =
      PubsubClient.subscriptionPathFromName("p", "s");
  private static final TopicPath TOPIC = PubsubClient.topicPathFromName("p", "t");

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final ScriptedClient server = new ScriptedClient();
  private final OutageTolerantPubsubClient client =
      new OutageTolerantPubsubClient(server, now::get);

  @Test
  public void aFailedPullIsNoMessagesYetAndTheSourceCarriesOn() throws Exception {
    server.pulls.add(new ConnectException("Connection refused"));
    server.pulls.add(List.of(message("m1")));

    assertThat(client.pull(now.get(), SUBSCRIPTION, 10, true), empty());
    assertEquals(1, client.consecutivePullFailures());

    now.addAndGet(OutageTolerantPubsubClient.FIRST_BACKOFF_MS);
    assertThat(recordIds(client.pull(now.get(), SUBSCRIPTION, 10, true)), contains("m1"));
    assertEquals(0, client.consecutivePullFailures());
  }

  @Test
  public void pullsDuringTheBackoffDoNotReachTheServerAndTheBackoffDoublesToItsCap()
      throws Exception {
    List<Long> gaps = new ArrayList<>();
    long lastCall = -1;
    for (int i = 0; i < 400; i++) {
      server.pulls.add(new IOException("404 Not Found: Subscription does not exist"));
    }
    for (int tick = 0; tick < 20_000; tick++) {
      int callsBefore = server.pullCalls;
      assertThat(client.pull(now.get(), SUBSCRIPTION, 10, true), empty());
      if (server.pullCalls > callsBefore) {
        if (lastCall >= 0) {
          gaps.add(now.get() - lastCall);
        }
        lastCall = now.get();
      }
      now.addAndGet(10);
    }
    assertThat(
        gaps.subList(0, 6),
        contains(100L, 200L, 400L, 800L, 1_600L, OutageTolerantPubsubClient.MAX_BACKOFF_MS));
    assertThat(gaps.get(gaps.size() - 1), equalTo(OutageTolerantPubsubClient.MAX_BACKOFF_MS));
    assertEquals(server.pullCalls, client.consecutivePullFailures());
  }

  @Test
  public void afterAnEmptyPullThePullsPauseWithoutReachingTheServer() throws Exception {
    OutageTolerantPubsubClient paced = new OutageTolerantPubsubClient(server, now::get, 200);
    server.pulls.add(List.of());
    server.pulls.add(List.of(message("m1")));
    server.pulls.add(List.of(message("m2")));

    assertThat(paced.pull(now.get(), SUBSCRIPTION, 10, true), empty());
    now.addAndGet(199);
    assertThat(paced.pull(now.get(), SUBSCRIPTION, 10, true), empty());
    assertEquals("no request inside the pause", 1, server.pullCalls);

    now.addAndGet(1);
    assertThat(recordIds(paced.pull(now.get(), SUBSCRIPTION, 10, true)), contains("m1"));
    assertThat(
        "a pull that found messages does not pause the next",
        recordIds(paced.pull(now.get(), SUBSCRIPTION, 10, true)),
        contains("m2"));
    assertEquals(3, server.pullCalls);
    assertEquals(0, paced.consecutivePullFailures());
  }

  @Test
  public void withoutAPauseEveryPullReachesTheServer() throws Exception {
    server.pulls.add(List.of());
    server.pulls.add(List.of(message("m1")));

    assertThat(client.pull(now.get(), SUBSCRIPTION, 10, true), empty());
    assertThat(recordIds(client.pull(now.get(), SUBSCRIPTION, 10, true)), contains("m1"));
    assertEquals(2, server.pullCalls);
  }

  @Test
  public void aRuntimeErrorOfTheClientIsRiddenOutToo() throws Exception {
    server.pulls.add(new IllegalStateException("channel shut down"));
    assertThat(client.pull(now.get(), SUBSCRIPTION, 10, true), empty());
    assertEquals(1, client.consecutivePullFailures());
  }

  @Test
  public void aPullCancelledBecauseTheReaderIsStoppingIsNoOutage() throws Exception {
    server.pulls.add(new IllegalStateException("CANCELLED: Thread interrupted"));
    Thread.currentThread().interrupt();
    try {
      assertThat(client.pull(now.get(), SUBSCRIPTION, 10, true), empty());
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
    }
    assertEquals(0, client.consecutivePullFailures());
  }

  @Test
  public void aFailedAcknowledgementOrDeadlineChangeIsDroppedNotThrown() throws Exception {
    server.failAcks = true;
    client.acknowledge(SUBSCRIPTION, List.of("a1", "a2"));
    client.modifyAckDeadline(SUBSCRIPTION, List.of("a3"), 0);
    assertThat(server.acked, contains("a1", "a2"));
    assertThat(server.deadlineChanged, contains("a3"));
  }

  @Test
  public void acknowledgementsReachTheServer() throws Exception {
    client.acknowledge(SUBSCRIPTION, List.of("a1"));
    client.modifyAckDeadline(SUBSCRIPTION, List.of("a2"), 60);
    assertThat(server.acked, contains("a1"));
    assertThat(server.deadlineChanged, contains("a2"));
  }

  @Test
  public void everythingElseIsPassedThroughWithItsErrors() {
    assertThrows(IOException.class, () -> client.ackDeadlineSeconds(SUBSCRIPTION));
    assertThrows(IOException.class, () -> client.publish(TOPIC, List.of()));
    assertThrows(IOException.class, () -> client.createTopic(TOPIC));
    assertThrows(IOException.class, () -> client.createSubscription(TOPIC, SUBSCRIPTION, 60));
  }

  @Test
  public void theFactoryIsSerializableAndBuildsOutageTolerantClients() throws Exception {
    OutageTolerantPubsubClient.Factory factory =
        SerializableUtils.clone(
            new OutageTolerantPubsubClient.Factory(PubsubJsonClient.FACTORY, 0));
    PubsubOptions options = PipelineOptionsFactory.as(PubsubOptions.class);
    options.setPubsubRootUrl("http://127.0.0.1:9");
    try (PubsubClient built = factory.newClient(null, null, options)) {
      assertThat(built.getClass(), equalTo(OutageTolerantPubsubClient.class));
    }
    assertEquals("Json, outage-tolerant", factory.getKind());
  }

  private static IncomingMessage message(String id) {
    return IncomingMessage.of(
        com.google.pubsub.v1.PubsubMessage.newBuilder()
            .setData(ByteString.copyFromUtf8(id))
            .build(),
        0,
        0,
        "ack-" + id,
        id);
  }

  private static List<String> recordIds(List<IncomingMessage> messages) {
    return messages.stream().map(IncomingMessage::recordId).toList();
  }

  /** A server whose pull answers are scripted; every other call fails as if it were down. */
  private static final class ScriptedClient extends PubsubClient {
    final Deque<Object> pulls = new ArrayDeque<>();
    final List<String> acked = new ArrayList<>();
    final List<String> deadlineChanged = new ArrayList<>();
    boolean failAcks;
    int pullCalls;

    @Override
    @SuppressWarnings("unchecked")
    public List<IncomingMessage> pull(
        long requestTimeMsSinceEpoch,
        SubscriptionPath subscription,
        int batchSize,
        boolean returnImmediately)
        throws IOException {
      pullCalls++;
      Object next = pulls.isEmpty() ? List.of() : pulls.poll();
      if (next instanceof IOException e) {
        throw e;
      }
      if (next instanceof RuntimeException e) {
        throw e;
      }
      return (List<IncomingMessage>) next;
    }

    @Override
    public void acknowledge(SubscriptionPath subscription, List<String> ackIds) throws IOException {
      acked.addAll(ackIds);
      if (failAcks) {
        throw new IOException("400 Bad Request: invalid ack id");
      }
    }

    @Override
    public void modifyAckDeadline(
        SubscriptionPath subscription, List<String> ackIds, int deadlineSeconds)
        throws IOException {
      deadlineChanged.addAll(ackIds);
      if (failAcks) {
        throw new IOException("400 Bad Request: invalid ack id");
      }
    }

    private static IOException down() {
      return new ConnectException("Connection refused");
    }

    @Override
    public int publish(TopicPath topic, List<OutgoingMessage> outgoingMessages) throws IOException {
      throw down();
    }

    @Override
    public void createTopic(TopicPath topic) throws IOException {
      throw down();
    }

    @Override
    public void createTopic(TopicPath topic, SchemaPath schema) throws IOException {
      throw down();
    }

    @Override
    public void deleteTopic(TopicPath topic) throws IOException {
      throw down();
    }

    @Override
    public List<TopicPath> listTopics(ProjectPath project) throws IOException {
      throw down();
    }

    @Override
    public boolean isTopicExists(TopicPath topic) throws IOException {
      throw down();
    }

    @Override
    public void createSubscription(
        TopicPath topic, SubscriptionPath subscription, int ackDeadlineSeconds) throws IOException {
      throw down();
    }

    @Override
    public void deleteSubscription(SubscriptionPath subscription) throws IOException {
      throw down();
    }

    @Override
    public List<SubscriptionPath> listSubscriptions(ProjectPath project, TopicPath topic)
        throws IOException {
      throw down();
    }

    @Override
    public int ackDeadlineSeconds(SubscriptionPath subscription) throws IOException {
      throw down();
    }

    @Override
    public boolean isEOF() {
      return false;
    }

    @Override
    public void createSchema(
        SchemaPath schemaPath, String schemaContent, com.google.pubsub.v1.Schema.Type type)
        throws IOException {
      throw down();
    }

    @Override
    public void deleteSchema(SchemaPath schemaPath) throws IOException {
      throw down();
    }

    @Override
    public SchemaPath getSchemaPath(TopicPath topicPath) throws IOException {
      throw down();
    }

    @Override
    public Schema getSchema(SchemaPath schemaPath) throws IOException {
      throw down();
    }

    @Override
    public void close() {}
  }
}
