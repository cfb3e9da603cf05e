package io.thriftbq.local.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The report names the server that carried the events, and its CPU under its own key. */
public class SourceFiguresTest {
  @Test
  public void kafkaRunsReportTheBrokersCpu() {
    ObjectNode configuration = LoopbackHttp.JSON.createObjectNode().put("source", "kafka");
    assertEquals(
        "kafka_broker_cpu_sec_per_100k_events",
        CostFigures.sourceCpuKey(ReportFigures.sourceKind(configuration)));
    assertEquals(
        "kafka_broker_cpu_sec_per_100k_events",
        CostFigures.sourceCpuKey(ReportFigures.sourceKind(Map.of("source", "kafka"))));
    assertEquals("Kafka broker", ReportFigures.sourceKind(configuration).serverName());
  }

  @Test
  public void pubsubRunsKeepTheirKey() {
    ObjectNode configuration = LoopbackHttp.JSON.createObjectNode().put("source", "pubsub");
    assertEquals(
        "pubsub_emulator_cpu_sec_per_100k_events",
        CostFigures.sourceCpuKey(ReportFigures.sourceKind(configuration)));
    assertEquals(
        "reports written before the source was named",
        "Pub/Sub emulator",
        ReportFigures.sourceKind(LoopbackHttp.JSON.createObjectNode()).serverName());
  }

  @Test
  public void theComparisonLabelsTheSourcesCpuColumn() {
    CompareReport kafka =
        new CompareReport(
            List.of(
                new StepFigures(
                    8,
                    "STORAGE_API_AT_LEAST_ONCE + PROTO",
                    true,
                    200,
                    199.0,
                    200.0,
                    1.0,
                    2.0,
                    3.0,
                    4.0,
                    null,
                    5L,
                    9L,
                    Map.of())),
            "test",
            "Kafka broker");
    assertThat(kafka.table(), containsString("Kafka CPU"));
    assertThat(kafka.table(), containsString("(pipeline, Kafka broker, BigQuery emulator)"));
    assertThat(kafka.html(), containsString("Kafka broker CPU-s /100k"));
  }
}
