package io.thriftbq.local.run;

import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.local.beamio.EmulatorBigQueryServices;
import io.thriftbq.local.beamio.PlaintextPubsubGrpcClientFactory;
import io.thriftbq.local.stack.EmulatorStack;
import java.time.Duration;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Starts the ingestion pipeline in this JVM, writing through the emulator's BigQuery services: REST
 * through Beam's own client at {@code --bigQueryEndpoint}, the Storage Write API over plaintext
 * gRPC (see {@link EmulatorBigQueryServices}); Pub/Sub is read with Beam's gRPC client over a
 * plaintext channel ({@link PlaintextPubsubGrpcClientFactory}) rather than its JSON client.
 */
public final class Ingestion {
  /**
   * How long the pipeline's Pub/Sub reader waits after a pull that found nothing: the Pub/Sub
   * emulator spends most of its CPU answering pulls, and Beam's source on Flink asks again every 50
   * ms otherwise (benchmarks/RESULTS.md section 12 measures it). {@code
   * -Dthriftbq.local.emptyPullPauseMs=0} restores Beam's own pace.
   */
  public static final Duration EMPTY_PULL_PAUSE =
      Duration.ofMillis(Long.getLong("thriftbq.local.emptyPullPauseMs", 200));

  private Ingestion() {}

  /** The pipeline's options from {@code args}, validated as its {@code main} validates them. */
  static IngestionOptions options(List<String> args) {
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
        .withValidation()
        .as(IngestionOptions.class);
  }

  public static PipelineResult start(EmulatorStack stack, List<String> args) {
    return start(stack.bigquery().storageWriteEndpoint(), args);
  }

  /** Writes Storage Write API appends to the emulator's gRPC endpoint ({@code host:port}). */
  public static PipelineResult start(String storageWriteEndpoint, List<String> args) {
    return IngestionPipeline.launch(
            options(args),
            new EmulatorBigQueryServices(storageWriteEndpoint),
            new PlaintextPubsubGrpcClientFactory(),
            EMPTY_PULL_PAUSE)
        .run();
  }
}
