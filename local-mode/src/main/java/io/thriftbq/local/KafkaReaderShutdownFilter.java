package io.thriftbq.local;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Drops the warning Beam's Kafka reader logs, with a stack trace, when its wait for the next batch
 * is interrupted: Flink interrupts a task's thread to cancel it, and local mode cancels the job at
 * the end of every run, so a run that ended well would otherwise close on a stack trace. Every
 * other record of the reader, and every other interruption, still shows.
 */
public final class KafkaReaderShutdownFilter implements Filter {
  private static final String KAFKA_IO = "org.apache.beam.sdk.io.kafka.";

  @Override
  public boolean isLoggable(LogRecord record) {
    String logger = record.getLoggerName();
    return !(logger != null
        && logger.startsWith(KAFKA_IO)
        && record.getThrown() instanceof InterruptedException);
  }
}
