package io.thriftbq.local.beamio;

import java.lang.reflect.Method;
import java.util.List;
import org.apache.beam.sdk.io.gcp.bigquery.StorageApiWriteUnshardedRecords;
import org.apache.beam.sdk.io.gcp.bigquery.StorageApiWritesShardedRecords;

/**
 * Closes the Storage Write API append clients that BigQueryIO caches per JVM. A cancelled
 * DirectRunner pipeline leaves its clients, and their open AppendRows streams, in those caches for
 * 5 to 15 idle minutes; the BigQuery emulator serves each open stream with one of its 16 gRPC
 * worker threads, so without this a test JVM that runs several pipelines against one emulator soon
 * finds it answering nothing. Local mode's {@code --compare-steps} runs several pipelines in one
 * JVM too, and with many event types each step opens a stream per table: it calls this after each
 * step.
 *
 * <p>The caches and their {@code clearCache()} methods are package-private (Beam marks them for
 * tests), and Beam offers no public way to close them: this is the one place that reaches them, by
 * reflection ({@link BeamInternals}). No Beam issue asks for a public way; apache/beam pull request
 * 38264 (merged after 2.70) reworks these caches, so the next Beam upgrade must re-check this class
 * ({@code BeamInternalsTest} fails on any other Beam version).
 */
public final class StorageApiClientCaches {
  /**
   * Each cache's {@code static void clearCache()}, which invalidates and so closes every client.
   */
  private static final List<Method> CLEAR_CACHES =
      List.of(
          BeamInternals.staticMethod(StorageApiWritesShardedRecords.class, "clearCache"),
          BeamInternals.staticMethod(StorageApiWriteUnshardedRecords.class, "clearCache"));

  private StorageApiClientCaches() {}

  /** Closes every cached append client, and with it its stream. */
  public static void closeAll() {
    for (Method clearCache : CLEAR_CACHES) {
      try {
        clearCache.invoke(null);
      } catch (ReflectiveOperationException e) {
        throw BeamInternals.rethrow(
            clearCache.getDeclaringClass().getSimpleName() + ".clearCache()", e);
      }
    }
  }
}
