package io.thriftbq.local.latency;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.After;
import org.junit.Test;

/** The probe's samples grouped by when their events were created. */
public class HandOffLatencyProbeTest {

  @After
  public void reset() {
    HandOffLatencyProbe.reset();
  }

  @Test
  public void groupsSamplesByCreationWindowLeavingOutEarlierEventsAndKeepingEmptyWindows() {
    long start = 1_000_000;
    HandOffLatencyProbe.record(7, start - 1); // before the start: left out
    HandOffLatencyProbe.record(10, start);
    HandOffLatencyProbe.record(20, start + 4_999);
    HandOffLatencyProbe.record(30, start + 15_000);
    HandOffLatencyProbe.record(40, start + 5_000);

    List<long[]> windows = HandOffLatencyProbe.samplesByCreationWindow(start, 5_000);

    assertEquals(4, windows.size());
    assertArrayEquals(new long[] {10, 20}, windows.get(0));
    assertArrayEquals(new long[] {40}, windows.get(1));
    assertArrayEquals(new long[0], windows.get(2));
    assertArrayEquals(new long[] {30}, windows.get(3));
  }

  @Test
  public void noSamplesGiveNoWindows() {
    assertEquals(List.of(), HandOffLatencyProbe.samplesByCreationWindow(0, 5_000));
  }
}
