package io.thriftbq.local;

import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.BadFlagException;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.report.CompareReport;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.report.MachineCeilings;
import io.thriftbq.local.report.StepFigures;
import io.thriftbq.local.run.BareCeilings;
import io.thriftbq.local.run.LaunchCheck;
import io.thriftbq.local.run.LocalRun;
import io.thriftbq.local.run.SaturationPriority;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.LogManager;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code scripts/run-local.sh}: starts the emulators (or the Kafka broker), runs one tuning step
 * end to end, prints the report (and writes it as JSON), stops everything it started and exits
 * non-zero when an event was lost or an exactly-once step wrote a duplicate.
 */
public final class LocalRunner {
  /** Events (messages, rows) each ceiling of --compare-steps is measured with: a few seconds. */
  private static final int CEILING_EVENTS = 10_000;

  private LocalRunner() {}

  public static void main(String[] args) {
    quietLogging();
    // The Storage Write client leaves a non-daemon thread behind: exit explicitly.
    System.exit(run(args, System.out, System.err));
  }

  private static void quietLogging() {
    if (System.getProperty("java.util.logging.config.file") == null) {
      readQuietLoggingConfiguration();
    }
  }

  /** Local mode's logging levels ({@code thriftbq-local-logging.properties}). */
  static void readQuietLoggingConfiguration() {
    try (InputStream config =
        LocalRunner.class.getResourceAsStream("/thriftbq-local-logging.properties")) {
      if (config != null) {
        LogManager.getLogManager().readConfiguration(config);
      }
    } catch (IOException e) {
      // Keep the default configuration: noisier, but nothing is lost.
    }
  }

  /** Runs each listed step on the same events, one after another, and reports them together. */
  static int compareSteps(EmulatorStack stack, LocalRunConfig config, PrintStream out)
      throws Exception {
    List<StepFigures> figures = new ArrayList<>();
    List<LocalReport> reports = new ArrayList<>();
    String suffix = Long.toString(System.currentTimeMillis() % 1_000_000);
    Map<TuningStep, LocalRunConfig> steps = new LinkedHashMap<>();
    for (TuningStep step : config.comparedSteps()) {
      steps.put(step, config.forComparedStep(step, "compare_step" + step.number() + "_" + suffix));
    }
    MachineCeilings ceilings = config.ceilings() ? ceilings(stack, config, suffix, out) : null;
    // After the ceilings, which are measured as they always are: nothing else runs then.
    SaturationPriority.beforeComparison(stack, steps.values(), out);
    for (Map.Entry<TuningStep, LocalRunConfig> entry : steps.entrySet()) {
      TuningStep step = entry.getKey();
      LocalRunConfig one = entry.getValue();
      LocalReport report = new LocalRun(stack, one, out).execute();
      // The cancelled step's cached append clients keep their emulator streams (and worker
      // threads) open; the next steps would find the emulator answering nothing.
      StorageApiClientCaches.closeAll();
      out.print(report.format());
      reports.add(report);
      figures.add(StepFigures.of(step, report));
    }
    String setting =
        String.format(
            "%d events per step at %d/s (seed %d) through the %s, %s%s; %d cores, %s; %s",
            config.events(),
            config.rate(),
            config.seed(),
            config.source().serverName(),
            config.engine().describe(),
            config.profile() ? ", pipeline profiled (JFR)" : "",
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
            java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    CompareReport comparison =
        new CompareReport(figures, setting, config.source().serverName(), ceilings);
    out.print(comparison.table());
    java.nio.file.Path html = config.htmlFile().toAbsolutePath();
    if (html.getParent() != null) {
      java.nio.file.Files.createDirectories(html.getParent());
    }
    java.nio.file.Files.writeString(html, comparison.html());
    out.println("HTML report: " + html);
    if (config.reportFile() != null) {
      var array = io.thriftbq.local.stack.LoopbackHttp.JSON.createArrayNode();
      for (int i = 0; i < reports.size(); i++) {
        if (ceilings != null) {
          reports
              .get(i)
              .json
              .set(
                  MachineCeilings.KEY,
                  ceilings.toJson(
                      figures.get(i).sustainedEventsPerSec(), figures.get(i).steadyEventsPerSec()));
        }
        array.add(reports.get(i).json);
      }
      java.nio.file.Files.writeString(
          config.reportFile(),
          io.thriftbq.local.stack.LoopbackHttp.JSON
              .writerWithDefaultPrettyPrinter()
              .writeValueAsString(array));
      out.println("JSON reports: " + config.reportFile().toAbsolutePath());
    }
    return reports.stream().allMatch(LocalReport::ok) ? 0 : 1;
  }

  /**
   * This machine's bare emulator ceilings, measured on the run's own emulators before the steps
   * (the append ceiling at 500 and at 10 rows per request, with the rows of the run's source; with
   * Pub/Sub also its publish and pull ceilings); null, said, when the measurement failed: the steps
   * still run.
   */
  private static @Nullable MachineCeilings ceilings(
      EmulatorStack stack, LocalRunConfig config, String suffix, PrintStream out) {
    out.printf("Measuring this machine's bare emulator ceilings (--no-ceilings skips it) ...%n");
    try {
      return BareCeilings.measure(
          stack,
          config.source() == SourceKind.PUBSUB,
          config.source(),
          CEILING_EVENTS,
          1,
          List.of(MachineCeilings.APPEND_ROWS, 10),
          "ceiling_" + suffix,
          out);
    } catch (Exception e) {
      out.println("The ceilings could not be measured, so the comparison has none: " + e);
      return null;
    }
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    LocalRunConfig config;
    try {
      config = LocalRunConfig.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("run-local: " + e.getMessage());
      err.println();
      err.println(LocalRunConfig.usage());
      return 2;
    }
    if (config.help()) {
      out.println(LocalRunConfig.usage());
      return 0;
    }
    try {
      LaunchCheck.check(config);
    } catch (IllegalArgumentException e) {
      err.println("run-local: " + e.getMessage());
      return 2;
    }
    out.println(
        "Starting the "
            + config.source().serverName()
            + " and the BigQuery emulator on 127.0.0.1 ...");
    long started = System.nanoTime();
    try (EmulatorStack stack =
        EmulatorStack.start(
            LocalRunConfig.PROJECT, LocalRunConfig.DATASET, config.source(), config.keep())) {
      out.printf("Emulators ready in %.1f s%n", (System.nanoTime() - started) / 1e9);
      try {
        return runOn(stack, config, out);
      } catch (Exception e) {
        // A server that crashed shows as a refused connection; say which one, keep its log.
        for (String crashed : stack.crashedServers()) {
          err.println("run-local: " + crashed);
        }
        throw e;
      }
    } catch (IllegalStateException e) {
      err.println("run-local: " + e.getMessage());
      return 1;
    } catch (BadFlagException e) {
      err.println("run-local: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("run-local: failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  private static int runOn(EmulatorStack stack, LocalRunConfig config, PrintStream out)
      throws Exception {
    if (config.compareSteps()) {
      return compareSteps(stack, config, out);
    }
    LocalReport report = new LocalRun(stack, config, out).execute();
    out.print(report.format());
    if (config.reportFile() != null) {
      report.writeJson(config.reportFile());
      out.println("JSON report: " + config.reportFile().toAbsolutePath());
    }
    if (config.keep()) {
      out.println("Kept emulator data and logs in " + stack.workDir());
    }
    return report.ok() ? 0 : 1;
  }
}
