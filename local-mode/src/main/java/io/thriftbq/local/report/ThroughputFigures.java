package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.progress.Progress;
import io.thriftbq.local.progress.SteadyWindow;
import io.thriftbq.local.progress.Throughput;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How fast a run published and wrote: the JSON report's {@code throughput} object, whose keys are
 * written and read here only. Figures are rounded to one decimal, as the JSON holds them; a figure
 * the run could not measure is null and left out of the JSON.
 *
 * @param publishEventsPerSec events published per second of publishing
 * @param publishWallSec how long publishing took
 * @param publishWaitedForPipelineSec how long the publisher, after its first event, waited for the
 *     pipeline's first row before pacing the rest; null when it did not wait or went on without one
 * @param rowsPerSecSustained null when no rows were written over a measurable interval
 * @param rowsPerSecSteady over the steady window ({@link SteadyWindow#RATE_HOW}); null when the run
 *     was too short for one
 * @param peakWindow how the peak was taken, in words
 * @param allAccountedAfterSec when the poll first saw every event accounted for
 */
public record ThroughputFigures(
    @Nullable Double publishEventsPerSec,
    @Nullable Double publishWallSec,
    @Nullable Double publishWaitedForPipelineSec,
    @Nullable Double rowsPerSecSustained,
    @Nullable Double rowsPerSecSteady,
    double rowsPerSecPeak5s,
    double writingIntervalSec,
    String peakWindow,
    @Nullable Double allAccountedAfterSec) {
  static final String KEY = "throughput";
  private static final String PUBLISH_EVENTS_PER_SEC = "publish_events_per_sec";
  private static final String PUBLISH_WALL_SEC = "publish_wall_sec";
  private static final String PUBLISH_WAITED_FOR_PIPELINE_SEC = "publish_waited_for_pipeline_sec";
  private static final String ROWS_PER_SEC_SUSTAINED = "rows_per_sec_sustained";
  private static final String ROWS_PER_SEC_STEADY = "rows_per_sec_steady";
  private static final String ROWS_PER_SEC_PEAK_5S = "rows_per_sec_peak_5s";
  private static final String WRITING_INTERVAL_SEC = "writing_interval_sec";
  private static final String PEAK_WINDOW = "peak_window";
  private static final String ALL_ACCOUNTED_AFTER_SEC = "all_accounted_after_sec";

  /**
   * @param steady the run's steady window ({@link SteadyWindow#of(Progress)}), whose rate is the
   *     steady rate
   */
  static ThroughputFigures of(RunResult result, Optional<SteadyWindow> steady) {
    Progress progress = result.progress();
    boolean published = result.generatorMillis() > 0;
    Throughput rates = Throughput.of(progress.timeline(), Throughput.PEAK_WINDOW_MILLIS);
    return new ThroughputFigures(
        published
            ? ReportFigures.round(result.eventsPublished() * 1000.0 / result.generatorMillis())
            : null,
        published ? ReportFigures.round(result.generatorMillis() / 1000.0) : null,
        result.waitedForPipelineMillis() >= 0
            ? ReportFigures.round(result.waitedForPipelineMillis() / 1000.0)
            : null,
        rates.sustainedRowsPerSec() > 0 ? ReportFigures.round(rates.sustainedRowsPerSec()) : null,
        steady.map(w -> ReportFigures.round(w.eventsPerSec())).orElse(null),
        ReportFigures.round(rates.peakRowsPerSec()),
        ReportFigures.round(rates.writingMillis() / 1000.0),
        rates.windowLongerThanWriting()
            ? "whole writing interval, under 5 s"
            : "best window of >= 5 s",
        progress.accountedAtMillis() > 0
            ? ReportFigures.round(progress.accountedAtMillis() / 1000.0)
            : null);
  }

  ObjectNode toJson() {
    ObjectNode json = LoopbackHttp.JSON.createObjectNode();
    ReportFigures.putIfMeasured(json, PUBLISH_EVENTS_PER_SEC, publishEventsPerSec);
    ReportFigures.putIfMeasured(json, PUBLISH_WALL_SEC, publishWallSec);
    ReportFigures.putIfMeasured(json, PUBLISH_WAITED_FOR_PIPELINE_SEC, publishWaitedForPipelineSec);
    ReportFigures.putIfMeasured(json, ROWS_PER_SEC_SUSTAINED, rowsPerSecSustained);
    ReportFigures.putIfMeasured(json, ROWS_PER_SEC_STEADY, rowsPerSecSteady);
    json.put(ROWS_PER_SEC_PEAK_5S, rowsPerSecPeak5s);
    json.put(WRITING_INTERVAL_SEC, writingIntervalSec);
    json.put(PEAK_WINDOW, peakWindow);
    json.put("sustained_how", Throughput.SUSTAINED_HOW);
    json.put("peak_how", Throughput.PEAK_HOW);
    json.put("steady_how", SteadyWindow.RATE_HOW);
    ReportFigures.putIfMeasured(json, ALL_ACCOUNTED_AFTER_SEC, allAccountedAfterSec);
    return json;
  }

  static ThroughputFigures fromJson(JsonNode json) {
    return new ThroughputFigures(
        ReportFigures.number(json.path(PUBLISH_EVENTS_PER_SEC)),
        ReportFigures.number(json.path(PUBLISH_WALL_SEC)),
        ReportFigures.number(json.path(PUBLISH_WAITED_FOR_PIPELINE_SEC)),
        ReportFigures.number(json.path(ROWS_PER_SEC_SUSTAINED)),
        ReportFigures.number(json.path(ROWS_PER_SEC_STEADY)),
        json.path(ROWS_PER_SEC_PEAK_5S).asDouble(),
        json.path(WRITING_INTERVAL_SEC).asDouble(),
        json.path(PEAK_WINDOW).asText(),
        ReportFigures.number(json.path(ALL_ACCOUNTED_AFTER_SEC)));
  }
}
