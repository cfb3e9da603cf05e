package io.thriftbq.local.config;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;

import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.local.run.IngestionArgs;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** The step table against SPEC.md, and every step's flags against the ingestion pipeline. */
@RunWith(JUnit4.class)
public class TuningStepTest {
  @Test
  public void matchesTheSpecTable() {
    expect(1, WriteMethod.STREAMING_INSERTS, StorageFormat.TABLE_ROW);
    expect(2, WriteMethod.STREAMING_INSERTS, StorageFormat.TABLE_ROW);
    expect(3, WriteMethod.STREAMING_INSERTS, StorageFormat.TABLE_ROW);
    expect(4, WriteMethod.STORAGE_WRITE_API, StorageFormat.TABLE_ROW);
    expect(5, WriteMethod.STORAGE_WRITE_API, StorageFormat.BEAM_ROW);
    expect(6, WriteMethod.STORAGE_WRITE_API, StorageFormat.AVRO_GENERIC_RECORD);
    expect(7, WriteMethod.STORAGE_API_AT_LEAST_ONCE, StorageFormat.AVRO_GENERIC_RECORD);

    assertThat(TuningStep.of(1).pipelineArgs(null), not(hasItem("--numStreamingKeys=512")));
    assertThat(TuningStep.of(2).pipelineArgs(null), hasItem("--numStreamingKeys=512"));
    assertThat(TuningStep.of(3).pipelineArgs(null), hasItem("--enableBigQueryAutoshard=true"));
    assertThat(
        TuningStep.of(4).pipelineArgs(null), hasItem("--storageWriteApiTriggeringFrequencySec=10"));
    assertThat(TuningStep.of(4).pipelineArgs(null), hasItem("--enableBigQueryAutoshard=true"));
    assertThat(
        TuningStep.of(5).pipelineArgs(null), hasItem("--storageWriteApiTriggeringFrequencySec=1"));
    assertThat(
        TuningStep.of(6).pipelineArgs(null), hasItem("--storageWriteApiTriggeringFrequencySec=1"));
    assertThat(TuningStep.of(7).pipelineArgs(null), hasItem("--useStorageApiConnectionPool=true"));
  }

  private static void expect(int number, WriteMethod method, StorageFormat format) {
    TuningStep step = TuningStep.of(number);
    assertEquals(number, step.number());
    assertEquals(method, step.writeMethod());
    assertEquals(format, step.format());
    assertEquals(method == WriteMethod.STORAGE_WRITE_API, step.exactlyOnce());
  }

  @Test
  public void triggeringFrequencyOverrideOnlyTouchesExactlyOnceSteps() {
    assertThat(
        TuningStep.of(4).pipelineArgs(2), hasItem("--storageWriteApiTriggeringFrequencySec=2"));
    assertEquals(TuningStep.of(7).pipelineArgs(null), TuningStep.of(7).pipelineArgs(2));
  }

  @Test
  public void rejectsUnknownSteps() {
    assertThrows(IllegalArgumentException.class, () -> TuningStep.of(0));
    assertThrows(IllegalArgumentException.class, () -> TuningStep.of(TuningStep.all().size() + 1));
  }

  /** Builds (does not run) the ingestion pipeline with every step's local flags. */
  @Test
  public void everyStepsFlagsBuildAValidIngestionPipeline() {
    for (TuningStep step : TuningStep.all()) {
      List<String> args = new ArrayList<>();
      args.add("--runner=DirectRunner");
      args.add("--project=local-project");
      args.add("--credentialFactoryClass=" + IngestionArgs.NOOP_CREDENTIALS);
      args.add("--pubsubRootUrl=http://localhost:1");
      args.add("--bigQueryEndpoint=http://127.0.0.1:2");
      args.add("--subscription=projects/local-project/subscriptions/s-1");
      args.add("--outputTable=local-project:local_dataset.t");
      args.add("--includeAttributes=true");
      args.add("--includePubsubMessageId=true");
      args.add("--includePublishTime=true");
      args.addAll(step.pipelineArgs(null));
      IngestionOptions options =
          PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
              .withValidation()
              .as(IngestionOptions.class);
      assertNotNull(step.describe(), IngestionPipeline.buildPipeline(options));
    }
  }

  @Test
  public void aTableWithAGapOrAMissingColumnFailsOnLoad() {
    String row2 =
        "2\tname\ttitle\tsetting\tlesson\t--bigQueryWriteMethod=STREAMING_INSERTS"
            + " --formatToStore=TABLE_ROW\n";
    IllegalStateException gap =
        assertThrows(
            IllegalStateException.class,
            () -> TuningStep.parse(new BufferedReader(new StringReader("# header\n" + row2))));
    assertThat(gap.getMessage(), containsString("numbered 1, 2, 3"));
    IllegalStateException columns =
        assertThrows(
            IllegalStateException.class,
            () -> TuningStep.parse(new BufferedReader(new StringReader("1\tname\ttitle\n"))));
    assertThat(columns.getMessage(), containsString("expected 6 tab-separated columns"));
    assertEquals("1.." + TuningStep.all().size(), TuningStep.range());
  }
}
