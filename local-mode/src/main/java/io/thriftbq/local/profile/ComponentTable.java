package io.thriftbq.local.profile;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Locale;

/**
 * The component split as text, from a report's JSON ({@link ComponentSplit#toJson}): one line per
 * group for the run's summary, and the full tables that {@code
 * io.thriftbq.local.report.ProfileTables} prints for {@code benchmarks/profile-local.sh}.
 */
public final class ComponentTable {
  /** The report's key for the profile. */
  public static final String REPORT_KEY = "pipeline_cpu_by_component";

  private ComponentTable() {}

  /** A line per group: µs per event and share, for the run's summary. */
  public static String byGroup(JsonNode split) {
    StringBuilder s = new StringBuilder();
    for (JsonNode group : split.path("groups")) {
      s.append(
          String.format(
              Locale.ROOT,
              "  %8.1f µs %5.1f%%  %s%n",
              group.path("us_per_event").asDouble(),
              100 * group.path("share").asDouble(),
              group.path("group").asText()));
    }
    return s.toString();
  }

  /** The window, the component table, the top threads and the deciding frames. */
  public static String full(JsonNode split) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "window %s .. %s (%.1f s), %d events, %d execution samples in window%n",
            Instant.ofEpochMilli(split.path("from_epoch_ms").asLong()),
            Instant.ofEpochMilli(split.path("to_epoch_ms").asLong()),
            split.path("seconds").asDouble(),
            split.path("events").asLong(),
            split.path("execution_samples").asLong()));
    s.append(
        String.format(
            Locale.ROOT,
            "pipeline JVM CPU in window (per-thread /proc, publisher and poller threads left out:"
                + " %.2f s): %.2f s = %.1f us per event%n%n",
            split.path("excluded_cpu_sec").asDouble(),
            split.path("cpu_sec").asDouble(),
            split.path("us_per_event").asDouble()));
    s.append("| component | samples | CPU share | µs of pipeline CPU per event |\n");
    s.append("|---|---:|---:|---:|\n");
    for (JsonNode part : split.path("components")) {
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.1f%% | %.1f |%n",
              part.path("component").asText(),
              part.path("by_thread_name").asBoolean()
                  ? "(by thread)"
                  : part.path("samples").asText(),
              100 * part.path("share").asDouble(),
              part.path("us_per_event").asDouble()));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "| **total** | | 100%% | **%.1f** |%n",
            split.path("us_per_event").asDouble()));
    s.append("\nthreads by CPU in window (top 10): seconds, name, component of most samples\n");
    for (JsonNode thread : split.path("top_threads")) {
      s.append(
          String.format(
              Locale.ROOT,
              "  %6.2f s  %s  [%s]%n",
              thread.path("cpu_sec").asDouble(),
              thread.path("name").asText(),
              thread.path("component").asText()));
    }
    s.append(
        "\nwhere the samples of each component >= 3% were taken (the frame that decided it,"
            + " top 6):\n");
    split
        .path("deciding_frames")
        .fields()
        .forEachRemaining(
            component -> {
              s.append("  ").append(component.getKey()).append(":\n");
              for (JsonNode frame : component.getValue()) {
                s.append(
                    String.format(
                        Locale.ROOT,
                        "    %4.1f%%  %s%n",
                        100 * frame.path("share").asDouble(),
                        frame.path("frame").asText()));
              }
            });
    if (split.path("truncated_samples").size() > 0) {
      s.append("\ntruncated stacks in window by component: ")
          .append(split.path("truncated_samples"))
          .append('\n');
    }
    return s.toString();
  }
}
