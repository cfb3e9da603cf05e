package org.apache.beam.sdk.io.gcp.bigquery;

/**
 * Closes the Storage Write API append clients that BigQueryIO caches per JVM (in this package
 * because the caches are package-private). A cancelled DirectRunner pipeline leaves its clients,
 * and their open AppendRows streams, in those caches for 5 to 15 idle minutes; the BigQuery
 * emulator serves each open stream with one of its 16 gRPC worker threads, so without this a test
 * JVM that runs several pipelines against one emulator soon finds it answering nothing. Local
 * mode's {@code --compare-steps} runs several pipelines in one JVM too, and with many event types
 * each step opens a stream per table: it calls this after each step.
 */
public final class StorageApiClientCaches {
  private StorageApiClientCaches() {}

  /** Closes every cached append client, and with it its stream. */
  public static void closeAll() {
    StorageApiWritesShardedRecords.clearCache();
    StorageApiWriteUnshardedRecords.clearCache();
  }
}
