package io.thriftbq.local.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/** The compare-steps page's stacked CPU bars. */
public class CpuBarsTest {
  private static final Map<String, Double> SHARES = new LinkedHashMap<>();

  static {
    SHARES.put("source client", 0.05);
    SHARES.put("engine", 0.20);
    SHARES.put("our decode and convert", 0.02);
    SHARES.put("BigQuery write and gRPC", 0.15);
    SHARES.put("JIT compilers", 0.45);
    SHARES.put("GC", 0.03);
    SHARES.put("other", 0.10);
  }

  private static StepFigures step(int number, Double pipeline, Map<String, Double> shares) {
    return new StepFigures(
        number,
        "step " + number,
        true,
        1000,
        900.0,
        950.0,
        pipeline,
        14.0,
        60.0,
        900.0,
        1.1,
        300L,
        900L,
        shares);
  }

  /** Step 6 profiled (50 CPU-s/100k = 500 µs), 7 not, 8 profiled (30 = 300 µs), 1 unmeasured. */
  private static final List<StepFigures> STEPS =
      List.of(
          step(6, 50.0, SHARES),
          step(7, 70.0, Map.of()),
          step(8, 30.0, SHARES),
          new StepFigures(
              1, "step 1", false, 0, null, null, null, null, null, null, null, null, null,
              Map.of()));

  /** One bar: its step, total and segments (name, µs, width). */
  record Bar(
      int step, double total, List<String> names, List<Double> micros, List<Double> widths) {}

  static List<Bar> bars(String html) {
    List<Bar> bars = new ArrayList<>();
    Matcher group =
        Pattern.compile(
                "<g class=\"cpu-bar\" data-step=\"(\\d+)\" data-total=\"([0-9.]+)\">(.*?)</g>",
                Pattern.DOTALL)
            .matcher(html);
    while (group.find()) {
      Matcher seg =
          Pattern.compile(
                  "<rect class=\"seg\" data-us=\"([0-9.]+)\" x=\"[0-9.]+\" y=\"\\d+\""
                      + " width=\"([0-9.]+)\"[^>]*><title>step \\d+, (.+?): [0-9]")
              .matcher(group.group(3));
      List<String> names = new ArrayList<>();
      List<Double> micros = new ArrayList<>();
      List<Double> widths = new ArrayList<>();
      while (seg.find()) {
        micros.add(Double.parseDouble(seg.group(1)));
        widths.add(Double.parseDouble(seg.group(2)));
        names.add(seg.group(3));
      }
      bars.add(
          new Bar(
              Integer.parseInt(group.group(1)),
              Double.parseDouble(group.group(2)),
              names,
              micros,
              widths));
    }
    return bars;
  }

  @Test
  public void oneBarPerStepWhoseSegmentsSumToItsTotal() {
    String html = new CpuBars(STEPS, "Pub/Sub emulator").html("how the CPU is measured");
    List<Bar> bars = bars(html);
    assertEquals(List.of(6, 7, 8, 1), bars.stream().map(Bar::step).toList());
    for (Bar bar : bars) {
      assertEquals(
          "step " + bar.step(),
          bar.total(),
          bar.micros().stream().mapToDouble(Double::doubleValue).sum(),
          0.01);
    }
    // Step 6: pipeline 500 µs in 7 groups, then the emulators (140 and 600 µs).
    Bar six = bars.get(0);
    assertEquals(9, six.names().size());
    assertEquals("pipeline: source client", six.names().get(0));
    assertEquals(25.0, six.micros().get(0), 0.001);
    assertEquals("pipeline: JIT compilers", six.names().get(4));
    assertEquals(225.0, six.micros().get(4), 0.001);
    assertEquals(List.of("Pub/Sub emulator", "BigQuery emulator"), six.names().subList(7, 9));
    assertEquals(1240.0, six.total(), 0.001);
    // Not profiled: the pipeline is one segment.
    Bar seven = bars.get(1);
    assertEquals(List.of(CpuBars.UNPROFILED, "Pub/Sub emulator", CpuBars.BIGQUERY), seven.names());
    assertEquals(700.0, seven.micros().get(0), 0.001);
    // Nothing measured: an empty bar that says so.
    assertEquals(List.of(), bars.get(3).names());
    assertThat(html, containsString("n/a</text></g>"));
  }

  @Test
  public void barsShareOneScaleAndTheLongestFillsTheWidth() {
    List<Bar> bars = bars(new CpuBars(STEPS, "Kafka broker").html("how"));
    double longest = bars.get(1).widths().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(560.0, longest, 0.1); // step 7: 700 + 140 + 600 = 1,440 µs, the largest
    double six = bars.get(0).widths().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(560.0 * 1240 / 1440, six, 0.1);
    assertEquals("Kafka broker", bars.get(0).names().get(7));
  }

  @Test
  public void theLegendAndTableNameEverySegmentOnce() {
    String html = new CpuBars(STEPS, "Pub/Sub emulator").html("how the CPU is measured");
    String legend = html.substring(0, html.indexOf("<g class=\"cpu-bar\""));
    for (String name :
        List.of("pipeline: engine", CpuBars.UNPROFILED, "Pub/Sub emulator", "BigQuery emulator")) {
      assertEquals(name, 1, legend.split(Pattern.quote(">" + name + "<"), -1).length - 1);
    }
    String table = html.substring(html.indexOf("<table class=\"cpu\""));
    // Step 8's JIT: 45% of 300 µs.
    assertThat(table, containsString("<td>135 (45%)</td>"));
    assertThat(table, containsString("<td>8</td>"));
    assertThat(html, containsString("how the CPU is measured"));
    assertThat(html, not(containsString("<script")));
  }
}
