package io.thriftbq.local.beamio;

import com.google.auth.Credentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.lang.reflect.Constructor;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubGrpcClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Beam's gRPC Pub/Sub client over a plaintext channel, for the Pub/Sub emulator on 127.0.0.1.
 *
 * <p>Beam's {@link PubsubGrpcClient#FACTORY} always opens a TLS channel, which the emulator cannot
 * accept, and its JSON client (what {@code PubsubIO} uses by default) spends most of the source's
 * CPU parsing JSON and decoding base64 payloads (benchmarks/RESULTS.md, "Pipeline CPU by
 * component"). The only way to give Beam's client another channel is {@link PubsubGrpcClient}'s
 * package-private constructor, which this class calls by reflection ({@link BeamInternals});
 * everything else is Beam's client as it is. No Beam issue asks for a public way (the closest,
 * apache/beam#18851 "Support Pubsub emulator in Junit", is open and would not by itself expose the
 * channel). Never use it against the cloud: nothing it sends is encrypted.
 */
public final class PlaintextPubsubGrpcClientFactory implements PubsubClient.PubsubClientFactory {
  private static final long serialVersionUID = 1L;

  /** Beam's own deadline for each call of its gRPC client. */
  private static final int TIMEOUT_SECONDS = 60;

  /**
   * {@code PubsubGrpcClient(timestampAttribute, idAttribute, timeoutSec, channel, credentials)}.
   */
  private static final Constructor<PubsubGrpcClient> WITH_CHANNEL =
      BeamInternals.constructor(
          PubsubGrpcClient.class,
          String.class,
          String.class,
          int.class,
          ManagedChannel.class,
          Credentials.class);

  /**
   * A channel to the Pub/Sub emulator at {@code target} ({@code host:port}), which serves plaintext
   * only; local mode's own publisher uses it too.
   */
  public static ManagedChannel plaintextChannel(String target) {
    return ManagedChannelBuilder.forTarget(target)
        .usePlaintext()
        // A pull returns up to 100 messages of up to 10 MB each; gRPC's default limit of 4 MiB per
        // response would refuse every pull behind one large message, for ever (found by
        // HostileInputsEndToEndTest's 9 MB payloads). The JSON client has no limit.
        .maxInboundMessageSize(Integer.MAX_VALUE)
        .build();
  }

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
    ManagedChannel channel = plaintextChannel(PubsubOptions.targetForRootUrl(rootUrl));
    try {
      return WITH_CHANNEL.newInstance(
          timestampAttribute, idAttribute, TIMEOUT_SECONDS, channel, options.getGcpCredential());
    } catch (ReflectiveOperationException e) {
      channel.shutdownNow();
      throw BeamInternals.rethrow("PubsubGrpcClient's constructor", e);
    }
  }

  @Override
  public String getKind() {
    return "GrpcPlaintext";
  }
}
