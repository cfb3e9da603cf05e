package io.thriftbq.local.latency;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import org.junit.Before;
import org.junit.Test;

/** The probe's samples, as the report reads them. */
public class HandOffLatencyProbeTest {
  @Before
  public void resetProbe() {
    HandOffLatencyProbe.reset();
  }

  @Test
  public void probeKeepsSamplesInOrder() {
    HandOffLatencyProbe.record(5);
    HandOffLatencyProbe.record(3);
    assertArrayEquals(new long[] {5, 3}, HandOffLatencyProbe.samples());
    HandOffLatencyProbe.reset();
    assertEquals(0, HandOffLatencyProbe.samples().length);
  }
}
