package io.thriftbq.ingest;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;

/** The full names of a constructed pipeline's transforms, for tests that check its shape. */
public final class TransformNames {
  private TransformNames() {}

  /**
   * Whether any transform of {@code pipeline}, composite or not, has a name ending in {@code end}.
   */
  static boolean anyEndsWith(Pipeline pipeline, String end) {
    return all(pipeline).stream().anyMatch(name -> name.endsWith(end));
  }

  /** The full name of every transform of {@code pipeline}, composite or not, in graph order. */
  public static List<String> all(Pipeline pipeline) {
    List<String> names = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            names.add(node.getFullName());
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            names.add(node.getFullName());
          }
        });
    return names;
  }
}
