package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.idCounts;
import static io.thriftbq.local.EndToEndTables.waitUntilWritten;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.LocalEngine;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.source.SourceMessage;
import io.thriftbq.local.stack.EmulatorStack;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * De-duplication by publisher id ({@code --idAttribute}, PubsubIO's {@code withIdAttribute}) on the
 * embedded Flink runner, which drops source records whose id it has seen (Beam's Flink runner
 * de-duplicates a source that asks for it, as PubsubIO's does, by record id: the attribute's value
 * when set, else the message id). Every event is published twice, as two Pub/Sub messages (two
 * message ids) with the same publisher id, as a publisher's retry after a lost acknowledgement
 * does: with the flag each event has one row, without it two.
 */
public class PublisherIdEndToEndTest {
  private static final int EVENTS = 150;
  private static final String ID_ATTRIBUTE = "publisher_id";

  @Rule public Timeout timeout = Timeout.seconds(300);

  @Test
  public void aPublishersRetryIsDroppedWithIdAttributeAndWrittenTwiceWithout() throws Exception {
    Assume.assumeTrue(
        "the embedded Flink runner de-duplicates by record id",
        LocalEngine.fromSystemProperties().flink());
    EmulatorStack stack = SharedEmulators.get();
    assertEquals(
        "rows per event with --idAttribute", Map.of(1L, (long) EVENTS), rowsPerEvent(stack, true));
    assertEquals(
        "rows per event without it", Map.of(2L, (long) EVENTS), rowsPerEvent(stack, false));
  }

  /** How many events have 1, 2, ... rows. */
  private static Map<Long, Long> rowsPerEvent(EmulatorStack stack, boolean idAttribute)
      throws Exception {
    String table = "pubid_" + idAttribute + "_" + UUID.randomUUID().toString().substring(0, 6);
    EmulatorTables.create(stack, RunTables.forOutputTable(table));
    PubsubSource channel = PubsubSource.create(stack, "pubid");
    List<String> args =
        new ArrayList<>(
            IngestionArgs.forStep(TuningStep.of(8))
                .withEngine(LocalEngine.fromSystemProperties())
                .toList(channel, stack.bigquery(), RunTables.forOutputTable(table)));
    if (idAttribute) {
      args.add("--idAttribute=" + ID_ATTRIBUTE);
    }
    RandomEventGenerator generator =
        GeneratorArgs.generatorFor(
            GeneratorArgs.of(
                List.of(),
                EVENTS,
                100,
                23,
                1,
                false,
                LocalRunConfig.defaults().datagenStructArgs()));
    Process pipeline = IngestionProcess.start(stack, args, table);
    try {
      for (int copy = 0; copy < 2; copy++) {
        // Each publish call makes new messages: the second copy has other message ids.
        List<SourceMessage> messages = new ArrayList<>();
        for (long i = 0; i < EVENTS; i++) {
          Map<String, String> attributes = new HashMap<>();
          attributes.put(EventAttributes.EVENT_ID, Long.toString(i));
          attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(System.currentTimeMillis()));
          attributes.put(ID_ATTRIBUTE, "event-" + i);
          messages.add(new SourceMessage(generator.serialize(i), attributes));
        }
        channel.publish(messages);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      assertNotEquals(
          "every event written",
          -1,
          waitUntilWritten(stack, table, 0, EVENTS, () -> true, deadline));
      Thread.sleep(5000); // the second copies get the time to land, if they are written at all
      Map<Long, Long> eventsByRows = new HashMap<>();
      idCounts(stack, table).values().forEach(rows -> eventsByRows.merge(rows, 1L, Long::sum));
      return eventsByRows;
    } finally {
      IngestionProcess.kill(pipeline);
    }
  }
}
