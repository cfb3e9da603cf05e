package io.thriftbq.local.beamio;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteGrpc;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.FlushRowsRequest;
import com.google.cloud.bigquery.storage.v1.FlushRowsResponse;
import com.google.cloud.bigquery.storage.v1.GetWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Int64Value;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.thriftbq.local.latency.HandOffLatencyProbe;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * Runs the plaintext Storage Write path against a minimal plaintext gRPC server on 127.0.0.1, so
 * this module proves its half of local mode without the Python emulator (local-mode's end-to-end
 * tests use the real one).
 */
@RunWith(JUnit4.class)
public class EmulatorBigQueryServicesTest {
  private static final String TABLE = "projects/p/datasets/d/tables/t";

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final List<Long> appendedOffsets = new CopyOnWriteArrayList<>();
  private Server server;
  private String endpoint;

  @Before
  public void startServer() throws Exception {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(new RecordingWriteService())
            .build()
            .start();
    endpoint = "127.0.0.1:" + server.getPort();
    HandOffLatencyProbe.reset();
  }

  @After
  public void stopServer() throws Exception {
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  private static BigQueryOptions options() {
    BigQueryOptions options = PipelineOptionsFactory.create().as(BigQueryOptions.class);
    // Local mode never looks for Google credentials; neither does this test.
    options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
    return options;
  }

  @Test
  public void survivesSerializationWithItsEndpoint() {
    EmulatorBigQueryServices services = new EmulatorBigQueryServices("127.0.0.1:9060");
    EmulatorBigQueryServices copy = SerializableUtils.ensureSerializable(services);
    assertEquals("127.0.0.1:9060", copy.storageWriteEndpoint());
  }

  @Test
  public void acceptsAnEndpointPastedAsAUrl() {
    assertEquals(
        "127.0.0.1:9061",
        new EmulatorBigQueryServices("http://127.0.0.1:9061").storageWriteEndpoint());
  }

  @Test
  public void rejectsAMissingOrMalformedEndpoint() {
    IllegalArgumentException empty =
        assertThrows(IllegalArgumentException.class, () -> new EmulatorBigQueryServices(" "));
    assertThat(empty.getMessage(), containsString("endpoint is empty"));
    assertThrows(IllegalArgumentException.class, () -> new EmulatorBigQueryServices("localhost"));
    assertThrows(
        IllegalArgumentException.class, () -> new EmulatorBigQueryServices("localhost:grpc"));
  }

  @Test
  public void streamAdministrationGoesOverPlaintext() throws Exception {
    EmulatorBigQueryServices services = new EmulatorBigQueryServices(endpoint);
    try (BigQueryServices.WriteStreamService writes = services.getWriteStreamService(options())) {
      WriteStream stream = writes.createWriteStream(TABLE, WriteStream.Type.BUFFERED);
      assertEquals(TABLE + "/streams/s1", stream.getName());
      writes.getWriteStreamSchema(stream.getName());
      assertEquals(7L, writes.flush(stream.getName(), 7).get(10, TimeUnit.SECONDS).getOffset());
      writes.finalizeWriteStream(stream.getName()).get(10, TimeUnit.SECONDS);
      writes.commitWriteStreams(TABLE, List.of(stream.getName())).get(10, TimeUnit.SECONDS);
    }
    assertEquals(List.of("create", "get", "flush", "finalize", "commit"), calls);
  }

  @Test
  public void finalizingAStreamTheEmulatorForgotIsNotFoundAsInBigQuery() throws Exception {
    EmulatorBigQueryServices services = new EmulatorBigQueryServices(endpoint);
    try (BigQueryServices.WriteStreamService writes = services.getWriteStreamService(options())) {
      java.util.concurrent.ExecutionException forgotten =
          assertThrows(
              java.util.concurrent.ExecutionException.class,
              () ->
                  writes
                      .finalizeWriteStream(TABLE + "/streams/forgotten")
                      .get(10, TimeUnit.SECONDS));
      assertEquals(
          com.google.api.gax.rpc.StatusCode.Code.NOT_FOUND,
          ((com.google.api.gax.rpc.ApiException) forgotten.getCause()).getStatusCode().getCode());

      // Any other INVALID_ARGUMENT stays what it is.
      java.util.concurrent.ExecutionException broken =
          assertThrows(
              java.util.concurrent.ExecutionException.class,
              () ->
                  writes.finalizeWriteStream(TABLE + "/streams/broken").get(10, TimeUnit.SECONDS));
      assertEquals(
          com.google.api.gax.rpc.StatusCode.Code.INVALID_ARGUMENT,
          ((com.google.api.gax.rpc.ApiException) broken.getCause()).getStatusCode().getCode());
    }
  }

  @Test
  public void appendsRowsAndRecordsTheirHandOffLatency() throws Exception {
    DescriptorProto descriptor = rowDescriptor();
    long createdAt = System.currentTimeMillis() - 1_000;
    ProtoRows rows =
        ProtoRows.newBuilder()
            .addSerializedRows(row(descriptor, "a", Long.toString(createdAt)).toByteString())
            .addSerializedRows(row(descriptor, "b", null).toByteString())
            .build();
    EmulatorBigQueryServices services = new EmulatorBigQueryServices(endpoint);
    try (BigQueryServices.WriteStreamService writes = services.getWriteStreamService(options())) {
      BigQueryServices.StreamAppendClient client =
          writes.getStreamAppendClient(
              TABLE + "/streams/s1",
              descriptor,
              false,
              AppendRowsRequest.MissingValueInterpretation
                  .MISSING_VALUE_INTERPRETATION_UNSPECIFIED);
      client.pin();
      AppendRowsResponse response = client.appendRows(0, rows).get(10, TimeUnit.SECONDS);
      assertEquals(0L, response.getAppendResult().getOffset().getValue());
      client.close();
      client.unpin();
    }
    assertEquals(List.of(0L), appendedOffsets);
    long[] samples = HandOffLatencyProbe.samples();
    assertEquals(1, samples.length);
    assertThat(samples[0], greaterThanOrEqualTo(1_000L));
    assertThat(samples[0], lessThan(60_000L));
    assertEquals(1, HandOffLatencyProbe.rowsWithoutEventTime());
  }

  @Test
  public void datasetServiceProxyDelegatesEveryCall() throws Exception {
    BigQueryServices.DatasetService proxied =
        new EmulatorBigQueryServices(endpoint).getDatasetService(options());
    assertTrue(proxied instanceof BigQueryServices.DatasetService);
    proxied.close();
  }

  private static DescriptorProto rowDescriptor() {
    DescriptorProto entry =
        DescriptorProto.newBuilder()
            .setName("AttributeEntry")
            .addField(stringField("key", 1))
            .addField(stringField("value", 2))
            .build();
    return DescriptorProto.newBuilder()
        .setName("Row")
        .addNestedType(entry)
        .addField(stringField("name", 1))
        .addField(
            FieldDescriptorProto.newBuilder()
                .setName("_attributes")
                .setNumber(2)
                .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                .setTypeName("AttributeEntry")
                .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
        .build();
  }

  private static FieldDescriptorProto stringField(String name, int number) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(FieldDescriptorProto.Type.TYPE_STRING)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
        .build();
  }

  private static DynamicMessage row(DescriptorProto proto, String name, String eventTime)
      throws Exception {
    Descriptors.Descriptor descriptor =
        Descriptors.FileDescriptor.buildFrom(
                com.google.protobuf.DescriptorProtos.FileDescriptorProto.newBuilder()
                    .addMessageType(proto)
                    .build(),
                new Descriptors.FileDescriptor[0])
            .findMessageTypeByName("Row");
    Descriptors.FieldDescriptor attributes = descriptor.findFieldByName("_attributes");
    Descriptors.Descriptor entryType = attributes.getMessageType();
    DynamicMessage.Builder builder =
        DynamicMessage.newBuilder(descriptor).setField(descriptor.findFieldByName("name"), name);
    builder.addRepeatedField(
        attributes,
        DynamicMessage.newBuilder(entryType)
            .setField(entryType.findFieldByName("key"), "event_id")
            .setField(entryType.findFieldByName("value"), name)
            .build());
    if (eventTime != null) {
      builder.addRepeatedField(
          attributes,
          DynamicMessage.newBuilder(entryType)
              .setField(entryType.findFieldByName("key"), "event_time_ms")
              .setField(entryType.findFieldByName("value"), eventTime)
              .build());
    }
    return builder.build();
  }

  /** Just enough of the Storage Write service to see which calls arrive, and in what order. */
  private final class RecordingWriteService extends BigQueryWriteGrpc.BigQueryWriteImplBase {
    @Override
    public void createWriteStream(
        CreateWriteStreamRequest request, StreamObserver<WriteStream> response) {
      calls.add("create");
      response.onNext(
          WriteStream.newBuilder()
              .setName(request.getParent() + "/streams/s1")
              .setType(request.getWriteStream().getType())
              .setLocation("US")
              .build());
      response.onCompleted();
    }

    @Override
    public void getWriteStream(
        GetWriteStreamRequest request, StreamObserver<WriteStream> response) {
      calls.add("get");
      response.onNext(
          WriteStream.newBuilder().setName(request.getName()).setLocation("US").build());
      response.onCompleted();
    }

    @Override
    public void flushRows(FlushRowsRequest request, StreamObserver<FlushRowsResponse> response) {
      calls.add("flush");
      response.onNext(
          FlushRowsResponse.newBuilder().setOffset(request.getOffset().getValue()).build());
      response.onCompleted();
    }

    @Override
    public void finalizeWriteStream(
        FinalizeWriteStreamRequest request, StreamObserver<FinalizeWriteStreamResponse> response) {
      calls.add("finalize");
      if (request.getName().endsWith("/forgotten")) {
        // What local-bigquery answers for a stream it does not know (after a restart).
        response.onError(
            io.grpc.Status.INVALID_ARGUMENT
                .withDescription("Invalid stream name: " + request.getName())
                .asRuntimeException());
        return;
      }
      if (request.getName().endsWith("/broken")) {
        response.onError(
            io.grpc.Status.INVALID_ARGUMENT
                .withDescription("Rows are invalid")
                .asRuntimeException());
        return;
      }
      response.onNext(FinalizeWriteStreamResponse.newBuilder().setRowCount(0).build());
      response.onCompleted();
    }

    @Override
    public void batchCommitWriteStreams(
        BatchCommitWriteStreamsRequest request,
        StreamObserver<BatchCommitWriteStreamsResponse> response) {
      calls.add("commit");
      response.onNext(BatchCommitWriteStreamsResponse.getDefaultInstance());
      response.onCompleted();
    }

    @Override
    public StreamObserver<AppendRowsRequest> appendRows(
        StreamObserver<AppendRowsResponse> response) {
      return new StreamObserver<>() {
        @Override
        public void onNext(AppendRowsRequest request) {
          long offset = request.hasOffset() ? request.getOffset().getValue() : -1;
          appendedOffsets.add(offset);
          response.onNext(
              AppendRowsResponse.newBuilder()
                  .setAppendResult(
                      AppendRowsResponse.AppendResult.newBuilder()
                          .setOffset(Int64Value.of(Math.max(0, offset))))
                  .build());
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          response.onCompleted();
        }
      };
    }
  }
}
