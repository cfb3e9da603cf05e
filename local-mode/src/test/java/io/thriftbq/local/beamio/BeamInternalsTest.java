package io.thriftbq.local.beamio;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubGrpcClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;

/**
 * The adapters that reach Beam's package-private members ({@link BeamInternals}) fail here, loudly,
 * as soon as Beam changes: on any Beam release but the one they were written for, and when a member
 * they call is gone.
 */
public class BeamInternalsTest {
  @Test
  public void theAdaptersWereWrittenForThisBeamRelease() {
    assertEquals(
        "Beam was upgraded: check that PlaintextPubsubGrpcClientFactory and"
            + " StorageApiClientCaches still reach what they need (or use a public API the new"
            + " release offers), then set BeamInternals.WRITTEN_FOR_BEAM",
        BeamInternals.WRITTEN_FOR_BEAM,
        BeamInternals.beamVersion());
  }

  @Test
  public void thePlaintextPubsubFactoryBuildsBeamsGrpcClient() throws Exception {
    PubsubOptions options = PipelineOptionsFactory.create().as(PubsubOptions.class);
    options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
    options.setPubsubRootUrl("http://127.0.0.1:1");
    // Building the client opens no connection: the channel connects on the first call.
    try (PubsubClient client =
        new PlaintextPubsubGrpcClientFactory().newClient("ts", "id", options)) {
      assertTrue(client instanceof PubsubGrpcClient);
    }
  }

  @Test
  public void theStorageApiCachesCanBeClosed() {
    // Empty caches: closing them reaches both clearCache() methods and closes nothing.
    StorageApiClientCaches.closeAll();
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void aMissingMemberNamesItselfAndTheBeamRelease() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> BeamInternals.staticMethod(PubsubGrpcClient.class, "noSuchMethod"));
    assertThat(e.getMessage(), containsString("PubsubGrpcClient.noSuchMethod()"));
    assertThat(
        e.getMessage(), containsString("written for Beam " + BeamInternals.WRITTEN_FOR_BEAM));
    IllegalStateException constructor =
        assertThrows(
            IllegalStateException.class,
            () -> BeamInternals.constructor(PubsubGrpcClient.class, String.class));
    assertThat(constructor.getMessage(), containsString("PubsubGrpcClient(String)"));
  }
}
