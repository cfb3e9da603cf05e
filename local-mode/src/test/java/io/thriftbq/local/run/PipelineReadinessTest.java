package io.thriftbq.local.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.progress.LandedRows;
import io.thriftbq.local.result.RunResult;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** Waiting for the pipeline's first output: a row or a dead letter, or the limit. */
public class PipelineReadinessTest {
  /** Nothing for {@code polls} polls (the first of them failing, as a busy emulator's would). */
  private static LandedRows landingAfter(int polls, boolean asDeadLetter, AtomicInteger asked) {
    return new LandedRows() {
      @Override
      public long rows() throws IOException {
        if (asked.incrementAndGet() == 1) {
          throw new IOException("emulator busy");
        }
        return !asDeadLetter && asked.get() > polls ? 1 : 0;
      }

      @Override
      public long deadLetters() {
        return asDeadLetter && asked.get() > polls ? 1 : 0;
      }

      @Override
      public long distinctEventIds() {
        throw new UnsupportedOperationException();
      }

      @Override
      public long eventIdSum() {
        throw new UnsupportedOperationException();
      }
    };
  }

  @Test
  public void waitsForTheFirstRow() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    PipelineReadiness readiness = new PipelineReadiness(landingAfter(3, false, asked));
    assertFalse(readiness.waitedMillis().isDone());
    readiness.await();
    assertEquals(4, asked.get());
    long waited = readiness.waitedMillis().join();
    assertTrue("waited " + waited + " ms over three polls", waited >= 400);
  }

  @Test
  public void aDeadLetterIsOutputToo() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    PipelineReadiness readiness = new PipelineReadiness(landingAfter(2, true, asked));
    readiness.await();
    assertTrue(readiness.waitedMillis().join() >= 0);
  }

  @Test
  public void givesUpAtTheLimit() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    PipelineReadiness readiness =
        new PipelineReadiness(
            landingAfter(Integer.MAX_VALUE, false, asked), Duration.ofMillis(700));
    readiness.await();
    assertEquals(RunResult.GAVE_UP_WAITING, (long) readiness.waitedMillis().join());
    assertTrue(asked.get() >= 3);
  }
}
