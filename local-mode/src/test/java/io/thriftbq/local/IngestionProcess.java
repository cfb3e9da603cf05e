package io.thriftbq.local;

import io.thriftbq.local.run.Ingestion;
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
