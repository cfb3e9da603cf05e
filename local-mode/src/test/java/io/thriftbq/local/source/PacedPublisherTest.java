package io.thriftbq.local.source;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.run.GeneratorArgs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** The paced publisher's lead-in: one event, the wait, then the rest paced from the wait's end. */
public class PacedPublisherTest {
  private static final int EVENTS = 300;
  private static final int RATE = 1000;

  /** Records each publish call, and when the wait happened among them. */
  private static final class RecordingSource implements EventSource {
    final List<List<SourceMessage>> calls = new ArrayList<>();
    int callsBeforeWait = -1;
    long waitEndedNanos;

    @Override
    public List<String> ingestionArgs() {
      return List.of();
    }

    @Override
    public String attributesColumn() {
      return "_attributes";
    }

    @Override
    public List<String> generatorArgs() {
      return List.of();
    }

    @Override
    public synchronized void publish(List<SourceMessage> messages) {
      calls.add(List.copyOf(messages));
    }

    @Override
    public Map<String, String> describe() {
      return Map.of(SOURCE, "test");
    }

    synchronized void waitFor(long millis) throws InterruptedException {
      callsBeforeWait = calls.size();
      wait(millis); // releases the lock: a publish during the wait would be recorded
      waitEndedNanos = System.nanoTime();
    }
  }

  private static PacedPublisher publisher(RecordingSource source) {
    return new PacedPublisher(
        source, GeneratorArgs.generatorFor(LocalRunConfig.defaults()), EVENTS, RATE, 1);
  }

  @Test
  public void publishesOneEventThenWaitsThenPacesTheRest() throws Exception {
    RecordingSource source = new RecordingSource();
    PacedPublisher publisher = publisher(source).leadingOneMessage(() -> source.waitFor(400));
    long start = System.nanoTime();
    publisher.run();

    assertEquals("publish calls before the wait", 1, source.callsBeforeWait);
    assertEquals("the lead call carries one event", 1, source.calls.get(0).size());
    assertEquals(EVENTS, publisher.published());
    Set<String> ids = new HashSet<>();
    for (List<SourceMessage> call : source.calls) {
      for (SourceMessage message : call) {
        assertTrue(ids.add(message.attributes().get(EventAttributes.EVENT_ID)));
      }
    }
    assertEquals("every event once", EVENTS, ids.size());
    // The rest is paced from the wait's end: its events are stamped after it, and the paced part
    // takes about EVENTS / RATE, not less for the time spent waiting.
    long firstPacedStamp =
        Long.parseLong(source.calls.get(1).get(0).attributes().get(EventAttributes.EVENT_TIME_MS));
    long waitEndedMillis =
        System.currentTimeMillis() - (System.nanoTime() - source.waitEndedNanos) / 1_000_000;
    assertTrue(
        "first paced event stamped "
            + firstPacedStamp
            + " before the wait ended "
            + waitEndedMillis,
        firstPacedStamp >= waitEndedMillis - 5);
    assertTrue(
        "paced part took " + publisher.runMillis() + " ms",
        publisher.runMillis() >= (EVENTS - 1) * 1000L / RATE - 60);
    assertTrue("the whole run includes the wait", (System.nanoTime() - start) / 1_000_000 >= 400);
  }

  @Test
  public void withoutALeadInItPacesFromTheStart() throws Exception {
    RecordingSource source = new RecordingSource();
    PacedPublisher publisher = publisher(source);
    publisher.run();
    assertEquals(-1, source.callsBeforeWait);
    assertTrue("first call carries the events due at once", source.calls.get(0).size() >= 1);
    assertEquals(EVENTS, publisher.published());
  }

  @Test
  public void aRampPublishesLessAtFirstAndTakesLonger() throws Exception {
    RecordingSource source = new RecordingSource();
    // 300 events at 1000/s: 300 ms at the full rate; a 300 ms ramp makes it 450 ms.
    PacedPublisher publisher = publisher(source).rampingUpOver(300);
    long startMillis = System.currentTimeMillis();
    publisher.run();

    assertEquals(EVENTS, publisher.published());
    assertTrue("took " + publisher.runMillis() + " ms", publisher.runMillis() >= 420);
    // In the first 150 ms the ramp makes 37.5 events due (150 at the full rate); one tick (50 ms)
    // of lateness makes 66.7.
    long early = 0;
    for (List<SourceMessage> call : source.calls) {
      for (SourceMessage message : call) {
        long stamp = Long.parseLong(message.attributes().get(EventAttributes.EVENT_TIME_MS));
        if (stamp < startMillis + 150) {
          early++;
        }
      }
    }
    assertTrue("published " + early + " in the first 150 ms", early <= 70);
  }
}
