package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.stack.PubsubEmulator.RawMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** How the emulator's publisher splits messages into requests within Pub/Sub's limits. */
public class PubsubPublishRequestsTest {
  private static final String TOPIC = "projects/local-project/topics/events";

  private static RawMessage message(int bytes, String id) {
    return new RawMessage(new byte[bytes], Map.of("event_id", id, "event_time_ms", "1"));
  }

  @Test
  public void smallMessagesGoInRequestsOfAtMostAThousandInOrder() throws IOException {
    List<RawMessage> messages = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      messages.add(message(1000, "id" + i));
    }
    List<List<RawMessage>> requests = PubsubEmulator.requests(TOPIC, messages);
    assertEquals(List.of(1000, 1000, 500), requests.stream().map(List::size).toList());
    List<RawMessage> inOrder = new ArrayList<>();
    requests.forEach(inOrder::addAll);
    assertEquals(messages, inOrder);
  }

  @Test
  public void largeMessagesSplitRequestsBelowTenMegabytes() throws IOException {
    List<RawMessage> messages =
        List.of(
            message(4_000_000, "a"),
            message(4_000_000, "b"),
            message(4_000_000, "c"),
            message(9_000_000, "d"),
            message(10, "e"));
    List<List<RawMessage>> requests = PubsubEmulator.requests(TOPIC, messages);
    assertEquals(List.of(2, 1, 2), requests.stream().map(List::size).toList());
    for (List<RawMessage> request : requests) {
      long payload = request.stream().mapToLong(m -> m.data().length).sum();
      assertTrue(payload + " bytes", payload < PubsubEmulator.MAX_REQUEST_BYTES);
    }
  }

  @Test
  public void aMessageOverPubsubsLimitIsRefusedBeforeAnythingIsSent() {
    List<RawMessage> messages = List.of(message(10, "small"), message(10_000_001, "huge"));
    IOException refused =
        assertThrows(IOException.class, () -> PubsubEmulator.requests(TOPIC, messages));
    assertThat(refused.getMessage(), containsString("over Pub/Sub's limit of 10000000 bytes"));
    assertThat(refused.getMessage(), containsString("nothing was sent"));
  }

  @Test
  public void noMessagesMakeNoRequest() throws IOException {
    assertEquals(List.of(), PubsubEmulator.requests(TOPIC, List.of()));
  }
}
