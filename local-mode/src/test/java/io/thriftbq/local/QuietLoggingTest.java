package io.thriftbq.local;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
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
    Logger.getLogger("").addHandler(capture);
    // What Beam's Kafka source does while Flink's split enumerator splits it.
    Thread enumerator = new Thread(MetricsEnvironment::getCurrentContainer, "enumerator");
    enumerator.start();
    enumerator.join();
    assertEquals(List.of(), records.stream().map(LogRecord::getMessage).toList());
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
