package io.thriftbq.ingest.scale;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import java.nio.file.Path;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The many-types job graph stays within Dataflow's limits at 50 structs and grows linearly: one
 * decoder for all types, then one write per struct, or one write for every table where the format
 * and the dead letters allow it (see docs/ARCHITECTURE.md, "Where the many-types design's limit
 * is"). Measured with the heaviest write (exactly-once Storage Write with auto-sharding) and the
 * default format, on the job a runner-v1 launch sends, which carries every step in the request. The
 * Dataflow job is produced offline ({@link GraphScale}); the table of benchmarks/RESULTS.md comes
 * from benchmarks/graph-scale.sh.
 */
public class GraphScaleTest {
  /** Beam's DataflowRunner moves the steps out of the request from this size on. */
  private static final long CREATE_JOB_REQUEST_LIMIT_BYTES = 10L * 1024 * 1024;

  @ClassRule public static final TemporaryFolder WORK = new TemporaryFolder();

  private static GraphScale.Config config(int structs) {
    return new GraphScale.Config(
        structs, "attribute", WriteMethod.STORAGE_WRITE_API, StorageFormat.PROTO_MESSAGE, false);
  }

  private static GraphScale.Measurement two;
  private static GraphScale.Measurement three;
  private static GraphScale.Measurement fifty;
  private static int oneTransforms;

  /** Builds 1 struct, and builds and translates 2, 3 and 50. */
  @BeforeClass
  public static void measure() throws Exception {
    Path work = WORK.getRoot().toPath();
    int[] counts =
        GraphScale.countTransforms(
            IngestionPipeline.buildPipeline(
                GraphScale.options(config(1), ScaleIdl.write(work, 1), work.resolve("unused"))));
    oneTransforms = counts[0] + counts[1];
    two = GraphScale.measure(config(2), ScaleIdl.write(work, 2), work);
    three = GraphScale.measure(config(3), ScaleIdl.write(work, 3), work);
    fifty = GraphScale.measure(config(50), ScaleIdl.write(work, 50), work);
  }

  @Test
  public void transformsGrowByTheSameCountPerStruct() {
    int perStruct = three.transforms() - two.transforms();
    assertTrue("a struct adds its write: " + perStruct, perStruct >= 20 && perStruct <= 60);
    assertEquals(
        "transforms(50) = transforms(2) + 48 x per struct (" + perStruct + ")",
        two.transforms() + 48 * perStruct,
        fifty.transforms());
    // A single-type job stamps its dead letters' table in steps of its own; otherwise it is the
    // same
    // graph.
    assertTrue(
        "transforms(1) = "
            + oneTransforms
            + " is about transforms(2) - per struct = "
            + (two.transforms() - perStruct),
        Math.abs(oneTransforms - (two.transforms() - perStruct)) <= 3);
  }

  /**
   * Where one write takes every table (here Avro with kept payloads on the Storage API), a struct
   * adds only its hand-off step, not a write.
   */
  @Test
  public void oneWriteForEveryTableAddsOnlyAHandOffStepPerStruct() throws Exception {
    Path work = WORK.getRoot().toPath();
    int[] sizes = {2, 3, 50};
    int[] transforms = new int[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      GraphScale.Config config =
          new GraphScale.Config(
              sizes[i],
              "attribute",
              WriteMethod.STORAGE_WRITE_API,
              StorageFormat.AVRO_GENERIC_RECORD,
              false,
              true);
      int[] counts =
          GraphScale.countTransforms(
              IngestionPipeline.buildPipeline(
                  GraphScale.options(
                      config, ScaleIdl.write(work, sizes[i]), work.resolve("unused"))));
      transforms[i] = counts[0] + counts[1];
    }
    int perStruct = transforms[1] - transforms[0];
    assertEquals("a struct adds its hand-off ParDo (composite + primitive)", 2, perStruct);
    assertEquals(transforms[0] + 48 * perStruct, transforms[2]);
  }

  @Test
  public void fiftyStructsFitInOneJobRequestAndGrowLinearly() {
    assertFalse("the runner kept the steps in the request", fifty.graphUploaded());
    assertTrue(
        "the 50-struct job request is " + fifty.jobJsonBytes() + " bytes, over 10 MiB",
        fifty.jobJsonBytes() < CREATE_JOB_REQUEST_LIMIT_BYTES);
    assertTrue(
        "the portable pipeline proto is staged apart from the request, and is smaller",
        fifty.pipelineProtoBytes() > 0 && fifty.pipelineProtoBytes() < fifty.jobJsonBytes());

    long perStruct = three.jobJsonBytes() - two.jobJsonBytes();
    long predicted = two.jobJsonBytes() + 48 * perStruct;
    assertTrue(
        "the job grows linearly: 50 structs "
            + fifty.jobJsonBytes()
            + " bytes against "
            + predicted
            + " predicted from 2 and 3 ("
            + perStruct
            + " per struct)",
        Math.abs(fifty.jobJsonBytes() - predicted) <= predicted / 20);
    assertEquals(
        "Dataflow steps grow by the same count per struct",
        two.steps() + 48 * (three.steps() - two.steps()),
        fifty.steps());
  }
}
