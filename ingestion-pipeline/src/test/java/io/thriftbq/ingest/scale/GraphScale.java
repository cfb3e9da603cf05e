package io.thriftbq.ingest.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.services.dataflow.model.DataflowPackage;
import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.dataflow.DataflowRunner;
import org.apache.beam.runners.dataflow.options.DataflowPipelineDebugOptions;
import org.apache.beam.runners.dataflow.util.PackageUtil;
import org.apache.beam.runners.dataflow.util.Stager;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * How the many-types job graph grows with the number of structs: builds the ingestion pipeline for
 * an IDL of N structs ({@link ScaleIdl}), counts its transforms, and produces the Dataflow job
 * specification offline, with {@code DataflowRunner.run} itself (so the v1 transform overrides and
 * the translator are the ones a real launch uses): {@code --templateLocation} makes the runner
 * write the job's JSON to a local file and return before {@code createJob}; a {@link
 * CapturingStager} stands in for GCS (it records the portable pipeline proto, which the runner
 * stages as {@code pipeline.pb}, and the graph, if the runner moves it out of the request); {@code
 * NoopCredentialFactory} and {@code NoopPathValidator} keep credentials and GCS out; the one file
 * to stage is the IDL, so the runner hashes no classpath. Nothing contacts the network (run it
 * under {@code unshare -n} to check; benchmarks/graph-scale.sh does).
 *
 * <p>{@code main} prints the table of benchmarks/RESULTS.md; GraphScaleTest asserts its limits.
 */
public final class GraphScale {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What one build of the pipeline measured. */
  public record Measurement(
      int structs,
      String layout,
      WriteMethod method,
      StorageFormat format,
      boolean runnerV2,
      int composites,
      int primitives,
      long planAndBuildMillis,
      long translateMillis,
      long planAndBuildCpuMillis,
      long translateCpuMillis,
      int steps,
      long jobJsonBytes,
      long stepsJsonBytes,
      long largestStepBytes,
      String largestStep,
      long pipelineProtoBytes,
      boolean graphUploaded) {

    public int transforms() {
      return composites + primitives;
    }

    public long launchMillis() {
      return planAndBuildMillis + translateMillis;
    }
  }

  /**
   * One measured configuration.
   *
   * @param keepPayload {@code --keepPayloadForWriteFailures}, with which the Storage API writes
   *     TABLE_ROW and Avro structs with one write for every table
   */
  public record Config(
      int structs,
      String layout,
      WriteMethod method,
      StorageFormat format,
      boolean runnerV2,
      boolean keepPayload) {
    public Config(
        int structs, String layout, WriteMethod method, StorageFormat format, boolean runnerV2) {
      this(structs, layout, method, format, runnerV2, false);
    }
  }

  private GraphScale() {}

  /**
   * Plans and builds the pipeline of {@code config} on {@code idl} and translates it to a Dataflow
   * job without submitting it; {@code work} receives the job file.
   */
  public static Measurement measure(Config config, Path idl, Path work) throws IOException {
    Path jobFile = work.resolve("job-" + System.nanoTime() + ".json");
    IngestionOptions options = options(config, idl, jobFile);

    // Wall time, and the launching thread's CPU time, which other load on the machine inflates
    // much less (planning, building and translating run on this one thread).
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long startCpu = threads.getCurrentThreadCpuTime();
    Pipeline pipeline = IngestionPipeline.buildPipeline(options);
    long built = System.nanoTime();
    long builtCpu = threads.getCurrentThreadCpuTime();
    int[] counts = countTransforms(pipeline);

    long translateStart = System.nanoTime();
    long translateStartCpu = threads.getCurrentThreadCpuTime();
    DataflowRunner.fromOptions(options).run(pipeline);
    long translated = System.nanoTime();
    long translatedCpu = threads.getCurrentThreadCpuTime();

    CapturingStager stager =
        (CapturingStager) options.as(DataflowPipelineDebugOptions.class).getStager();
    byte[] jobJson = Files.readAllBytes(jobFile);
    if (System.getProperty("graphScale.keepJobs") == null) {
      Files.delete(jobFile);
    }
    JsonNode job = JSON.readTree(jobJson);
    JsonNode steps = job.path("steps");
    byte[] graph = stager.staged.get(CapturingStager.GRAPH_FILE);
    if (graph != null) {
      // Over 10 MB the runner moves the steps out of the request into a staged file.
      steps = JSON.readTree(graph).path("steps");
    }
    long largest = 0;
    String largestName = "";
    for (JsonNode step : steps) {
      long size = JSON.writeValueAsBytes(step).length;
      if (size > largest) {
        largest = size;
        // The step's user name, shortened to the transform of ours it belongs to.
        String userName = step.path("properties").path("user_name").path("value").asText();
        largestName =
            userName.contains("/") ? userName.substring(0, userName.indexOf('/')) : userName;
      }
    }
    byte[] proto = stager.staged.get(CapturingStager.PIPELINE_FILE);
    return new Measurement(
        config.structs(),
        config.layout() + (config.keepPayload() ? ", kept payloads" : ""),
        config.method(),
        config.format(),
        config.runnerV2(),
        counts[0],
        counts[1],
        (built - start) / 1_000_000,
        (translated - translateStart) / 1_000_000,
        (builtCpu - startCpu) / 1_000_000,
        (translatedCpu - translateStartCpu) / 1_000_000,
        steps.size(),
        graph == null ? jobJson.length : jobJson.length + graph.length,
        JSON.writeValueAsBytes(steps).length,
        largest,
        largestName,
        proto == null ? -1 : proto.length,
        graph != null);
  }

  /**
   * {composite, primitive} transforms of {@code pipeline} as built (before any runner override).
   */
  public static int[] countTransforms(Pipeline pipeline) {
    int[] counts = new int[2];
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (!node.isRootNode()) {
              counts[0]++;
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            counts[1]++;
          }
        });
    return counts;
  }

  static IngestionOptions options(Config config, Path idl, Path jobFile) {
    List<String> args = new ArrayList<>();
    args.add("--runner=DataflowRunner");
    args.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    args.add("--pathValidatorClass=org.apache.beam.sdk.extensions.gcp.storage.NoopPathValidator");
    args.add("--stagerClass=" + CapturingStager.class.getName());
    args.add("--project=fake-project");
    args.add("--region=us-central1");
    args.add("--tempLocation=gs://fake-bucket/tmp");
    args.add("--gcpTempLocation=gs://fake-bucket/tmp");
    args.add("--stagingLocation=gs://fake-bucket/staging");
    args.add("--filesToStage=" + idl.toAbsolutePath());
    args.add("--jobName=graph-scale-" + config.structs());
    // The runner writes the job here and returns before it would call createJob.
    args.add("--templateLocation=" + jobFile.toAbsolutePath());
    // As the project deploys it (Streaming Engine, which auto-sharding needs).
    args.add("--enableStreamingEngine=true");
    args.add("--experiments=enable_streaming_engine" + (config.runnerV2() ? ",use_runner_v2" : ""));
    args.add("--subscription=projects/fake-project/subscriptions/events");
    args.add("--thriftIdl=" + idl.toAbsolutePath());
    if (config.structs() == 1) {
      args.add("--thriftStruct=" + ScaleIdl.structs(1).get(0));
      args.add("--outputTable=fake-project:ds.events");
    } else {
      if (config.layout().equals("union")) {
        args.add("--thriftUnion=" + ScaleIdl.UNION);
      } else {
        args.add("--thriftStructs=" + String.join(",", ScaleIdl.structs(config.structs())));
      }
      args.add("--outputTable=fake-project:ds.events_{struct}");
    }
    args.add("--formatToStore=" + config.format());
    args.add("--bigQueryWriteMethod=" + config.method());
    if (config.method() != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      args.add("--enableBigQueryAutoshard=true");
    }
    if (config.method() == WriteMethod.STORAGE_WRITE_API) {
      args.add("--storageWriteApiTriggeringFrequencySec=1");
    }
    if (config.method() == WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      args.add("--useStorageApiConnectionPool=true");
    }
    if (config.keepPayload()) {
      args.add("--keepPayloadForWriteFailures=true");
    }
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
        .withValidation()
        .as(IngestionOptions.class);
  }

  /**
   * Stands in for GCS: stages nothing, remembers what the runner would have uploaded (the portable
   * pipeline proto; the job graph when it is too large for the request).
   */
  public static final class CapturingStager implements Stager {
    static final String PIPELINE_FILE = "pipeline.pb";
    static final String GRAPH_FILE = "dataflow_graph.json";

    final Map<String, byte[]> staged = new LinkedHashMap<>();

    public static CapturingStager fromOptions(PipelineOptions options) {
      return new CapturingStager();
    }

    @Override
    public List<DataflowPackage> stageFiles(List<PackageUtil.StagedFile> files) {
      return List.of();
    }

    @Override
    public DataflowPackage stageToFile(byte[] bytes, String name) {
      staged.put(name, bytes);
      return new DataflowPackage().setName(name).setLocation("gs://fake-bucket/staging/" + name);
    }
  }

  /**
   * Prints the table: {@code GraphScale [N...]}, default 1 10 50, for each write method with
   * PROTO_MESSAGE and AVRO_GENERIC_RECORD on runner v1, PROTO_MESSAGE on runner v2, attribute
   * layout; then the union layout (at-least-once, PROTO_MESSAGE, v1).
   */
  public static void main(String[] args) throws IOException {
    List<Integer> sizes = new ArrayList<>();
    for (String arg : args) {
      sizes.add(Integer.parseInt(arg));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(1, 10, 50);
    }
    Path work = Files.createTempDirectory("graph-scale");
    Map<Integer, Path> idls = new LinkedHashMap<>();
    for (int n : sizes) {
      idls.put(n, ScaleIdl.write(work, n));
    }
    // Warm-up: the first build in a JVM loads Beam's classes; every row below is a warm build.
    measure(
        new Config(
            1, "attribute", WriteMethod.STORAGE_WRITE_API, StorageFormat.PROTO_MESSAGE, false),
        idls.get(sizes.get(0)),
        work);
    System.out.println(
        "| N | layout | method | format | runner | transforms (composite + primitive) | Dataflow"
            + " steps | plan + build ms, wall (CPU) | translate ms, wall (CPU) | job JSON bytes | steps JSON bytes |"
            + " largest step (bytes) | pipeline proto bytes | graph moved out of request |");
    System.out.println("|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|");
    for (boolean v2 : List.of(false, true)) {
      // Runner v2 sends no steps (its request is the same ~10 KB whatever the format): one format.
      for (StorageFormat format :
          v2
              ? List.of(StorageFormat.PROTO_MESSAGE)
              : List.of(StorageFormat.PROTO_MESSAGE, StorageFormat.AVRO_GENERIC_RECORD)) {
        for (WriteMethod method : WriteMethod.values()) {
          for (int n : sizes) {
            Measurement m =
                measure(new Config(n, "attribute", method, format, v2), idls.get(n), work);
            print(m);
          }
        }
      }
    }
    // Kept payloads: the Storage API writes every Avro struct with one write (dynamic
    // destinations).
    for (WriteMethod method :
        List.of(WriteMethod.STORAGE_WRITE_API, WriteMethod.STORAGE_API_AT_LEAST_ONCE)) {
      for (int n : sizes) {
        print(
            measure(
                new Config(n, "attribute", method, StorageFormat.AVRO_GENERIC_RECORD, false, true),
                idls.get(n),
                work));
      }
    }
    for (int n : sizes) {
      if (n > 1) {
        print(
            measure(
                new Config(
                    n,
                    "union",
                    WriteMethod.STORAGE_API_AT_LEAST_ONCE,
                    StorageFormat.PROTO_MESSAGE,
                    false),
                idls.get(n),
                work));
      }
    }
  }

  private static void print(Measurement m) {
    System.out.printf(
        "| %d | %s | %s | %s | %s | %d (%d + %d) | %d | %,d (%,d) | %,d (%,d) | %,d | %,d | %s (%,d) | %,d"
            + " | %s |%n",
        m.structs(),
        m.layout(),
        m.method(),
        m.format(),
        m.runnerV2() ? "v2" : "v1",
        m.transforms(),
        m.composites(),
        m.primitives(),
        m.steps(),
        m.planAndBuildMillis(),
        m.planAndBuildCpuMillis(),
        m.translateMillis(),
        m.translateCpuMillis(),
        m.jobJsonBytes(),
        m.stepsJsonBytes(),
        m.largestStep(),
        m.largestStepBytes(),
        m.pipelineProtoBytes(),
        m.graphUploaded() ? "yes" : "no");
    System.out.flush();
  }
}
