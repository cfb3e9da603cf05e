package io.thriftbq.local.config;

import io.thriftbq.ingest.options.WriteMethod;

/**
 * A saturation run: an offered rate of {@link #RATE} events/s or more, more than the BigQuery
 * emulator takes on this machine class (append ceilings of 1,670-6,000 rows/s). BigQueryIO's
 * at-least-once writer keeps one append in flight and waits for it when a bundle ends, so one
 * writer gets only what the emulator takes one append at a time; such a run of step 7 or 8 hands
 * its rows to {@link #WRITERS} writers, each in a thread of its own (benchmarks/RESULTS.md section
 * 32). Below it one writer keeps up and costs the emulator fewer, fuller appends. Step 9 never: a
 * hand-off may reorder one key's changes. {@code --ingest-arg=--handOffBeforeWrite=...} or {@code
 * --handOffWriters=...} replace the choice. Such a run also lets the BigQuery emulator, its limit,
 * go first on the CPU ({@code io.thriftbq.local.stack.CpuPriority}, section 33).
 */
public final class SaturationRun {
  /** The offered rate from which a run of an at-least-once step hands its rows to writers. */
  public static final long RATE = 2000;

  /** How many writers a saturation run's hand-off feeds. */
  public static final int WRITERS = 4;

  private SaturationRun() {}

  /** The writers a run of {@code step} at {@code ratePerSec} hands its rows to, 0 for none. */
  public static int handOffWriters(TuningStep step, long ratePerSec) {
    boolean atLeastOnce = step.writeMethod() == WriteMethod.STORAGE_API_AT_LEAST_ONCE;
    return atLeastOnce && !step.changeMode() && ratePerSec >= RATE ? WRITERS : 0;
  }
}
