package io.thriftbq.ingest.write;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.TransformNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.Rule;
import org.junit.Test;

/** The hand-off before the write: every row reaches exactly one writer, dealt out evenly. */
public class HandOffTest {
  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Test
  public void dealsTheElementsOutInTurn() {
    HandOff.InTurn<String> inTurn = new HandOff.InTurn<>();
    int[] shares = new int[3];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      int partition = inTurn.partitionFor("row", 3);
      order.add(partition);
      shares[partition]++;
    }
    assertEquals(List.of(1, 2, 0, 1, 2, 0, 1, 2, 0), order);
    assertEquals(List.of(3, 3, 3), List.of(shares[0], shares[1], shares[2]));
  }

  @Test
  public void everyRowReachesExactlyOneOfTheWritersEachBehindAHandOffOfItsOwn() {
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(i);
    }
    PCollection<String> written =
        HandOff.toWriters(
            pipeline.apply(Create.of(rows)),
            3,
            share ->
                share.apply(
                    "Write",
                    MapElements.into(TypeDescriptors.strings())
                        .via((SerializableFunction<Integer, String>) String::valueOf)));
    List<String> expected = rows.stream().map(String::valueOf).toList();
    PAssert.that(written).containsInAnyOrder(expected);

    Set<String> names = transformNames(pipeline);
    for (int writer = 1; writer <= 3; writer++) {
      assertTrue(names.toString(), names.contains("Writer" + writer + "/HandOff"));
      assertTrue(names.toString(), names.contains("Writer" + writer + "/Write"));
    }
    assertFalse(names.toString(), names.contains("Writer4/HandOff"));
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void oneWriterKeepsTheNamesOfAWriteWithoutASplit() {
    PCollection<String> written =
        HandOff.toWriters(
            pipeline.apply(Create.of(List.of(1, 2, 3))),
            1,
            share ->
                share.apply(
                    "Write",
                    MapElements.into(TypeDescriptors.strings())
                        .via((SerializableFunction<Integer, String>) String::valueOf)));
    PAssert.that(written).containsInAnyOrder("1", "2", "3");
    Set<String> names = transformNames(pipeline);
    assertTrue(names.toString(), names.contains("HandOff"));
    assertTrue(names.toString(), names.contains("Write"));
    assertFalse(names.toString(), names.contains("DealToWriters"));
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void aHandOffFeedsAtLeastOneWriter() {
    PCollection<Integer> input = pipeline.apply(Create.of(List.of(1)));
    assertThrows(IllegalArgumentException.class, () -> HandOff.toWriters(input, 0, share -> share));
    pipeline.enableAbandonedNodeEnforcement(false);
  }

  private static Set<String> transformNames(Pipeline pipeline) {
    return new HashSet<>(TransformNames.all(pipeline));
  }
}
