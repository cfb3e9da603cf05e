package io.thriftbq.ingest.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ingestion flags of every tuning step, read from the one step table ({@code
 * scripts/lib/tuning-steps.tsv}) that the launch scripts and local mode read too.
 */
public final class StepTable {
  private StepTable() {}

  public static Path path() {
    return Path.of(System.getProperty("basedir", "."), "..", "scripts", "lib", "tuning-steps.tsv");
  }

  /** Step number to its ingestion flags, in table order. */
  public static Map<Integer, List<String>> flagsByStep() {
    Map<Integer, List<String>> steps = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(path(), StandardCharsets.UTF_8)) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] columns = line.split("\t", -1);
        steps.put(
            Integer.parseInt(columns[0]),
            new ArrayList<>(Arrays.asList(columns[columns.length - 1].split(" "))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return steps;
  }
}
