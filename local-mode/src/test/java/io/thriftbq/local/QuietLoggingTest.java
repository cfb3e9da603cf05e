package io.thriftbq.local;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.junit.After;
import org.junit.Test;

/** What a local run's console shows of the libraries' logging. */
public class QuietLoggingTest {
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (isLoggable(record)) {
            records.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @After
  public void restoreTheDefaultConfiguration() throws Exception {
    Logger.getLogger("").removeHandler(capture);
    LogManager.getLogManager().readConfiguration();
  }

  @Test
  public void metricsUsedOffAWorkThreadAreNotReportedAsAFailure() throws Exception {
    LocalRunner.readQuietLoggingConfiguration();
    // Beam reports a missing container once per JVM, so the trigger below alone could pass after
    // another test had triggered it first: the level is checked as well.
    assertFalse(Logger.getLogger(MetricsEnvironment.class.getName()).isLoggable(Level.SEVERE));
    Logger.getLogger("").addHandler(capture);
    // What Beam's Kafka source does while Flink's split enumerator splits it.
    Thread enumerator = new Thread(MetricsEnvironment::getCurrentContainer, "enumerator");
    enumerator.start();
    enumerator.join();
    assertEquals(List.of(), records.stream().map(LogRecord::getMessage).toList());
  }

  @Test
  public void theKafkaReaderInterruptedByTheJobsCancelIsNotShownButItsOtherWarningsAre() {
    LocalRunner.readQuietLoggingConfiguration();
    Handler console = consoleHandler();
    Logger reader = Logger.getLogger("org.apache.beam.sdk.io.kafka.KafkaUnboundedReader");
    LogRecord interrupted = new LogRecord(Level.WARNING, "Reader-0: Unexpected");
    interrupted.setLoggerName(reader.getName());
    interrupted.setThrown(new InterruptedException());
    assertFalse(console.isLoggable(interrupted));
    LogRecord otherWarning = new LogRecord(Level.WARNING, "Reader-0: Unexpected");
    otherWarning.setLoggerName(reader.getName());
    otherWarning.setThrown(new IllegalStateException("broker gone"));
    assertTrue(console.isLoggable(otherWarning));
    LogRecord elsewhere = new LogRecord(Level.WARNING, "interrupted");
    elsewhere.setLoggerName("io.thriftbq.local.stack.ManagedProcess");
    elsewhere.setThrown(new InterruptedException());
    assertTrue(console.isLoggable(elsewhere));
  }

  private static Handler consoleHandler() {
    for (Handler handler : Logger.getLogger("").getHandlers()) {
      if (handler instanceof ConsoleHandler) {
        return handler;
      }
    }
    throw new AssertionError("local mode's logging configuration has no console handler");
  }

  @Test
  public void otherSevereMessagesOfBeamStillShow() {
    LocalRunner.readQuietLoggingConfiguration();
    Logger.getLogger("").addHandler(capture);
    Logger.getLogger("org.apache.beam.sdk.io.kafka.KafkaUnboundedReader")
        .severe("a reader that failed");
    assertTrue(records.stream().anyMatch(r -> r.getMessage().equals("a reader that failed")));
  }
}
