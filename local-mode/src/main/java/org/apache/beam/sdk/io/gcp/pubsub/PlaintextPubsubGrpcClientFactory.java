package org.apache.beam.sdk.io.gcp.pubsub;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Beam's gRPC Pub/Sub client over a plaintext channel, for the Pub/Sub emulator on 127.0.0.1.
 *
 * <p>Beam's {@link PubsubGrpcClient#FACTORY} always opens a TLS channel, which the emulator cannot
 * accept, and its JSON client (what {@code PubsubIO} uses by default) spends most of the source's
 * CPU parsing JSON and decoding base64 payloads (benchmarks/RESULTS.md, "Pipeline CPU by
 * component"). This class lives in Beam's package only to reach {@link PubsubGrpcClient}'s
 * constructor, which takes the channel; everything else is Beam's client as it is. Never use it
 * against the cloud: nothing it sends is encrypted.
 */
public final class PlaintextPubsubGrpcClientFactory implements PubsubClient.PubsubClientFactory {
  private static final long serialVersionUID = 1L;

  /** Beam's own deadline for each call of its gRPC client. */
  private static final int TIMEOUT_SECONDS = 60;

  @Override
  public PubsubClient newClient(
      @Nullable String timestampAttribute, @Nullable String idAttribute, PubsubOptions options)
      throws IOException {
    return newClient(timestampAttribute, idAttribute, options, null);
  }

  @Override
  public PubsubClient newClient(
      @Nullable String timestampAttribute,
      @Nullable String idAttribute,
      PubsubOptions options,
      @Nullable String rootUrlOverride)
      throws IOException {
    String rootUrl = rootUrlOverride != null ? rootUrlOverride : options.getPubsubRootUrl();
    ManagedChannel channel =
        ManagedChannelBuilder.forTarget(PubsubOptions.targetForRootUrl(rootUrl))
            .usePlaintext()
            // A pull returns up to 100 messages of up to 10 MB each; gRPC's default limit of
            // 4 MiB per response would refuse every pull behind one large message, for ever
            // (found by HostileInputsEndToEndTest's 9 MB payloads). The JSON client has no limit.
            .maxInboundMessageSize(Integer.MAX_VALUE)
            .build();
    return new PubsubGrpcClient(
        timestampAttribute, idAttribute, TIMEOUT_SECONDS, channel, options.getGcpCredential());
  }

  @Override
  public String getKind() {
    return "GrpcPlaintext";
  }
}
