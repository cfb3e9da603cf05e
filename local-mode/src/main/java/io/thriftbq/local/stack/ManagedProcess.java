package io.thriftbq.local.stack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A child process with its output in a log file, stopped together with all its descendants.
 *
 * <p>{@code gcloud beta emulators pubsub start} is a Python launcher that forks a shell script that
 * forks the emulator JVM; destroying only the launcher would leave the JVM running and holding its
 * port. So the whole tree is collected and signalled, leaves first.
 */
public final class ManagedProcess implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ManagedProcess.class.getName());

  private final String name;
  private final Process process;
  private final Path logFile;

  /** Where this process's output begins in a log that earlier processes appended to. */
  private final long logStart;

  private volatile boolean stopped;

  private ManagedProcess(String name, Process process, Path logFile, long logStart) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
    this.logStart = logStart;
  }

  public static ManagedProcess start(
      String name, List<String> command, Map<String, String> environment, Path logFile)
      throws IOException {
    Files.createDirectories(logFile.getParent());
    long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    // JAVA_OPTS holds the runner's own JVM flags (scripts/run-local.sh passes it to the runner);
    // the Pub/Sub emulator's launcher would apply them too (a heap size, or a profiler writing to
    // the runner's recording file and corrupting it). Its own flags go in
    // CLOUD_PUBSUB_EMULATOR_OPTS.
    builder.environment().remove("JAVA_OPTS");
    builder.environment().putAll(environment);
    Process process = builder.start();
    LOG.fine(() -> name + " started, pid " + process.pid() + ": " + String.join(" ", command));
    return new ManagedProcess(name, process, logFile, logStart);
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path logFile() {
    return logFile;
  }

  /** Whether a starting server answers yet; an IOException means not yet. */
  @FunctionalInterface
  public interface ReadinessProbe {
    boolean ready() throws IOException;
  }

  /**
   * Waits until {@code probe} says the server is ready, failing early with the log's tail when the
   * process exits, and after {@code timeout} otherwise.
   *
   * @param description what the server is, for the error messages, e.g. "Pub/Sub emulator (port
   *     8085)"
   */
  public void awaitReady(String description, Duration timeout, ReadinessProbe probe)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "The "
                + description
                + " exited during start-up. Its log ("
                + logFile
                + "):\n"
                + logTail(20));
      }
      try {
        if (probe.ready()) {
          return;
        }
      } catch (IOException notYet) {
        // The port opens before the server answers.
      }
      Thread.sleep(200);
    }
    throw new IOException(
        "The "
            + description
            + " did not answer within "
            + timeout.toSeconds()
            + " s. Its log:\n"
            + logTail(20));
  }

  /**
   * Waits for a process that runs to completion (a one-shot tool) and returns its exit status.
   *
   * @throws IOException when it is still running after {@code timeout}; it is then stopped
   */
  public int awaitExit(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      stop(Duration.ofSeconds(5));
      throw new IOException(
          name + " did not finish within " + timeout.toSeconds() + " s. Its log:\n" + logTail(20));
    }
    stopped = true;
    return process.exitValue();
  }

  /**
   * Whether this process (not an earlier one appending to the same log) has logged {@code text}.
   */
  public boolean hasLogged(String text) throws IOException {
    try (FileChannel log = FileChannel.open(logFile)) {
      long length = log.size() - logStart;
      if (length <= 0) {
        return false;
      }
      ByteBuffer output = ByteBuffer.allocate((int) Math.min(length, Integer.MAX_VALUE - 8));
      while (output.hasRemaining() && log.read(output, logStart + output.position()) > 0) {
        // FileChannel may return less than asked for; read until the buffer or file ends.
      }
      return new String(output.array(), 0, output.position(), StandardCharsets.UTF_8)
          .contains(text);
    }
  }

  /** The last lines of the log, for error messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(logFile);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /**
   * Kills the process and every descendant with SIGKILL ({@code kill -9}): no chance to flush or
   * close anything, as a crash or an OOM kill would leave it. For fault-injection tests.
   */
  public void kill() throws InterruptedException {
    if (stopped) {
      return;
    }
    stopped = true;
    List<ProcessHandle> tree = new ArrayList<>();
    process.toHandle().descendants().forEach(tree::add);
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new IllegalStateException(name + ": pid " + handle.pid() + " survived SIGKILL", e);
      }
    }
  }

  /** Stops the process and every descendant: SIGTERM, then SIGKILL after the grace period. */
  public void stop(Duration grace) {
    if (stopped) {
      return;
    }
    stopped = true;
    List<ProcessHandle> tree = new ArrayList<>();
    // Collected before anything dies: once a parent exits its children are re-parented and can
    // no longer be found from it.
    process.toHandle().descendants().forEach(tree::add);
    java.util.Collections.reverse(tree);
    tree.add(process.toHandle());
    for (ProcessHandle handle : tree) {
      handle.destroy();
    }
    long deadline = System.nanoTime() + grace.toNanos();
    for (ProcessHandle handle : tree) {
      long left = deadline - System.nanoTime();
      try {
        handle.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        // Still alive after the grace period (or interrupted): kill below.
      }
    }
    for (ProcessHandle handle : tree) {
      if (handle.isAlive()) {
        LOG.warning(name + ": pid " + handle.pid() + " ignored SIGTERM, killing it");
        handle.destroyForcibly();
      }
    }
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(10));
  }
}
