package io.thriftbq.local.report;

import io.thriftbq.local.progress.SteadyWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The tuning steps side by side: a plain-text table for the terminal and a self-contained HTML page
 * (inline SVG charts, no script, nothing fetched) for a person to look at; its CPU chart is {@link
 * CpuBars}.
 */
public final class CompareReport {
  /** How each column was measured, printed under the table and the charts. */
  static final List<String> HOW =
      List.of(
          "Sustained events/s: rows written to the event table, counted in the BigQuery"
              + " emulator once a second, from the first poll that saw rows to the first that saw"
              + " the final count, so it includes the publisher's ramp up to --rate (--ramp-up)."
              + " Steady events/s: "
              + SteadyWindow.RATE_HOW
              + "; a step that keeps up shows about --rate, a slower one its ceiling on this"
              + " machine.",
          "CPU-s per 100k events: "
              + SteadyWindow.DEFINITION
              + " The pipeline is this JVM's process CPU less the publisher's and the poller's"
              + " threads (engine, Beam, our code, GC, JIT); each emulator is its process tree.",
          "Bytes per element: the mean encoded size of the collection handed to BigQueryIO (the"
              + " step's format, with its coder), over the first 1,000 generated events.",
          "Exchanged bytes per input byte: bytes Flink's tasks wrote into data exchanges (every"
              + " shuffle) over the Thrift payload bytes published; on the DirectRunner, n/a.",
          "Latency: from the event's creation to its row being sent to the emulator, for "
              + SteadyWindow.LATENCY_WARM_UP
              + "; p50 and p99; ? when no event was created after the warm-up (a run shorter than"
              + " it).",
          "Of ceiling: steady events/s (sustained counts the pipeline's start) as a share of"
              + " this machine's bare Storage Write append ceiling at "
              + MachineCeilings.APPEND_ROWS
              + " rows per request, "
              + MachineCeilings.HOW
              + " n/a with --no-ceilings or without a steady window.");

  private final List<StepFigures> steps;
  private final String setting;
  private final String sourceServer;
  private final @Nullable MachineCeilings ceilings;

  /** A comparison of runs through the Pub/Sub emulator. */
  public CompareReport(List<StepFigures> steps, String setting) {
    this(steps, setting, "Pub/Sub emulator");
  }

  /**
   * @param setting one line on what was run: events, rate, engine, machine
   * @param sourceServer the server the events went through, whose CPU is a column: "Pub/Sub
   *     emulator" or "Kafka broker"
   */
  public CompareReport(List<StepFigures> steps, String setting, String sourceServer) {
    this(steps, setting, sourceServer, null);
  }

  /**
   * @param ceilings this machine's bare emulator ceilings, measured in the same run; null when not
   *     measured
   */
  public CompareReport(
      List<StepFigures> steps,
      String setting,
      String sourceServer,
      @Nullable MachineCeilings ceilings) {
    this.steps = List.copyOf(steps);
    this.setting = setting;
    this.sourceServer = sourceServer;
    this.ceilings = ceilings;
  }

  /** A step's steady rate as a share of the append ceiling, or n/a. */
  private String ofCeiling(StepFigures f) {
    return format(ceilings == null ? null : ceilings.ofAppendCeiling(f.steadyEventsPerSec()), 2);
  }

  public List<StepFigures> steps() {
    return steps;
  }

  /** The table for the terminal. */
  public String table() {
    StringBuilder s = new StringBuilder();
    s.append("\n=== Tuning steps compared: ").append(setting).append(" ===\n");
    if (ceilings != null) {
      s.append(ceilings.describe()).append('\n');
    }
    s.append(
        String.format(
            "%-4s %-52s %-6s %10s %9s %8s %10s %10s %10s %8s %9s %8s %8s%n",
            "step",
            "configuration",
            "result",
            "events/s",
            "steady/s",
            "of ceil.",
            "pipe CPU",
            sourceServer.startsWith("Kafka") ? "Kafka CPU" : "PS CPU",
            "BQ CPU",
            "B/elem",
            "exch B/B",
            "p50 ms",
            "p99 ms"));
    for (StepFigures f : steps) {
      s.append(
          String.format(
              "%-4d %-52s %-6s %10s %9s %8s %10s %10s %10s %8s %9s %8s %8s%n",
              f.step(),
              truncate(f.describe(), 52),
              f.ok() ? "OK" : "FAILED",
              format(f.sustainedEventsPerSec(), 0),
              format(f.steadyEventsPerSec(), 0),
              ofCeiling(f),
              format(f.pipelineCpuPer100k(), 1),
              format(f.sourceCpuPer100k(), 1),
              format(f.bigqueryCpuPer100k(), 1),
              format(f.encodedBytesPerElement(), 0),
              format(f.exchangedBytesPerInputByte(), 2),
              f.latencyP50Millis() == null ? "?" : f.latencyP50Millis().toString(),
              f.latencyP99Millis() == null ? "?" : f.latencyP99Millis().toString()));
    }
    s.append("CPU columns: CPU-seconds per 100,000 events (pipeline, ")
        .append(sourceServer)
        .append(", BigQuery emulator).\n");
    for (String how : HOW) {
      s.append("- ").append(how).append('\n');
    }
    return s.toString();
  }

  /** The self-contained HTML page. */
  public String html() {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Tuning steps compared</title><style>")
        .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}")
        // A fixed layout at the page's width wraps long names and headers instead of widening the
        // table past the page (the p99 column used to end up behind a scroll bar).
        .append("table{border-collapse:collapse;font-size:13px;width:100%;table-layout:fixed}")
        .append("td,th{border:1px solid #ccc;padding:3px 4px;text-align:right;")
        .append("overflow-wrap:anywhere}")
        .append("th{font-weight:600;font-size:11px;vertical-align:bottom}")
        .append("td:nth-child(2),th:nth-child(2){text-align:left}")
        .append(".chart{margin:1.5em 0}.failed{color:#b00020;font-weight:bold}")
        .append("table.cpu{margin-top:6px}table.cpu td:nth-child(2){text-align:right}")
        .append("h2{font-size:18px;margin-bottom:4px}p.how{font-size:13px;color:#555;margin:2px 0}")
        .append("</style></head><body>\n");
    h.append("<h1>Tuning steps compared</h1>\n<p>").append(escape(setting)).append("</p>\n");
    if (ceilings != null) {
      h.append("<p>").append(escape(ceilings.describe())).append("</p>\n");
    }
    // Widths that fit the longest header word of each column at 900 px; the configuration wraps.
    h.append("<div class=\"steps\"><table><colgroup><col style=\"width:5%\">")
        .append("<col style=\"width:21%\"><col style=\"width:6%\">")
        .append("<col span=\"10\" style=\"width:6.8%\"></colgroup>\n")
        .append("<tr><th>step</th><th>configuration</th><th>result</th><th>events/s</th>")
        .append("<th>steady events/s</th>")
        .append("<th>of append ceiling</th>")
        .append("<th>pipeline CPU-s /100k</th><th>")
        .append(escape(sourceServer.replace("emulator", "emul.")))
        .append(" CPU-s /100k</th>")
        .append("<th>BigQuery emul. CPU-s /100k</th><th>bytes / element</th>")
        .append("<th>exch. bytes / input byte</th><th>p50 ms</th><th>p99 ms</th></tr>\n");
    for (StepFigures f : steps) {
      h.append("<tr><td>")
          .append(f.step())
          .append("</td><td>")
          .append(escape(f.describe()))
          .append("</td><td")
          .append(f.ok() ? ">OK" : " class=\"failed\">FAILED")
          .append("</td><td>")
          .append(format(f.sustainedEventsPerSec(), 0))
          .append("</td><td>")
          .append(format(f.steadyEventsPerSec(), 0))
          .append("</td><td>")
          .append(ofCeiling(f))
          .append("</td><td>")
          .append(format(f.pipelineCpuPer100k(), 1))
          .append("</td><td>")
          .append(format(f.sourceCpuPer100k(), 1))
          .append("</td><td>")
          .append(format(f.bigqueryCpuPer100k(), 1))
          .append("</td><td>")
          .append(format(f.encodedBytesPerElement(), 0))
          .append("</td><td>")
          .append(format(f.exchangedBytesPerInputByte(), 2))
          .append("</td><td>")
          .append(f.latencyP50Millis() == null ? "?" : f.latencyP50Millis())
          .append("</td><td>")
          .append(f.latencyP99Millis() == null ? "?" : f.latencyP99Millis())
          .append("</td></tr>\n");
    }
    h.append("</table></div>\n<p class=\"how\">").append(escape(HOW.get(5))).append("</p>\n");
    h.append(
        chart(
            "Events/s, sustained and steady (higher is better)",
            List.of(
                new Series("sustained", "#1a73e8", StepFigures::sustainedEventsPerSec),
                new Series("steady", "#188038", StepFigures::steadyEventsPerSec)),
            0,
            HOW.get(0)));
    h.append(new CpuBars(steps, sourceServer).html(HOW.get(1)));
    h.append(
        chart(
            "Encoded bytes per element handed to BigQueryIO",
            List.of(new Series("bytes", "#a142f4", StepFigures::encodedBytesPerElement)),
            0,
            HOW.get(2)));
    h.append(
        chart(
            "Bytes through data exchanges per input byte",
            List.of(new Series("bytes/byte", "#e8710a", StepFigures::exchangedBytesPerInputByte)),
            2,
            HOW.get(3)));
    h.append(
        chart(
            "End-to-end latency, ms (lower is better)",
            List.of(
                new Series("p50", "#12b5cb", f -> toDouble(f.latencyP50Millis())),
                new Series("p99", "#d93025", f -> toDouble(f.latencyP99Millis()))),
            0,
            HOW.get(4)));
    h.append("</body></html>\n");
    return h.toString();
  }

  /** One bar series of a chart: a name, a colour and the figure it draws. */
  record Series(String name, String color, Function<StepFigures, Double> value) {}

  private static final int LABEL_WIDTH = 90;
  private static final int BAR_WIDTH = 560;
  private static final int BAR_HEIGHT = 16;
  private static final int GAP = 10;

  /**
   * A horizontal bar chart, one group per step: with up to two series, one bar each side by side;
   * with more (the CPU chart, whose parts add up to the whole), the series stacked in one bar.
   */
  private String chart(String title, List<Series> series, int decimals, String how) {
    boolean stacked = series.size() > 2;
    double max = 0;
    for (StepFigures f : steps) {
      double total = 0;
      for (Series s : series) {
        Double v = s.value().apply(f);
        if (v != null) {
          total = stacked ? total + v : Math.max(total, v);
        }
      }
      max = Math.max(max, total);
    }
    int barsPerStep = stacked ? 1 : series.size();
    int groupHeight = barsPerStep * BAR_HEIGHT + GAP;
    int legendHeight = 24;
    int height = legendHeight + steps.size() * groupHeight + 10;
    int width = LABEL_WIDTH + BAR_WIDTH + 110;
    StringBuilder svg = new StringBuilder();
    svg.append("<div class=\"chart\"><h2>").append(escape(title)).append("</h2>\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " role=\"img\" aria-label=\"%s\" font-family=\"sans-serif\" font-size=\"12\">\n",
            width,
            height,
            escape(title)));
    int legendX = LABEL_WIDTH;
    for (Series s : series) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"4\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"14\">%s</text>\n",
              legendX,
              s.color(),
              legendX + 16,
              escape(s.name())));
      legendX += 24 + 8 * s.name().length();
    }
    int y = legendHeight;
    for (StepFigures f : steps) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">step %d</text>\n",
              LABEL_WIDTH - 8,
              y + barsPerStep * BAR_HEIGHT / 2 + 4,
              f.step()));
      double x = LABEL_WIDTH;
      double total = 0;
      for (int i = 0; i < series.size(); i++) {
        Series s = series.get(i);
        Double v = s.value().apply(f);
        int barY = stacked ? y : y + i * BAR_HEIGHT;
        if (v == null) {
          if (!stacked) {
            svg.append(
                String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" fill=\"#777\">n/a</text>\n",
                    LABEL_WIDTH + 4,
                    barY + BAR_HEIGHT - 4));
          }
          continue;
        }
        double w = max > 0 ? v / max * BAR_WIDTH : 0;
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                    + "<title>step %d %s: %s</title></rect>\n",
                x,
                barY,
                w,
                BAR_HEIGHT - 2,
                s.color(),
                f.step(),
                escape(s.name()),
                format(v, decimals)));
        if (stacked) {
          x += w;
          total += v;
        } else {
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
                  LABEL_WIDTH + w + 4,
                  barY + BAR_HEIGHT - 4,
                  format(v, decimals)));
        }
      }
      if (stacked) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
                x + 4,
                y + BAR_HEIGHT - 4,
                total > 0 ? format(total, decimals) : "n/a"));
      }
      y += groupHeight;
    }
    svg.append("</svg>\n<p class=\"how\">").append(escape(how)).append("</p></div>\n");
    return svg.toString();
  }

  static String format(Double value, int decimals) {
    if (value == null) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", value);
  }

  private static Double toDouble(Long value) {
    return value == null ? null : value.doubleValue();
  }

  private static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  static String escape(String text) {
    StringBuilder s = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> s.append("&lt;");
        case '>' -> s.append("&gt;");
        case '&' -> s.append("&amp;");
        case '"' -> s.append("&quot;");
        default -> s.append(c);
      }
    }
    return s.toString();
  }

  /** Bars drawn per chart, for tests: one rect per non-null figure. */
  static List<String> barTitles(String html) {
    List<String> titles = new ArrayList<>();
    int at = 0;
    while ((at = html.indexOf("<rect class=\"bar\"", at)) >= 0) {
      int start = html.indexOf("<title>", at) + "<title>".length();
      titles.add(html.substring(start, html.indexOf("</title>", start)));
      at = start;
    }
    return titles;
  }
}
