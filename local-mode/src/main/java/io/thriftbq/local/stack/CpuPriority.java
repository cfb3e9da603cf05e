package io.thriftbq.local.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Gives the BigQuery emulator first call on the CPU in a saturation run, where it is the limit:
 * every thread of this JVM (the pipeline and the publisher) and of the source's server runs at a
 * lower priority ({@code nice}), the emulator at its own. On 2 cores the emulator otherwise waits
 * behind them whenever they are busy together, and step 8 from Pub/Sub kept 0.61-0.80 of its append
 * ceiling. Lowered this way it kept 0.77-1.10 from Pub/Sub (median 0.87 over 13 runs; alternated
 * with it off, a gain within the spread between runs) and 0.95-1.10 from Kafka (1.10-1.63x
 * alternated), benchmarks/RESULTS.md sections 33-34.
 *
 * <p>Only the threads that exist when {@link #lower} runs are lowered; threads they start later
 * inherit the priority, and so would a process this JVM starts later (an emulator restarted by a
 * test): it then runs at the same priority as this JVM, as before. Raising a priority back needs
 * privileges a user does not have, so a JVM stays lowered until it exits. {@value #VARIABLE}
 * chooses the niceness (0 leaves every priority as it is).
 */
public final class CpuPriority {
  /** The environment variable that replaces {@link #DEFAULT_NICENESS}; 0 turns the lowering off. */
  public static final String VARIABLE = "THRIFTBQ_SATURATION_NICE";

  /** The niceness of the pipeline and the source's server in a saturation run. */
  public static final int DEFAULT_NICENESS = 10;

  private static final Path PROC = Path.of("/proc");

  private CpuPriority() {}

  /** The niceness {@code environment} asks for ({@link #VARIABLE}), or the default. */
  public static int niceness(Map<String, String> environment) {
    String value = environment.get(VARIABLE);
    if (value == null || value.isBlank()) {
      return DEFAULT_NICENESS;
    }
    try {
      int niceness = Integer.parseInt(value.trim());
      if (niceness >= 0 && niceness <= 19) {
        return niceness;
      }
    } catch (NumberFormatException e) {
      // Refused below, with the same message.
    }
    throw new IllegalArgumentException(
        VARIABLE
            + "="
            + value
            + " is not a niceness: set it to 0 (leave priorities as they are) up to 19, or unset"
            + " it for "
            + DEFAULT_NICENESS);
  }

  /**
   * Sets every thread of this JVM, and of process {@code serverPid} and its descendants, to {@code
   * niceness}; this JVM's child processes (the BigQuery emulator) keep theirs.
   *
   * @return empty when done (or when {@code niceness} is 0), else why not: the run goes on either
   *     way, at the priorities it had
   */
  public static Optional<String> lower(long serverPid, int niceness) {
    if (niceness == 0) {
      return Optional.empty();
    }
    List<ProcessHandle> processes = new ArrayList<>(List.of(ProcessHandle.current()));
    ProcessHandle.of(serverPid)
        .ifPresent(
            server ->
                Stream.concat(Stream.of(server), server.descendants()).forEach(processes::add));
    return renice(processes, niceness);
  }

  /** Sets every thread of {@code processes} to {@code niceness}; empty when done, else why not. */
  static Optional<String> renice(List<ProcessHandle> processes, int niceness) {
    List<String> command = new ArrayList<>(List.of("renice", Integer.toString(niceness), "-p"));
    processes.forEach(p -> command.addAll(threads(p)));
    Path output = null;
    try {
      // To a file, not a pipe: a renice that hangs must not block the run beyond the timeout.
      output = Files.createTempFile("renice", ".out");
      Process renice =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!renice.waitFor(10, TimeUnit.SECONDS)) {
        renice.destroyForcibly();
        return Optional.of("renice did not finish within 10 s");
      }
      if (renice.exitValue() == 0) {
        return Optional.empty();
      }
      List<String> failures = failures(Files.readString(output, StandardCharsets.UTF_8));
      return failures.isEmpty()
          ? Optional.empty()
          : Optional.of(
              "renice exited with " + renice.exitValue() + ": " + String.join("; ", failures));
    } catch (IOException e) {
      return Optional.of("renice could not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    } finally {
      if (output != null) {
        output.toFile().delete();
      }
    }
  }

  /**
   * The lines of {@code renice}'s output that report a failure, except for threads that ended
   * between the listing and renice, which is harmless; util-linux prints one line per id it could
   * not set, naming why ("No such process", "Permission denied").
   */
  static List<String> failures(String reniceOutput) {
    return reniceOutput
        .lines()
        .map(String::strip)
        .filter(line -> !line.isEmpty())
        .filter(line -> !line.matches("\\d+ \\(process ID\\) old priority .*"))
        .filter(line -> !line.endsWith("No such process"))
        .toList();
  }

  /**
   * The ids of {@code process}'s threads where Linux gives each thread its own priority ({@code
   * /proc/PID/task}); elsewhere (macOS) the process id, whose priority all its threads share.
   */
  static List<String> threads(ProcessHandle process) {
    Path tasks = PROC.resolve(Long.toString(process.pid())).resolve("task");
    if (!Files.isDirectory(tasks)) {
      return List.of(Long.toString(process.pid()));
    }
    try (Stream<Path> ids = Files.list(tasks)) {
      return ids.map(p -> p.getFileName().toString()).toList();
    } catch (IOException e) {
      // The process ended meanwhile: nothing of it to lower.
      return List.of();
    }
  }
}
