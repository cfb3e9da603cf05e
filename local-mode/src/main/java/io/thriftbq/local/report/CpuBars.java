package io.thriftbq.local.report;

import io.thriftbq.local.profile.ComponentRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The compare-steps page's CPU chart: one stacked horizontal bar per step, in µs of CPU per event:
 * the pipeline by component group (when the step was profiled; else one segment), then the server
 * the events went through and the BigQuery emulator. Inline SVG with a legend, each segment's
 * figures on hover, and the same figures in a table under it; no script.
 */
final class CpuBars {
  static final String HOW =
      "µs of CPU per event (10 µs per event = 1 CPU-second per 100,000 events), between the same"
          + " two polls as the table's CPU columns. The pipeline's part is split by the profile"
          + " (--profile, on by default with --compare-steps): Java Flight Recorder's samples in"
          + " the pipeline's JVM, each thread's CPU from /proc spread over its samples' components"
          + " (rules: components.tsv in local mode) and grouped; the segments are the groups'"
          + " shares of the pipeline's CPU figure. gRPC's transport serves both the Storage Write"
          + " and the Pub/Sub client and is drawn with the BigQuery write. JIT is the JVM"
          + " compiling hot code, large in a run of minutes and amortized on a long-running"
          + " worker; the steps run one after another in one JVM, so the first steps pay most of"
          + " it. A profile of a few seconds has few samples (JFR samples only threads running"
          + " Java code; the JSON report gives the count): read small segments as rough. A step"
          + " run with --no-profile shows the pipeline as one segment. The"
          + " emulators' segments are their whole processes: local machinery that Dataflow does"
          + " not run.";

  /** Colours of the profile's groups, in the rules' group order. */
  private static final List<String> GROUP_COLORS =
      List.of("#3b6fd4", "#8ab4f8", "#a142f4", "#12b5cb", "#e8710a", "#d93025", "#9aa0a6");

  static final String UNPROFILED = "pipeline (not profiled)";
  private static final String UNPROFILED_COLOR = "#1a73e8";
  private static final String SOURCE_COLOR = "#fbbc04";
  static final String BIGQUERY = "BigQuery emulator";
  private static final String BIGQUERY_COLOR = "#34a853";

  private static final int LABEL_WIDTH = 90;
  private static final int BAR_WIDTH = 560;
  private static final int BAR_HEIGHT = 18;
  private static final int GAP = 8;
  private static final int WIDTH = LABEL_WIDTH + BAR_WIDTH + 110;

  /**
   * One segment of a bar.
   *
   * @param pipelineShare its share of the pipeline's CPU, for the pipeline's groups; else null
   */
  record Segment(String name, String color, double micros, Double pipelineShare) {}

  private final List<StepFigures> steps;
  private final String sourceServer;

  CpuBars(List<StepFigures> steps, String sourceServer) {
    this.steps = List.copyOf(steps);
    this.sourceServer = sourceServer;
  }

  /** A step's segments, in drawing order; figures the run could not measure are left out. */
  List<Segment> segments(StepFigures f) {
    List<Segment> segments = new ArrayList<>();
    if (f.pipelineCpuPer100k() != null) {
      double pipeline = f.pipelineCpuPer100k() * 10;
      if (f.pipelineShareByGroup().isEmpty()) {
        segments.add(new Segment(UNPROFILED, UNPROFILED_COLOR, pipeline, null));
      } else {
        for (var group : f.pipelineShareByGroup().entrySet()) {
          segments.add(
              new Segment(
                  pipelineName(group.getKey()),
                  groupColor(group.getKey()),
                  group.getValue() * pipeline,
                  group.getValue()));
        }
      }
    }
    if (f.sourceCpuPer100k() != null) {
      segments.add(new Segment(sourceServer, SOURCE_COLOR, f.sourceCpuPer100k() * 10, null));
    }
    if (f.bigqueryCpuPer100k() != null) {
      segments.add(new Segment(BIGQUERY, BIGQUERY_COLOR, f.bigqueryCpuPer100k() * 10, null));
    }
    return segments;
  }

  static String pipelineName(String group) {
    return "pipeline: " + group;
  }

  private static String groupColor(String group) {
    int index = ComponentRules.standard().groups().indexOf(group);
    return index >= 0 && index < GROUP_COLORS.size() ? GROUP_COLORS.get(index) : "#5f6368";
  }

  /** The chart, its legend and its table; {@code cpuHow} says how the CPU figures are measured. */
  String html(String cpuHow) {
    Map<String, String> legend = new LinkedHashMap<>();
    Map<Integer, List<Segment>> byStep = new LinkedHashMap<>();
    double max = 0;
    for (StepFigures f : steps) {
      List<Segment> segments = segments(f);
      byStep.put(f.step(), segments);
      segments.forEach(s -> legend.putIfAbsent(s.name(), s.color()));
      max = Math.max(max, segments.stream().mapToDouble(Segment::micros).sum());
    }
    StringBuilder svg = new StringBuilder();
    String title = "CPU per event by component, µs (lower is better)";
    svg.append("<div class=\"chart\"><h2>").append(CompareReport.escape(title)).append("</h2>\n");
    StringBuilder legendSvg = new StringBuilder();
    int x = LABEL_WIDTH;
    int y = 4;
    for (var item : legend.entrySet()) {
      int itemWidth = 24 + 7 * item.getKey().length();
      if (x + itemWidth > WIDTH && x > LABEL_WIDTH) {
        x = LABEL_WIDTH;
        y += 18;
      }
      legendSvg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>\n",
              x,
              y,
              item.getValue(),
              x + 16,
              y + 10,
              CompareReport.escape(item.getKey())));
      x += itemWidth;
    }
    int top = y + 24;
    int height = top + steps.size() * (BAR_HEIGHT + GAP) + 6;
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " role=\"img\" aria-label=\"%s\" font-family=\"sans-serif\" font-size=\"12\">\n",
            WIDTH,
            height,
            CompareReport.escape(title)));
    svg.append(legendSvg);
    int barY = top;
    for (StepFigures f : steps) {
      List<Segment> segments = byStep.get(f.step());
      double total = segments.stream().mapToDouble(Segment::micros).sum();
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"cpu-bar\" data-step=\"%d\" data-total=\"%.3f\">"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">step %d</text>\n",
              f.step(),
              total,
              LABEL_WIDTH - 8,
              barY + BAR_HEIGHT / 2 + 4,
              f.step()));
      double left = LABEL_WIDTH;
      for (Segment s : segments) {
        double w = max > 0 ? s.micros() / max * BAR_WIDTH : 0;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"seg\" data-us=\"%.3f\" x=\"%.2f\" y=\"%d\" width=\"%.2f\""
                    + " height=\"%d\" fill=\"%s\"><title>step %d, %s: %s</title></rect>\n",
                s.micros(),
                left,
                barY,
                w,
                BAR_HEIGHT,
                s.color(),
                f.step(),
                CompareReport.escape(s.name()),
                CompareReport.escape(describe(s, total))));
        left += w;
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\">%s</text></g>\n",
              left + 4,
              barY + BAR_HEIGHT - 4,
              total > 0 ? CompareReport.format(total, 0) + " µs" : "n/a"));
      barY += BAR_HEIGHT + GAP;
    }
    svg.append("</svg>\n");
    svg.append(table(legend, byStep));
    svg.append("<p class=\"how\">").append(CompareReport.escape(cpuHow)).append("</p>\n");
    svg.append("<p class=\"how\">").append(CompareReport.escape(HOW)).append("</p></div>\n");
    return svg.toString();
  }

  private static String describe(Segment s, double total) {
    String text =
        String.format(
            Locale.ROOT,
            "%s µs per event, %.0f%% of the step's CPU",
            CompareReport.format(s.micros(), 1),
            total > 0 ? 100 * s.micros() / total : 0);
    return s.pipelineShare() == null
        ? text
        : text + String.format(Locale.ROOT, ", %.0f%% of the pipeline's", 100 * s.pipelineShare());
  }

  /** The bars' figures: a row per step, a column per segment. */
  private String table(Map<String, String> legend, Map<Integer, List<Segment>> byStep) {
    StringBuilder h =
        new StringBuilder(
            "<table class=\"cpu\"><caption>µs of CPU per event; in brackets, the share of the"
                + " pipeline's CPU</caption><tr><th>step</th>");
    for (var item : legend.entrySet()) {
      h.append("<th><span style=\"color:")
          .append(item.getValue())
          .append("\">&#9632;</span> ")
          .append(CompareReport.escape(item.getKey()))
          .append("</th>");
    }
    h.append("<th>total</th></tr>\n");
    for (var step : byStep.entrySet()) {
      h.append("<tr><td>").append(step.getKey()).append("</td>");
      for (String name : legend.keySet()) {
        Segment s =
            step.getValue().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        h.append("<td>");
        if (s != null) {
          h.append(CompareReport.format(s.micros(), 0));
          if (s.pipelineShare() != null) {
            h.append(String.format(Locale.ROOT, " (%.0f%%)", 100 * s.pipelineShare()));
          }
        }
        h.append("</td>");
      }
      double total = step.getValue().stream().mapToDouble(Segment::micros).sum();
      h.append("<td>").append(total > 0 ? CompareReport.format(total, 0) : "n/a");
      h.append("</td></tr>\n");
    }
    return h.append("</table>\n").toString();
  }
}
