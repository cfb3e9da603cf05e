package io.thriftbq.local.progress;

/**
 * One once-a-second look at the emulator's tables during a run.
 *
 * @param elapsedMillis since the ingestion pipeline was started
 * @param rows rows in the run's event tables
 * @param deadLetters rows in its dead-letter tables
 */
public record ProgressSample(long elapsedMillis, long rows, long deadLetters) {}
