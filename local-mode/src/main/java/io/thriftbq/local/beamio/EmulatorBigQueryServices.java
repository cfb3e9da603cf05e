package io.thriftbq.local.beamio;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import com.google.api.gax.core.FixedExecutorProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.ChannelPoolSettings;
import com.google.api.gax.grpc.GrpcStatusCode;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.NotFoundException;
import com.google.api.gax.rpc.StatusCode;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteSettings;
import com.google.cloud.bigquery.storage.v1.ConnectionWorkerPool;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.FlushRowsRequest;
import com.google.cloud.bigquery.storage.v1.FlushRowsResponse;
import com.google.cloud.bigquery.storage.v1.GetWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.cloud.bigquery.storage.v1.WriteStreamView;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Int64Value;
import io.grpc.ManagedChannelBuilder;
import io.thriftbq.local.latency.EventTimeExtractor;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.apache.beam.sdk.options.ExecutorOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@link BigQueryServices} for the local BigQuery emulator: REST calls (tables, jobs, streaming
 * inserts) go through Beam's own {@link BigQueryServicesImpl}, which already honours {@code
 * --bigQueryEndpoint}; Storage Write API calls go over a plaintext gRPC channel without
 * credentials.
 *
 * <p>Beam always opens the Storage Write channel with TLS and Google credentials, which an emulator
 * listening on 127.0.0.1 cannot accept; Beam offers no option to change that, so local mode swaps
 * in this class with {@code BigQueryIO.Write.withTestServices(...)}. Never use it against the
 * cloud: nothing it sends is encrypted or authenticated.
 *
 * <p>Every row it hands to the emulator also feeds {@link HandOffLatencyProbe}, which the local
 * report reads for its latency percentiles.
 */
public final class EmulatorBigQueryServices implements BigQueryServices {
  private static final long serialVersionUID = 1L;

  private final String storageWriteEndpoint;
  private final BigQueryServicesImpl rest = new BigQueryServicesImpl();

  /**
   * @param storageWriteEndpoint {@code host:port} of the emulator's plaintext Storage Write gRPC
   *     port
   */
  public EmulatorBigQueryServices(String storageWriteEndpoint) {
    this.storageWriteEndpoint = checkEndpoint(storageWriteEndpoint);
  }

  public String storageWriteEndpoint() {
    return storageWriteEndpoint;
  }

  private static String checkEndpoint(@Nullable String endpoint) {
    if (endpoint == null || endpoint.isBlank()) {
      throw new IllegalArgumentException(
          "The Storage Write API emulator endpoint is empty: give host:port, e.g. 127.0.0.1:9060.");
    }
    String trimmed = endpoint.trim();
    if (trimmed.contains("://")) {
      // gRPC targets have no scheme; a pasted URL would otherwise fail deep inside gax.
      trimmed = trimmed.substring(trimmed.indexOf("://") + 3);
    }
    int colon = trimmed.lastIndexOf(':');
    if (colon <= 0 || colon == trimmed.length() - 1) {
      throw new IllegalArgumentException(
          "The Storage Write API emulator endpoint must be host:port, got '" + endpoint + "'.");
    }
    try {
      Integer.parseInt(trimmed.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "The Storage Write API emulator endpoint must be host:port, got '" + endpoint + "'.", e);
    }
    return trimmed;
  }

  @Override
  public JobService getJobService(BigQueryOptions options) {
    return rest.getJobService(options);
  }

  @Override
  public DatasetService getDatasetService(BigQueryOptions options) {
    return withLatencyProbe(rest.getDatasetService(options));
  }

  /**
   * Wraps the REST dataset service so that streaming inserts feed {@link HandOffLatencyProbe}; a
   * proxy rather than a hand-written delegate keeps up with methods Beam adds to the interface.
   */
  static DatasetService withLatencyProbe(DatasetService delegate) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if ("insertAll".equals(method.getName()) && args != null && args.length > 1) {
            EventTimeExtractor.recordInsertAll(args[0], args[1]);
          }
          try {
            return method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (DatasetService)
        Proxy.newProxyInstance(
            EmulatorBigQueryServices.class.getClassLoader(),
            new Class<?>[] {DatasetService.class},
            handler);
  }

  @Override
  public WriteStreamService getWriteStreamService(BigQueryOptions options) {
    return new PlaintextWriteStreamService(storageWriteEndpoint, options);
  }

  @Override
  public StorageClient getStorageClient(BigQueryOptions options) throws IOException {
    return rest.getStorageClient(options);
  }

  static TransportChannelProvider plaintextChannelProvider(String endpoint) {
    return BigQueryWriteSettings.defaultGrpcTransportProviderBuilder()
        .setEndpoint(endpoint)
        .setChannelConfigurator(ManagedChannelBuilder::usePlaintext)
        // One connection is plenty for an emulator and keeps its thread count small.
        .setChannelPoolSettings(ChannelPoolSettings.staticallySized(1))
        .build();
  }

  static BigQueryWriteClient newWriteClient(String endpoint, BigQueryOptions options)
      throws IOException {
    return BigQueryWriteClient.create(
        BigQueryWriteSettings.newBuilder()
            .setEndpoint(endpoint)
            .setCredentialsProvider(NoCredentialsProvider.create())
            .setTransportChannelProvider(plaintextChannelProvider(endpoint))
            .setBackgroundExecutorProvider(
                FixedExecutorProvider.create(
                    options.as(ExecutorOptions.class).getScheduledExecutorService()))
            .build());
  }

  /**
   * Mirrors Beam's {@code WriteStreamServiceImpl}, whose append path builds its own TLS channel
   * provider and so cannot be reused by only swapping the client.
   */
  static final class PlaintextWriteStreamService implements WriteStreamService {
    private final String endpoint;
    private final BigQueryOptions options;
    private final BigQueryWriteClient client;

    PlaintextWriteStreamService(String endpoint, BigQueryOptions options) {
      this.endpoint = endpoint;
      this.options = options;
      try {
        this.client = newWriteClient(endpoint, options);
      } catch (IOException e) {
        throw new IllegalStateException(
            "Cannot open a Storage Write API client for the emulator at " + endpoint, e);
      }
    }

    @Override
    public WriteStream createWriteStream(String tableUrn, WriteStream.Type type) {
      return client.createWriteStream(
          CreateWriteStreamRequest.newBuilder()
              .setParent(tableUrn)
              .setWriteStream(WriteStream.newBuilder().setType(type).build())
              .build());
    }

    @Override
    public @Nullable TableSchema getWriteStreamSchema(String writeStream) {
      WriteStream stream =
          client.getWriteStream(
              GetWriteStreamRequest.newBuilder()
                  .setView(WriteStreamView.FULL)
                  .setName(writeStream)
                  .build());
      return stream != null && stream.hasTableSchema() ? stream.getTableSchema() : null;
    }

    @Override
    public StreamAppendClient getStreamAppendClient(
        String streamName,
        DescriptorProtos.DescriptorProto descriptor,
        boolean useConnectionPool,
        AppendRowsRequest.MissingValueInterpretation missingValueInterpretation)
        throws Exception {
      if (useConnectionPool) {
        // The pool is a static singleton keyed by location; set it up the way Beam does so that
        // --minConnectionPoolConnections/--maxConnectionPoolConnections keep their meaning.
        ConnectionWorkerPool.setOptions(
            ConnectionWorkerPool.Settings.builder()
                .setMinConnectionsPerRegion(options.getMinConnectionPoolConnections())
                .setMaxConnectionsPerRegion(options.getMaxConnectionPoolConnections())
                .build());
      }
      StreamWriter writer =
          StreamWriter.newBuilder(streamName, client)
              .setWriterSchema(ProtoSchema.newBuilder().setProtoDescriptor(descriptor).build())
              .setChannelProvider(plaintextChannelProvider(endpoint))
              .setCredentialsProvider(NoCredentialsProvider.create())
              .setExecutorProvider(
                  FixedExecutorProvider.create(
                      options.as(ExecutorOptions.class).getScheduledExecutorService()))
              .setEnableConnectionPool(useConnectionPool)
              .setMaxInflightRequests(options.getStorageWriteMaxInflightRequests())
              .setMaxInflightBytes(options.getStorageWriteMaxInflightBytes())
              .setDefaultMissingValueInterpretation(missingValueInterpretation)
              .build();
      return new PinnedAppendClient(
          writer,
          new EventTimeExtractor(descriptor, HandOffLatencyProbe.tableOfStream(streamName)));
    }

    @Override
    public ApiFuture<FlushRowsResponse> flush(String streamName, long flushOffset) {
      return client
          .flushRowsCallable()
          .futureCall(
              FlushRowsRequest.newBuilder()
                  .setWriteStream(streamName)
                  .setOffset(Int64Value.of(flushOffset))
                  .build());
    }

    /**
     * BigQuery answers NOT_FOUND for a stream it does not know, and Beam's exactly-once writer lets
     * such a finalize go; the emulator answers INVALID_ARGUMENT ("Invalid stream name"), which Beam
     * retries three times and then fails the bundle with, over and over after a restart of the
     * emulator has forgotten the streams (found by {@code FaultsEndToEndTest}, step 6). Its answer
     * is translated to BigQuery's.
     */
    @Override
    public ApiFuture<FinalizeWriteStreamResponse> finalizeWriteStream(String streamName) {
      return ApiFutures.catchingAsync(
          client
              .finalizeWriteStreamCallable()
              .futureCall(FinalizeWriteStreamRequest.newBuilder().setName(streamName).build()),
          ApiException.class,
          error ->
              ApiFutures.immediateFailedFuture(
                  isUnknownStream(error)
                      ? new NotFoundException(
                          "Stream "
                              + streamName
                              + " not found (emulator: "
                              + error.getMessage()
                              + ")",
                          error,
                          GrpcStatusCode.of(io.grpc.Status.Code.NOT_FOUND),
                          false)
                      : error),
          MoreExecutors.directExecutor());
    }

    private static boolean isUnknownStream(ApiException error) {
      return error.getStatusCode().getCode() == StatusCode.Code.INVALID_ARGUMENT
          && String.valueOf(error.getMessage()).contains("Invalid stream name");
    }

    @Override
    public ApiFuture<BatchCommitWriteStreamsResponse> commitWriteStreams(
        String tableUrn, Iterable<String> writeStreamNames) {
      return client
          .batchCommitWriteStreamsCallable()
          .futureCall(
              BatchCommitWriteStreamsRequest.newBuilder()
                  .setParent(tableUrn)
                  .addAllWriteStreams(writeStreamNames)
                  .build());
    }

    @Override
    public void close() throws Exception {
      client.shutdownNow();
      client.awaitTermination(60, TimeUnit.SECONDS);
      client.close();
    }
  }

  /**
   * BigQueryIO caches append clients and may close one while appends are still in flight; pins
   * defer the real close until the last user lets go, as in Beam's implementation.
   */
  static final class PinnedAppendClient implements StreamAppendClient {
    private final StreamWriter writer;
    private final EventTimeExtractor latencyProbe;
    private int pins;
    private boolean closed;

    PinnedAppendClient(StreamWriter writer, EventTimeExtractor latencyProbe) {
      this.writer = Objects.requireNonNull(writer);
      this.latencyProbe = latencyProbe;
    }

    @Override
    public ApiFuture<AppendRowsResponse> appendRows(long offset, ProtoRows rows) throws Exception {
      latencyProbe.recordAppend(rows);
      return writer.append(rows, offset);
    }

    @Override
    public @Nullable TableSchema getUpdatedSchema() {
      return writer.getUpdatedSchema();
    }

    @Override
    public long getInflightWaitSeconds() {
      return writer.getInflightWaitSeconds();
    }

    @Override
    public void pin() {
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("pin() on a closed append client");
        }
        pins++;
      }
    }

    @Override
    public void unpin() {
      boolean closeNow;
      synchronized (this) {
        if (pins <= 0) {
          throw new IllegalStateException("unpin() without a matching pin()");
        }
        pins--;
        closeNow = pins == 0 && closed;
      }
      if (closeNow) {
        writer.close();
      }
    }

    @Override
    public void close() {
      boolean closeNow;
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("close() on an already closed append client");
        }
        closed = true;
        closeNow = pins == 0;
      }
      if (closeNow) {
        writer.close();
      }
    }
  }
}
