package io.thriftbq.local;

import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.stack.EmulatorStack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;

/**
 * The ingestion pipeline alone in a JVM of its own, so that a test can kill it with SIGKILL as a
 * crash would: {@code IngestionProcess <storage-write-endpoint> <ingestion flags...>}. Prints one
 * line when the job runs, then stays up until killed.
 */
public final class IngestionProcess {
  static final String STARTED = "ingestion-process-started";

  private IngestionProcess() {}

  /**
   * Starts this class in a new JVM with this JVM's class path, logging to the stack's work
   * directory; waits until the job runs.
   */
  static Process start(EmulatorStack stack, List<String> args, String name) throws Exception {
    java.nio.file.Path log = stack.workDir().resolve("ingestion-" + name + ".log");
    List<String> command = new ArrayList<>();
    command.add(java.nio.file.Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(IngestionProcess.class.getName());
    command.add(stack.bigquery().storageWriteEndpoint());
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().put("NO_GCE_CHECK", "true");
    Process process = builder.start();
    long deadline = System.nanoTime() + 120 * 1_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (java.nio.file.Files.exists(log)
          && java.nio.file.Files.readString(log).contains(STARTED)) {
        return process;
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "the ingestion JVM exited: " + java.nio.file.Files.readString(log));
      }
      Thread.sleep(250);
    }
    process.destroyForcibly();
    throw new AssertionError("the ingestion JVM did not start the job within 120 s");
  }

  /** Kills {@code process} and its descendants with SIGKILL, as a crash would; waits for it. */
  static void kill(Process process) throws InterruptedException {
    if (process == null) {
      return;
    }
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
  }

  public static void main(String[] args) throws Exception {
    List<String> flags = Arrays.asList(args).subList(1, args.length);
    PipelineResult result = Ingestion.start(args[0], flags);
    System.out.println(STARTED + " " + result.getState());
    System.out.flush();
    while (true) {
      Thread.sleep(60_000);
    }
  }
}
