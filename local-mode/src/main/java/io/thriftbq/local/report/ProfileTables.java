package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.thriftbq.local.profile.ComponentTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Prints the pipeline's CPU by component of a {@code --profile} run's JSON report as tables, beside
 * the report's own CPU figure, for {@code benchmarks/profile-local.sh}:
 *
 * <pre>
 * java -cp local-mode-bundled.jar io.thriftbq.local.report.ProfileTables REPORT.json
 * </pre>
 */
public final class ProfileTables {
  private ProfileTables() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ProfileTables REPORT.json (a report of a --profile run)");
      System.exit(2);
    }
    JsonNode report = new ObjectMapper().readTree(Path.of(args[0]).toFile());
    JsonNode profile = report.path(ComponentTable.REPORT_KEY);
    if (!profile.has("window")) {
      System.err.println(
          args[0] + " has no " + ComponentTable.REPORT_KEY + " (run with --profile)");
      System.exit(1);
    }
    Double pipelineCpu = ReportFigures.fromJson(report).costs().pipelineCpuPer100k();
    System.out.printf(
        Locale.ROOT,
        "local mode's own figure: pipeline %.1f µs of CPU per event (steady window)%n",
        (pipelineCpu == null ? Double.NaN : pipelineCpu) * 10);
    System.out.print(ComponentTable.full(profile.path("window")));
    if (profile.has("second_half")) {
      System.out.println("\nsecond half of the window:");
      System.out.print(ComponentTable.full(profile.path("second_half")));
    }
  }
}
