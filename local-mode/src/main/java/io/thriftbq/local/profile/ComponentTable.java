package io.thriftbq.local.profile;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The component split as text, from its figures ({@link SplitFigures}, as the report holds them):
 * one line per group for the run's summary, and the full tables that {@code
 * io.thriftbq.local.report.ProfileTables} prints for {@code benchmarks/profile-local.sh}.
 */
public final class ComponentTable {
  private ComponentTable() {}

  /** A line per group: µs per event and share, for the run's summary. */
  public static String byGroup(SplitFigures split) {
    StringBuilder s = new StringBuilder();
    for (SplitFigures.Group group : split.groups()) {
      s.append(
          String.format(
              Locale.ROOT,
              "  %8.1f µs %5.1f%%  %s%n",
              group.usPerEvent(),
              100 * group.share(),
              group.group()));
    }
    return s.toString();
  }

  /** The window, the component table, the top threads and the deciding frames. */
  public static String full(SplitFigures split) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "window %s .. %s (%.1f s), %d events, %d execution samples in window%n",
            Instant.ofEpochMilli(split.fromEpochMillis()),
            Instant.ofEpochMilli(split.toEpochMillis()),
            split.seconds(),
            split.events(),
            split.executionSamples()));
    s.append(
        String.format(
            Locale.ROOT,
            "pipeline JVM CPU in window (per-thread /proc, publisher and poller threads left out:"
                + " %.2f s): %.2f s = %.1f us per event%n%n",
            split.excludedCpuSec(),
            split.cpuSec(),
            split.usPerEvent()));
    s.append("| component | samples | CPU share | µs of pipeline CPU per event |\n");
    s.append("|---|---:|---:|---:|\n");
    for (SplitFigures.Component part : split.components()) {
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.1f%% | %.1f |%n",
              part.component(),
              part.byThreadName() ? "(by thread)" : Long.toString(part.samples()),
              100 * part.share(),
              part.usPerEvent()));
    }
    s.append(
        String.format(Locale.ROOT, "| **total** | | 100%% | **%.1f** |%n", split.usPerEvent()));
    s.append("\nthreads by CPU in window (top 10): seconds, name, component of most samples\n");
    for (SplitFigures.TopThread thread : split.topThreads()) {
      s.append(
          String.format(
              Locale.ROOT,
              "  %6.2f s  %s  [%s]%n",
              thread.cpuSec(),
              thread.name(),
              thread.component()));
    }
    s.append(
        "\nwhere the samples of each component >= 3% were taken (the frame that decided it,"
            + " top 6):\n");
    for (Map.Entry<String, List<SplitFigures.Frame>> component :
        split.decidingFrames().entrySet()) {
      s.append("  ").append(component.getKey()).append(":\n");
      for (SplitFigures.Frame frame : component.getValue()) {
        s.append(
            String.format(Locale.ROOT, "    %4.1f%%  %s%n", 100 * frame.share(), frame.frame()));
      }
    }
    if (!split.truncatedSamples().isEmpty()) {
      s.append("\ntruncated stacks in window by component: ")
          .append(split.toJson().path("truncated_samples"))
          .append('\n');
    }
    return s.toString();
  }
}
