package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.thriftbq.local.profile.ComponentTable;
import io.thriftbq.local.profile.PipelineProfile;
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
    ReportFigures figures = ReportFigures.fromJson(report);
    PipelineProfile profile = figures.profile();
    if (profile == null) {
      System.err.println(args[0] + " has no " + PipelineProfile.KEY + " (run with --profile)");
      System.exit(1);
      return;
    }
    Double pipelineCpu = figures.costs().pipelineCpuPer100k();
    System.out.printf(
        Locale.ROOT,
        "local mode's own figure: pipeline %.1f µs of CPU per event (steady window)%n",
        (pipelineCpu == null ? Double.NaN : pipelineCpu) * 10);
    System.out.print(ComponentTable.full(profile.window()));
    if (profile.secondHalf() != null) {
      System.out.println("\nsecond half of the window:");
      System.out.print(ComponentTable.full(profile.secondHalf()));
    }
  }
}
