package io.thriftbq.ingest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.options.IngestionOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.junit.Test;

/** buildPipeline wires the Pub/Sub read to the rest (construction only: no Pub/Sub here). */
public class IngestionPipelineTest {
  @Test
  public void buildsAStreamingPipelineFromASubscription() {
    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(
                "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory",
                "--project=my-project",
                "--subscription=projects/my-project/subscriptions/events-sub",
                "--outputTable=my-project:ds.events",
                "--bigQueryWriteMethod=STORAGE_WRITE_API",
                "--storageWriteApiTriggeringFrequencySec=1",
                "--enableBigQueryAutoshard=true")
            .as(IngestionOptions.class);
    Pipeline pipeline = IngestionPipeline.buildPipeline(options);
    assertTrue("Pub/Sub input runs as a streaming job", options.isStreaming());

    List<String> names = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (node.getEnclosingNode() != null && node.getEnclosingNode().isRootNode()) {
              names.add(node.getFullName());
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (node.getEnclosingNode() != null && node.getEnclosingNode().isRootNode()) {
              names.add(node.getFullName());
            }
          }
        });
    assertEquals(
        List.of(
            "ReadPubsub", "Unpack", "Decode", "WriteEvents", "AllDeadLetters", "WriteDeadLetters"),
        names);
  }
}
