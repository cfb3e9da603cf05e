package io.thriftbq.local.report;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.thriftbq.local.config.TuningStep;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The comparison's table and its self-contained HTML charts, rendered by a headless Chromium. */
public class CompareReportTest {
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  private static final List<StepFigures> FIGURES =
      List.of(
          new StepFigures(
              1,
              "STREAMING_INSERTS + TABLE_ROW",
              true,
              900,
              450.0,
              460.0,
              150.0,
              40.0,
              90.0,
              1505.0,
              0.0,
              700L,
              1900L,
              Map.of()),
          new StepFigures(
              6,
              "STORAGE_WRITE_API + <AVRO>",
              false,
              900,
              900.0,
              880.0,
              75.0,
              38.0,
              73.0,
              793.0,
              3.5,
              1200L,
              2500L,
              Map.of()),
          new StepFigures(
              8,
              "STORAGE_API_AT_LEAST_ONCE + PROTO",
              true,
              900,
              null,
              null,
              null,
              null,
              null,
              897.0,
              null,
              null,
              null,
              Map.of()));

  private static CompareReport report() {
    return new CompareReport(FIGURES, "test run & co");
  }

  @Test
  public void everyFigureIsABarScaledToTheLargestOfItsChart() {
    String html = report().html();
    List<String> bars = CompareReport.barTitles(html);
    // sustained 2 + steady 2, bytes 3, exchanged 2, latency 2+2 (step 8 has no figures but
    // bytes); the CPU chart's stacked bars are CpuBars' (CpuBarsTest)
    assertEquals(bars.toString(), 13, bars.size());
    assertTrue(bars.toString(), bars.contains("step 6 sustained: 900"));
    assertTrue(bars.toString(), bars.contains("step 6 steady: 880"));
    assertTrue(bars.toString(), bars.contains("step 6 bytes/byte: 3.50"));
    assertTrue(bars.toString(), bars.contains("step 6 p99: 2,500"));
    // The largest events/s bar spans the whole width; half of it, half the width.
    assertEquals(560.0, barWidth(html, "step 6 sustained"), 0.01);
    assertEquals(280.0, barWidth(html, "step 1 sustained"), 0.01);
    assertEquals(560.0 * 880 / 900, barWidth(html, "step 6 steady"), 0.05);
    // The CPU chart: one stacked bar per step, in µs per event; step 8 measured none.
    List<CpuBarsTest.Bar> cpu = CpuBarsTest.bars(html);
    assertEquals(List.of(1, 6, 8), cpu.stream().map(CpuBarsTest.Bar::step).toList());
    assertEquals(List.of(1500.0, 400.0, 900.0), cpu.get(0).micros());
    assertEquals(List.of(), cpu.get(2).micros());
  }

  @Test
  public void thePageIsSelfContainedAndEscaped() {
    String html = report().html();
    assertThat(html, not(containsString("<script")));
    assertThat(html, not(containsString("src=")));
    assertThat(html, not(containsString("href=")));
    assertEquals(
        "only the SVG namespace names a URL",
        html.split("http").length - 1,
        html.split("http://www.w3.org/2000/svg").length - 1);
    assertThat(html, containsString("STORAGE_WRITE_API + &lt;AVRO&gt;"));
    assertThat(html, containsString("test run &amp; co"));
    assertThat(html, containsString("class=\"failed\">FAILED"));
    for (String how : CompareReport.HOW) {
      assertThat(html, containsString(CompareReport.escape(how)));
    }
  }

  @Test
  public void theTableHasALinePerStepWithItsResult() {
    String table = report().table();
    assertThat(table, containsString("test run & co"));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("1 ") && l.contains(" OK ")));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("6 ") && l.contains("FAILED")));
    assertTrue(table, table.lines().anyMatch(l -> l.startsWith("8 ") && l.contains("n/a")));
  }

  /**
   * Renders the page in a headless Chromium (Debian's {@code chromium}; scripts/test-all.sh
   * installs it) and checks the bars are on screen in their colours.
   */
  @Test
  public void chromiumDrawsTheCharts() throws Exception {
    String chromium = findChromium();
    if (System.getenv("THRIFTBQ_REQUIRE_CHROMIUM") == null) {
      assumeTrue("chromium is not installed (scripts/test-all.sh installs it)", chromium != null);
    }
    assertTrue("scripts/test-all.sh installs chromium; it is missing", chromium != null);
    Path html = temp.newFile("compare.html").toPath();
    Files.writeString(html, report().html());
    Path png = temp.getRoot().toPath().resolve("compare.png");
    Process process =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + temp.newFolder("profile"),
                "--window-size=900,2200",
                "--screenshot=" + png,
                html.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(temp.newFile("chromium.log"))
            .start();
    assertTrue("chromium finished", process.waitFor(90, TimeUnit.SECONDS));
    assertTrue("screenshot written", Files.size(png) > 0);
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat("events/s and pipeline CPU bars", pixels(image, 0x1a73e8), greaterThan(5_000));
    assertThat("BigQuery emulator CPU bars", pixels(image, 0x34a853), greaterThan(1_000));
    assertThat("p99 bars", pixels(image, 0xd93025), greaterThan(1_000));
  }

  /**
   * The table fits the page at the size the chart test renders it: every step with its real
   * description and wide figures, measured in Chromium (scrollWidth of the table against the width
   * of its container, and of the page against the window). The page carries no script, so the test
   * renders a copy with one that writes the measurements into the DOM.
   */
  @Test
  public void chromiumFitsTheTableInThePage() throws Exception {
    String chromium = findChromium();
    if (System.getenv("THRIFTBQ_REQUIRE_CHROMIUM") == null) {
      assumeTrue("chromium is not installed (scripts/test-all.sh installs it)", chromium != null);
    }
    assertTrue("scripts/test-all.sh installs chromium; it is missing", chromium != null);
    List<StepFigures> figures = new java.util.ArrayList<>();
    for (TuningStep step : TuningStep.all()) {
      figures.add(
          new StepFigures(
              step.number(),
              step.describe(),
              step.number() % 2 == 0,
              123_456,
              123_456.7,
              123_456.7,
              12_345.6,
              12_345.6,
              12_345.6,
              123_456.0,
              123.45,
              1_234_567L,
              12_345_678L,
              Map.of()));
    }
    String measure =
        "<script>var t=document.querySelector('table');document.body.setAttribute('data-fit',"
            + "t.scrollWidth+' '+t.parentElement.clientWidth+' '"
            + "+document.documentElement.scrollWidth+' '+window.innerWidth)</script></body>";
    Path html = temp.newFile("fit.html").toPath();
    Files.writeString(html, new CompareReport(figures, "fit").html().replace("</body>", measure));
    Process process =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + temp.newFolder("fit-profile"),
                "--window-size=900,2200",
                "--dump-dom",
                html.toUri().toString())
            .redirectError(temp.newFile("fit-chromium.log"))
            .start();
    String dom = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue("chromium finished", process.waitFor(90, TimeUnit.SECONDS));
    Matcher fit = Pattern.compile("data-fit=\"(\\d+) (\\d+) (\\d+) (\\d+)\"").matcher(dom);
    assertTrue("measurements in the DOM", fit.find());
    int table = Integer.parseInt(fit.group(1));
    int container = Integer.parseInt(fit.group(2));
    int page = Integer.parseInt(fit.group(3));
    int window = Integer.parseInt(fit.group(4));
    assertThat("the table's width", table, lessThanOrEqualTo(container));
    assertThat("the page's width", page, lessThanOrEqualTo(window));
  }

  private static int pixels(BufferedImage image, int rgb) {
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
          count++;
        }
      }
    }
    return count;
  }

  private static String findChromium() {
    for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        File candidate = new File(dir, name);
        if (candidate.canExecute()) {
          return candidate.getPath();
        }
      }
    }
    return null;
  }

  private static double barWidth(String html, String titlePrefix) {
    Matcher m =
        Pattern.compile(
                "<rect class=\"bar\" x=\"[0-9.]+\" y=\"[0-9]+\" width=\"([0-9.]+)\"[^>]*><title>"
                    + Pattern.quote(titlePrefix)
                    + ":")
            .matcher(html);
    assertTrue("bar " + titlePrefix, m.find());
    return Double.parseDouble(m.group(1));
  }
}
