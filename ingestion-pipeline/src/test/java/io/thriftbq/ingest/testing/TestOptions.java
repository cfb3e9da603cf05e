package io.thriftbq.ingest.testing;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** Ingestion options for tests: fake project, NoopCredentialFactory, the fake's tables. */
public final class TestOptions {
  private TestOptions() {}

  public static IngestionOptions create(FakeBigQuery fake, String... extraArgs) {
    List<String> args = new ArrayList<>();
    args.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    args.add("--project=" + FakeBigQuery.PROJECT);
    args.add("--runner=DirectRunner");
    args.add("--outputTable=" + fake.eventsSpec());
    args.add("--thriftClassName=" + TestData.EVENT_CLASS);
    args.addAll(Arrays.asList(extraArgs));
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
        .withValidation()
        .as(IngestionOptions.class);
  }

  public static IngestionOptions create(
      FakeBigQuery fake, StorageFormat format, WriteMethod method, String... extraArgs) {
    List<String> args = new ArrayList<>();
    args.add("--formatToStore=" + format);
    args.add("--bigQueryWriteMethod=" + method);
    args.addAll(Arrays.asList(extraArgs));
    return create(fake, args.toArray(new String[0]));
  }
}
