package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.profile.PipelineProfile;
import io.thriftbq.local.progress.ProgressSample;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.TreeMap;

/**
 * The report as JSON ({@code --report FILE}); the measured figures are {@link ReportFigures}, and
 * every one says how it was measured.
 */
final class ReportJson {
  private ReportJson() {}

  static ObjectNode of(LocalReport report, RunResult result) {
    ObjectNode root = LoopbackHttp.JSON.createObjectNode();
    root.put("status", report.ok() ? "OK" : "FAILED");
    ArrayNode problemsNode = root.putArray("problems");
    report.problems.forEach(problemsNode::add);
    ArrayNode warningsNode = root.putArray("warnings");
    report.warnings.forEach(warningsNode::add);
    root.set(RunConfiguration.KEY, report.configuration.toJson());

    ObjectNode published = root.putObject("published");
    published.put("events", report.eventsPublished);
    published.put("malformed_messages", report.malformedPublished);

    ObjectNode written = root.putObject("table");
    written.put("rows", report.rowsInTable);
    written.put("distinct_event_ids", report.distinctEventIds);
    written.put("rows_without_event_id", report.rowsWithoutEventId);
    written.put("duplicate_ids", report.duplicates.size());
    written.put("duplicate_extra_rows", report.duplicateExtraRows());
    ArrayNode dupSample = written.putArray("duplicate_sample");
    report.duplicates.entrySet().stream()
        .limit(10)
        .forEach(e -> dupSample.addObject().put("event_id", e.getKey()).put("rows", e.getValue()));
    written.put("missing_ids", report.missingIds.size());
    ArrayNode missingSample = written.putArray("missing_sample");
    report.missingIds.stream().limit(20).forEach(missingSample::add);

    if (report.tables != null) {
      report.tables.putJson(root);
    }
    if (report.changeState != null) {
      FinalStateReport.putJson(root, report.changeState);
    }

    ObjectNode dead = root.putObject("dead_letters");
    dead.put("total", report.deadLetters);
    ObjectNode byStage = dead.putObject("by_stage");
    report.deadLettersByStage.forEach(byStage::put);
    dead.put("malformed_found", report.malformedStages.size());
    dead.put("malformed_missing", report.malformedMissing.size());
    ArrayNode wrong = dead.putArray("malformed_wrong_stage");
    report.malformedWrongStage.stream().limit(20).forEach(wrong::add);
    dead.put("valid_events_dead_lettered", report.validEventsDeadLettered.size());
    if (result.typeMix() != null) {
      ObjectNode byStruct = dead.putObject("by_struct");
      for (DeadLetterContents table : result.deadLetterTables()) {
        table
            .byStruct()
            .forEach((struct, n) -> byStruct.put(struct.isEmpty() ? "(none)" : struct, n));
      }
      ArrayNode wrongStruct = dead.putArray("malformed_wrong_struct");
      report.malformedWrongStruct.stream().limit(20).forEach(wrongStruct::add);
    }

    root.set(ThroughputFigures.KEY, report.figures.throughput().toJson());
    root.set(CostFigures.KEY, report.figures.costs().toJson());
    PipelineProfile profile = report.figures.profile();
    if (profile != null) {
      root.set(PipelineProfile.KEY, profile.toJson());
    }
    root.set(LatencyFigures.KEY, report.figures.latency().toJson());

    ObjectNode counters = root.putObject("pipeline_counters");
    new TreeMap<>(result.pipelineCounters()).forEach(counters::put);

    // t_ms counts from this wall-clock time (epoch ms): lets a profile be cut to the same window.
    root.put("timeline_start_epoch_ms", result.progress().startedEpochMillis());
    ArrayNode timeline = root.putArray("timeline");
    for (ProgressSample point : result.progress().timeline()) {
      timeline
          .addObject()
          .put("t_ms", point.elapsedMillis())
          .put("rows", point.rows())
          .put("dead_letters", point.deadLetters());
    }

    ArrayNode samples = root.putArray("sample_rows");
    for (EventTableContents table : result.eventTables()) {
      table.sampleRows().forEach(samples::add);
    }
    if (report.deadLetters > 0) {
      ArrayNode deadSamples = root.putArray("sample_dead_letters");
      for (DeadLetterContents table : result.deadLetterTables()) {
        table.samples().forEach(deadSamples::add);
      }
    }
    return root;
  }
}
