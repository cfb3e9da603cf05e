package io.thriftbq.local.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.DatagenOptions;
import io.thriftbq.datagen.DatagenPipeline;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.IngestionPipeline;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.FlinkMetrics;
import io.thriftbq.local.engine.LocalEngine;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.report.LocalReport;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.stack.BigQueryEmulator;
import io.thriftbq.local.stack.EmulatorBigQueryServices;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.HandOffLatencyProbe;
import io.thriftbq.local.stack.PubsubEmulator;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftSources;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServicesImpl;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;

/**
 * One local run on an already started {@link EmulatorStack}: creates the topic, subscription and
 * tables, starts the ingestion pipeline (on {@link LocalEngine}, in this JVM), publishes the
 * generator's events and the malformed messages, follows progress by querying the BigQuery
 * emulator, and builds the {@link LocalReport}.
 *
 * <p>Ingestion runs in this JVM, not a child one, because the hand-off latency probe ({@link
 * HandOffLatencyProbe}) and the pipeline's metrics are read from it directly; callers end the JVM
 * with {@code System.exit} because the Storage Write client leaves a non-daemon thread.
 */
public final class LocalRun {
  public static final String NOOP_CREDENTIALS =
      "org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory";

  /** Ack deadline of the subscription: short, so a restarted pipeline gets unacked work back. */
  public static final int ACK_DEADLINE_SECONDS = 10;

  /** Events whose converted rows are encoded to measure the mean element size. */
  public static final int ENCODED_SIZE_SAMPLE = 1000;

  /**
   * Events created this soon after the ingestion pipeline was started wait for the engine to begin
   * reading; the report also gives percentiles without them.
   */
  public static final long WARMUP_MILLIS = 10_000;

  private final EmulatorStack stack;
  private final LocalRunConfig config;
  private final PrintStream out;

  public LocalRun(EmulatorStack stack, LocalRunConfig config, PrintStream out) {
    this.stack = stack;
    this.config = config;
    this.out = out;
  }

  /** Topic and subscription of one run. */
  public record Channel(String topic, String subscription) {}

  public static Channel createChannel(EmulatorStack stack, String prefix) throws IOException {
    return createChannel(stack, prefix, false);
  }

  /** A new topic and subscription; {@code replayable} keeps acked messages for a later seek. */
  public static Channel createChannel(EmulatorStack stack, String prefix, boolean replayable)
      throws IOException {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String topic = prefix + "-" + suffix;
    String subscription = topic + "-sub";
    stack.pubsub().createTopic(topic);
    stack.pubsub().createSubscription(subscription, topic, ACK_DEADLINE_SECONDS, replayable);
    return new Channel(topic, subscription);
  }

  /** The ingestion flags of a local run of {@code step}, for the sample event. */
  public static List<String> ingestionArgs(
      EmulatorStack stack,
      TuningStep step,
      StorageFormat format,
      Integer triggeringFrequencyOverrideSec,
      String subscription,
      String table,
      boolean directRunnerChecks) {
    return ingestionArgs(
        stack,
        step,
        format,
        triggeringFrequencyOverrideSec,
        subscription,
        table,
        directRunnerChecks,
        LocalRunConfig.defaults().ingestionStructArgs());
  }

  /** The ingestion flags of a local run of {@code step}; {@code structArgs} name the struct. */
  public static List<String> ingestionArgs(
      EmulatorStack stack,
      TuningStep step,
      StorageFormat format,
      Integer triggeringFrequencyOverrideSec,
      String subscription,
      String table,
      boolean directRunnerChecks,
      List<String> structArgs) {
    return ingestionArgs(
        stack,
        step,
        format,
        triggeringFrequencyOverrideSec,
        subscription,
        table,
        directRunnerChecks,
        structArgs,
        LocalEngine.fromSystemProperties());
  }

  /** The ingestion flags of a local run of {@code step} on {@code engine}. */
  public static List<String> ingestionArgs(
      EmulatorStack stack,
      TuningStep step,
      StorageFormat format,
      Integer triggeringFrequencyOverrideSec,
      String subscription,
      String table,
      boolean directRunnerChecks,
      List<String> structArgs,
      LocalEngine engine) {
    PubsubEmulator pubsub = stack.pubsub();
    BigQueryEmulator bigquery = stack.bigquery();
    List<String> args = new ArrayList<>(engine.runnerArgs(directRunnerChecks));
    args.add("--streaming=true");
    args.add("--project=" + bigquery.project());
    args.add("--credentialFactoryClass=" + NOOP_CREDENTIALS);
    args.add("--pubsubRootUrl=" + pubsub.rootUrl());
    args.add("--bigQueryEndpoint=" + bigquery.restEndpoint());
    args.add("--subscription=" + pubsub.subscriptionPath(subscription));
    args.add("--outputTable=" + bigquery.project() + ":" + LocalRunConfig.DATASET + "." + table);
    args.addAll(structArgs);
    args.add("--includeAttributes=true");
    args.add("--includePubsubMessageId=true");
    args.add("--includePublishTime=true");
    args.addAll(step.pipelineArgs(triggeringFrequencyOverrideSec, format));
    args.addAll(engine.extraPipelineArgs());
    return args;
  }

  /** Starts the ingestion pipeline in this JVM, writing through the emulator's services. */
  public static PipelineResult startIngestion(EmulatorStack stack, List<String> args) {
    return startIngestion(stack.bigquery().storageWriteEndpoint(), args);
  }

  /**
   * Starts the ingestion pipeline in this JVM, writing Storage Write API appends to the emulator's
   * plaintext gRPC endpoint ({@code host:port}).
   */
  public static PipelineResult startIngestion(String storageWriteEndpoint, List<String> args) {
    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
            .withValidation()
            .as(IngestionOptions.class);
    return IngestionPipeline.launch(options, new EmulatorBigQueryServices(storageWriteEndpoint))
        .run();
  }

  /**
   * BigQuery services for the emulator: REST through Beam's own client at {@code
   * --bigQueryEndpoint}, the Storage Write API over plaintext gRPC (see {@link
   * EmulatorBigQueryServices}).
   */
  public static EmulatorBigQueryServices emulatorServices(EmulatorStack stack) {
    return new EmulatorBigQueryServices(stack.bigquery().storageWriteEndpoint());
  }

  /** The generator flags of a local run, for the sample event. */
  public static List<String> datagenArgs(
      EmulatorStack stack,
      String topic,
      long events,
      long ratePerSec,
      long seed,
      int recordsPerMessage,
      boolean directRunnerChecks) {
    return datagenArgs(
        stack,
        topic,
        events,
        ratePerSec,
        seed,
        recordsPerMessage,
        directRunnerChecks,
        LocalRunConfig.defaults().datagenStructArgs());
  }

  /** The generator flags of a local run; {@code structArgs} name the struct. */
  public static List<String> datagenArgs(
      EmulatorStack stack,
      String topic,
      long events,
      long ratePerSec,
      long seed,
      int recordsPerMessage,
      boolean directRunnerChecks,
      List<String> structArgs) {
    List<String> args = new ArrayList<>();
    args.add("--runner=DirectRunner");
    args.add("--blockOnRun=false");
    args.add("--project=" + stack.pubsub().project());
    args.add("--credentialFactoryClass=" + NOOP_CREDENTIALS);
    args.add("--pubsubRootUrl=" + stack.pubsub().rootUrl());
    args.add("--outputTopic=" + stack.pubsub().topicPath(topic));
    args.addAll(structArgs);
    args.add("--maxEvents=" + events);
    args.add("--generatorRatePerSec=" + ratePerSec);
    args.add("--seed=" + seed);
    args.add("--maxRecordsPerBatch=" + recordsPerMessage);
    args.add("--enforceImmutability=" + directRunnerChecks);
    args.add("--enforceEncodability=" + directRunnerChecks);
    return args;
  }

  public static DatagenOptions datagenOptions(List<String> args) {
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
        .withValidation()
        .as(DatagenOptions.class);
  }

  /** The generator's events, regenerated by sequence number (the generator is deterministic). */
  public static RandomEventGenerator generatorFor(List<String> datagenArgs) {
    return new RandomEventGenerator(GeneratorConfig.fromOptions(datagenOptions(datagenArgs)));
  }

  /**
   * Creates the event and dead-letter tables up front. Needed with {@code
   * --useStorageApiConnectionPool}: the pooled writer looks the table up before BigQueryIO's
   * create-if-needed path runs, and that lookup fails on a missing table.
   */
  public static void createTables(EmulatorStack stack, String table) throws Exception {
    createTables(stack, table, LocalRunConfig.defaults().ingestionStructArgs());
  }

  /** Creates the tables for the struct that {@code structArgs} (ingestion flags) name. */
  public static void createTables(EmulatorStack stack, String table, List<String> structArgs)
      throws Exception {
    BigQueryServicesImpl services = new BigQueryServicesImpl();
    IngestionOptions options = tableAdminOptions(stack, structArgs);
    ThriftSource source =
        ThriftSources.choose(options, "--thriftClassName", options.getThriftClassName());
    TableSchema events = EventSchemas.of(source, MetadataColumns.ALL).tableSchema();
    try (BigQueryServices.DatasetService datasets = services.getDatasetService(options)) {
      createIfMissing(datasets, stack, table, events);
      createIfMissing(
          datasets, stack, table + DeadLetterTables.DEFAULT_SUFFIX, DeadLetterSchema.tableSchema());
    }
  }

  /** Creates {@code table} in the local dataset with {@code schema}, unless it exists. */
  public static void createTable(EmulatorStack stack, String table, TableSchema schema)
      throws Exception {
    try (BigQueryServices.DatasetService datasets =
        new BigQueryServicesImpl().getDatasetService(tableAdminOptions(stack, List.of()))) {
      createIfMissing(datasets, stack, table, schema);
    }
  }

  /** Options for table administration on the BigQuery emulator, plus {@code extraArgs}. */
  private static IngestionOptions tableAdminOptions(EmulatorStack stack, List<String> extraArgs) {
    List<String> args = new ArrayList<>(extraArgs);
    args.add("--project=" + stack.bigquery().project());
    args.add("--credentialFactoryClass=" + NOOP_CREDENTIALS);
    args.add("--bigQueryEndpoint=" + stack.bigquery().restEndpoint());
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(IngestionOptions.class);
  }

  private static void createIfMissing(
      BigQueryServices.DatasetService datasets,
      EmulatorStack stack,
      String table,
      TableSchema schema)
      throws Exception {
    if (stack.bigquery().tableExists(LocalRunConfig.DATASET, table)) {
      return;
    }
    datasets.createTable(
        new Table()
            .setTableReference(
                new TableReference()
                    .setProjectId(stack.bigquery().project())
                    .setDatasetId(LocalRunConfig.DATASET)
                    .setTableId(table))
            .setSchema(schema));
  }

  /**
   * The value of {@code path} (dotted) in generated event {@code n}, as the event table holds it:
   * decoded by the pipeline's own TABLE_ROW converter.
   *
   * @throws IllegalArgumentException when the path names no non-repeated field of the struct
   */
  public static java.util.function.LongFunction<String> idFieldOf(
      RandomEventGenerator generator, String path) {
    ConverterConfig config =
        new ConverterConfig(
            generator.config().source(),
            generator.config().protocol(),
            ConverterConfig.DEFAULT_MAX_STRING_BYTES,
            ConverterConfig.DEFAULT_MAX_CONTAINER_ELEMENTS,
            ConverterConfig.DEFAULT_MAX_ROW_BYTES,
            MetadataColumns.NONE,
            io.thriftbq.ingest.options.UnknownEnumValues.KEEP,
            io.thriftbq.ingest.options.InvalidUtf8.REPLACE);
    String[] parts = path.split("\\.");
    checkIdPath(config.schemas().tableSchema().getFields(), parts, 0, path);
    EventConverter<TableRow> rows = EventConverters.create(config, StorageFormat.TABLE_ROW);
    // Its own generator: the publisher's is not to be shared between threads.
    RandomEventGenerator events = new RandomEventGenerator(generator.config());
    return n -> {
      try {
        Object value = rows.fromBytes(events.serialize(n), EventMetadata.EMPTY);
        for (String part : parts) {
          value = value == null ? null : ((Map<?, ?>) value).get(part);
        }
        return String.valueOf(value);
      } catch (ThriftDecodeException e) {
        throw new IllegalStateException("generated event " + n + " does not decode", e);
      }
    };
  }

  private static void checkIdPath(
      List<TableFieldSchema> fields, String[] parts, int index, String path) {
    TableFieldSchema field =
        fields.stream()
            .filter(f -> f.getName().equals(parts[index]))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--id-field=" + path + ": the struct has no field " + parts[index]));
    if ("REPEATED".equals(field.getMode())) {
      throw new IllegalArgumentException(
          "--id-field=" + path + ": " + parts[index] + " is repeated; name a single value");
    }
    boolean record = "RECORD".equals(field.getType());
    if (index == parts.length - 1 && record) {
      throw new IllegalArgumentException(
          "--id-field=" + path + " is a struct; name one of its scalar fields");
    }
    if (index < parts.length - 1) {
      if (!record) {
        throw new IllegalArgumentException(
            "--id-field=" + path + ": " + parts[index] + " has no fields");
      }
      checkIdPath(field.getFields(), parts, index + 1, path);
    }
  }

  /** Runs everything and returns the report; stops the pipelines it started. */
  public LocalReport execute() throws Exception {
    TuningStep step = config.step();
    String table = config.tableName();
    Channel channel = createChannel(stack, "events-step" + step.number());
    if (step.connectionPool()) {
      createTables(stack, table, config.ingestionStructArgs());
    }
    List<String> ingestArgs =
        ingestionArgs(
            stack,
            step,
            config.format(),
            config.triggeringFrequencySec(),
            channel.subscription(),
            table,
            config.directRunnerChecks(),
            config.ingestionStructArgs(),
            config.engine());
    List<String> genArgs =
        datagenArgs(
            stack,
            channel.topic(),
            config.events(),
            config.rate(),
            config.seed(),
            config.recordsPerMessage(),
            config.directRunnerChecks(),
            config.datagenStructArgs());
    RandomEventGenerator generator = generatorFor(genArgs);
    // Checked before anything starts: a wrong path fails the run at once.
    java.util.function.LongFunction<String> idOf =
        config.idField() == null ? null : idFieldOf(generator, config.idField());
    List<MalformedMessages.Malformed> malformed =
        MalformedMessages.create(config.malformedCount(), config.seed(), generator::serialize);

    out.printf(
        "Local run: %s%s; %d events at %d/s, %d malformed; topic %s, table %s.%s%n",
        step.describe(),
        config.format() == step.format() ? "" : " (format " + config.format() + ")",
        config.events(),
        config.rate(),
        malformed.size(),
        channel.topic(),
        LocalRunConfig.DATASET,
        table);
    out.printf(
        "Emulators: Pub/Sub %s (pid %d), BigQuery REST %s gRPC %s (pid %d)%n",
        stack.pubsub().rootUrl(),
        stack.pubsub().pid(),
        stack.bigquery().restEndpoint(),
        stack.bigquery().storageWriteEndpoint(),
        stack.bigquery().pid());

    double encodedBytesPerElement =
        ElementSizes.meanEncodedBytes(ingestArgs, generator, ENCODED_SIZE_SAMPLE);
    HandOffLatencyProbe.reset();
    long startNanos = System.nanoTime();
    long startEpochMillis = System.currentTimeMillis();
    PipelineResult ingestion = startIngestion(stack, ingestArgs);
    PipelineResult datagen = null;
    try {
      CompletableFuture<PipelineResult.State> generatorDone;
      java.util.function.LongSupplier publishedSoFar;
      PacedPublisher pacedPublisher = null;
      if (config.generatorPipeline()) {
        datagen = DatagenPipeline.buildPipeline(datagenOptions(genArgs)).run();
        PipelineResult generatorResult = datagen;
        generatorDone = CompletableFuture.supplyAsync(generatorResult::waitUntilFinish);
        publishedSoFar = () -> generatorPublished(generatorResult);
      } else {
        PacedPublisher publisher =
            new PacedPublisher(
                stack.pubsub(),
                channel.topic(),
                generator,
                config.events(),
                config.rate(),
                config.recordsPerMessage());
        generatorDone =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    publisher.run();
                    return PipelineResult.State.DONE;
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return PipelineResult.State.CANCELLED;
                  }
                });
        publishedSoFar = publisher::published;
        pacedPublisher = publisher;
      }
      AtomicLong malformedPublished = new AtomicLong();
      CompletableFuture<Void> malformedDone =
          CompletableFuture.runAsync(
              () -> publishSpread(channel.topic(), malformed, malformedPublished));

      Progress progress =
          follow(
              table,
              ingestion,
              publishedSoFar,
              generatorDone,
              malformedDone,
              malformedPublished,
              malformed.size(),
              startNanos,
              pacedPublisher);
      progress.encodedBytesPerElement = encodedBytesPerElement;
      if (pacedPublisher != null) {
        progress.payloadBytesPublished = pacedPublisher.publishedBytes();
        if (pacedPublisher.runMillis() > 0) {
          // Its own clock: the once-a-second poll notices the end late when queries are slow.
          progress.generatorMillis = pacedPublisher.runMillis();
        }
      }
      if (isFlink(ingestion)) {
        progress.exchangedBytes = FlinkMetrics.latestJobExchangedBytes();
        progress.exchangedBytesByTask = FlinkMetrics.latestJobExchangedBytesByTask();
      }
      if (generatorDone.isCompletedExceptionally()) {
        progress.problems.add("Publishing the generated events failed");
      } else if (generatorDone.isDone() && generatorDone.join() != PipelineResult.State.DONE) {
        progress.problems.add("The generator ended in state " + generatorDone.join());
      }
      if (malformedDone.isCompletedExceptionally()) {
        progress.problems.add("Publishing the malformed messages failed");
      }
      MetricQueryResults ingestionMetrics = ingestionMetrics(ingestion);
      // Report before cancelling: the emulator must not be asked anything after a cancel that
      // may tear down Storage Write streams mid-append (see BigQueryEmulator).
      return LocalReport.build(
          config,
          stack,
          table,
          channel,
          ingestArgs,
          malformed,
          progress,
          ingestionMetrics,
          HandOffLatencyProbe.samples(),
          HandOffLatencyProbe.samplesCreatedSince(startEpochMillis + WARMUP_MILLIS),
          publishedSoFar.getAsLong(),
          idOf);
    } finally {
      cancelQuietly(ingestion);
      if (datagen != null) {
        cancelQuietly(datagen);
      }
    }
  }

  /** Spreads the malformed messages over the generator's expected run time, in ten batches. */
  private void publishSpread(
      String topic, List<MalformedMessages.Malformed> malformed, AtomicLong published) {
    if (malformed.isEmpty()) {
      return;
    }
    long runMillis = Math.max(1, config.events() * 1000 / config.rate());
    int batches = Math.min(10, malformed.size());
    try {
      for (int b = 0; b < batches; b++) {
        List<PubsubEmulator.RawMessage> batch = new ArrayList<>();
        for (int i = b; i < malformed.size(); i += batches) {
          batch.add(malformed.get(i).message());
        }
        stack.pubsub().publish(topic, batch);
        published.addAndGet(batch.size());
        Thread.sleep(runMillis / batches);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What the progress loop saw: a time series and whether everything arrived. */
  public static final class Progress {
    public final List<long[]> timeline = new ArrayList<>(); // {elapsed ms, rows, dead letters}
    public final List<String> problems = new ArrayList<>();
    public long generatorMillis = -1;
    public long accountedAtMillis = -1;
    public long firstRowAtMillis = -1;
    public boolean timedOut;
    public final List<RunCosts.Sample> costs = new ArrayList<>();

    /** False when the generator pipeline publishes: it runs in this JVM, on the pipeline's CPU. */
    public boolean costsMeasured;

    public double encodedBytesPerElement = Double.NaN;
    public long payloadBytesPublished;

    /** Bytes through the engine's data exchanges; null when the engine does not say. */
    public Long exchangedBytes;

    public Map<String, Long> exchangedBytesByTask = Map.of();
  }

  private Progress follow(
      String table,
      PipelineResult ingestion,
      java.util.function.LongSupplier generatorPublished,
      CompletableFuture<PipelineResult.State> generatorDone,
      CompletableFuture<Void> malformedDone,
      AtomicLong malformedPublished,
      int malformedCount,
      long startNanos,
      PacedPublisher publisher)
      throws Exception {
    Progress progress = new Progress();
    progress.costsMeasured = publisher != null;
    double followerCpuAtStart = RunCosts.currentThreadCpuSeconds();
    long deadline = startNanos + config.timeout().toNanos();
    String deadLetterTable = table + DeadLetterTables.DEFAULT_SUFFIX;
    long lastRows = 0;
    long lastPublished = 0;
    long lastMillis = 0;
    while (true) {
      Thread.sleep(1000);
      long elapsed = (System.nanoTime() - startNanos) / 1_000_000;
      if (generatorDone.isDone() && progress.generatorMillis < 0) {
        progress.generatorMillis = elapsed;
      }
      long rows = countRows(table);
      long deadLetters = countRows(deadLetterTable);
      long published = generatorPublished.getAsLong() + malformedPublished.get();
      progress.timeline.add(new long[] {elapsed, rows, deadLetters});
      if (publisher != null) {
        double followerCpu = RunCosts.currentThreadCpuSeconds() - followerCpuAtStart;
        progress.costs.add(
            new RunCosts.Sample(
                elapsed,
                rows + deadLetters,
                RunCosts.jvmCpuSeconds() - publisher.cpuSeconds() - followerCpu,
                RunCosts.processTreeCpuSeconds(stack.pubsub().pid()),
                RunCosts.processTreeCpuSeconds(stack.bigquery().pid())));
      }
      if (rows > 0 && progress.firstRowAtMillis < 0) {
        progress.firstRowAtMillis = elapsed;
      }
      if (config.progress()) {
        double seconds = Math.max(0.001, (elapsed - lastMillis) / 1000.0);
        out.printf(
            "  %5.1fs  published %7d (%6.0f/s)  written %7d (%6.0f/s)  dead-lettered %5d%n",
            elapsed / 1000.0,
            published,
            (published - lastPublished) / seconds,
            rows,
            (rows - lastRows) / seconds,
            deadLetters);
      }
      lastRows = rows;
      lastPublished = published;
      lastMillis = elapsed;
      PipelineResult.State state = ingestion.getState();
      if (state == PipelineResult.State.FAILED || state == PipelineResult.State.CANCELLED) {
        progress.problems.add("The ingestion pipeline stopped early in state " + state);
        break;
      }
      boolean inputDone = generatorDone.isDone() && malformedDone.isDone();
      if (inputDone
          && rows >= config.events()
          && deadLetters >= malformedCount
          && distinctEventIds(table) >= config.events()) {
        progress.accountedAtMillis = elapsed;
        break;
      }
      if (System.nanoTime() > deadline) {
        progress.timedOut = true;
        progress.problems.add(
            "Timed out after "
                + config.timeout().toSeconds()
                + " s before every event was accounted for");
        break;
      }
    }
    // Late duplicates (a redelivery, a retried append) would land within about one ack
    // deadline; an exactly-once step must not produce any, so give them a moment to show.
    Thread.sleep(progress.timedOut ? 0 : 2000);
    return progress;
  }

  long countRows(String table) throws IOException {
    if (!stack.bigquery().tableExists(LocalRunConfig.DATASET, table)) {
      return 0;
    }
    return stack
        .bigquery()
        .queryLong("SELECT COUNT(*) FROM `" + LocalRunConfig.DATASET + "." + table + "`");
  }

  long distinctEventIds(String table) throws IOException {
    return stack.bigquery().queryLong(LocalReport.distinctIdsSql(table));
  }

  static long generatorPublished(PipelineResult datagen) {
    if (datagen == null) {
      return 0;
    }
    try {
      MetricQueryResults results =
          datagen
              .metrics()
              .queryMetrics(
                  MetricsFilter.builder()
                      .addNameFilter(MetricNameFilter.named("datagen", "events_generated"))
                      .build());
      long total = 0;
      for (MetricResult<Long> counter : results.getCounters()) {
        total += counter.getAttempted();
      }
      return total;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  static MetricQueryResults ingestionMetrics(PipelineResult ingestion) {
    if (isFlink(ingestion)) {
      return FlinkMetrics.latestJob(IngestionMetrics.NAMESPACE);
    }
    return ingestion
        .metrics()
        .queryMetrics(
            MetricsFilter.builder()
                .addNameFilter(MetricNameFilter.inNamespace(IngestionMetrics.NAMESPACE))
                .build());
  }

  public static Map<String, Long> counters(MetricQueryResults results) {
    Map<String, Long> totals = new HashMap<>();
    for (MetricResult<Long> counter : results.getCounters()) {
      totals.merge(counter.getName().getName(), counter.getAttempted(), Long::sum);
    }
    return totals;
  }

  public static DistributionResult distribution(MetricQueryResults results, String name) {
    DistributionResult merged = null;
    for (MetricResult<DistributionResult> d : results.getDistributions()) {
      if (!d.getName().getName().equals(name)) {
        continue;
      }
      DistributionResult value = d.getAttempted();
      merged =
          merged == null
              ? value
              : DistributionResult.create(
                  merged.getSum() + value.getSum(),
                  merged.getCount() + value.getCount(),
                  Math.min(merged.getMin(), value.getMin()),
                  Math.max(merged.getMax(), value.getMax()));
    }
    return merged;
  }

  public static boolean isFlink(PipelineResult result) {
    return result.getClass().getName().startsWith("org.apache.beam.runners.flink.");
  }

  /**
   * Cancels {@code result} and waits up to {@code timeout} for it to end. The embedded Flink
   * cluster shuts itself down once its job is cancelled, after which its result answers every call
   * with "MiniCluster is not yet running or has already been shut down": that is the job having
   * ended.
   */
  public static PipelineResult.State cancelAndWait(PipelineResult result, Duration timeout)
      throws IOException {
    try {
      result.cancel();
      PipelineResult.State state = result.waitUntilFinish(timeout);
      return state == null ? PipelineResult.State.UNKNOWN : state;
    } catch (IllegalStateException e) {
      if (String.valueOf(e.getMessage()).contains("MiniCluster")) {
        return PipelineResult.State.CANCELLED;
      }
      throw e;
    }
  }

  public static void cancelQuietly(PipelineResult result) {
    try {
      if (!result.getState().isTerminal()) {
        result.cancel();
      }
    } catch (IOException | RuntimeException e) {
      // Best effort: the JVM ends right after a local run anyway.
    }
  }

  /** Value of the event id attribute column, for JSON rows read back from the emulator. */
  public static String attribute(JsonNode attributes, String key) {
    for (JsonNode entry : attributes) {
      if (key.equals(entry.path("key").asText())) {
        return entry.path("value").asText();
      }
    }
    return null;
  }

  public static final String EVENT_ID = EventAttributes.EVENT_ID;
}
