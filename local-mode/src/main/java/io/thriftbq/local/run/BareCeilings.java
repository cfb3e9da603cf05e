package io.thriftbq.local.run;

import com.google.api.core.ApiFuture;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchemaConverter;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.origin.KafkaOrigin;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.beamio.EmulatorBigQueryServices;
import io.thriftbq.local.beamio.PlaintextPubsubGrpcClientFactory;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.progress.RunCosts;
import io.thriftbq.local.report.MachineCeilings;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.PubsubEmulator;
import io.thriftbq.schema.ThriftSources;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Measures the emulators' own ceilings with bare clients and no pipeline: what local mode could
 * reach at best on this machine. Publishes the sample events with the gRPC call local mode's
 * publisher uses, pulls and acknowledges them with the Pub/Sub client local mode's pipeline reads
 * with (Beam's gRPC client over plaintext, asking for 1,000 messages per pull as {@code PubsubIO}'s
 * reader does), and appends the same rows, as Storage Write API bytes, to the {@code _default}
 * stream of a table (pipelined requests of each given size), and at {@link
 * MachineCeilings#APPEND_ROWS} rows also with one request in flight at a time, the way a BigQueryIO
 * write that waits for its appends at the end of a bundle sends them. The one measurement of {@code
 * EmulatorCeilings} and {@code --compare-steps}.
 */
public final class BareCeilings {
  /**
   * The clients local mode's pipeline reads the Pub/Sub emulator with ({@code Ingestion}); Beam's
   * default JSON client has a third of their ceiling there (benchmarks/RESULTS.md, section 33).
   */
  private static final PubsubClient.PubsubClientFactory PULL_CLIENTS =
      new PlaintextPubsubGrpcClientFactory();

  private BareCeilings() {}

  /**
   * Measures on {@code stack}: the Pub/Sub ceilings when {@code pubsub} (the stack runs the Pub/Sub
   * emulator), then the append ceiling at each of {@code rowsPerAppend}, with the rows a run from
   * {@code rowsFrom} appends (its metadata columns and its publisher's attributes: a Kafka run's
   * rows carry two columns more than a Pub/Sub run's); prints a line per ceiling.
   *
   * @param name a prefix for the topic and the tables, unique in the stack
   */
  public static MachineCeilings measure(
      EmulatorStack stack,
      boolean pubsub,
      SourceKind rowsFrom,
      int events,
      int pullThreads,
      List<Integer> rowsPerAppend,
      String name,
      PrintStream out)
      throws Exception {
    List<byte[]> payloads = GeneratorArgs.samplePayloads(events);
    out.printf("%d sample events, %.0f bytes each on average%n", events, mean(payloads));
    List<MachineCeilings.Ceiling> ceilings = new ArrayList<>();
    if (pubsub) {
      PubsubSource channel = PubsubSource.create(stack, name);
      ceilings.add(publish(stack, channel, payloads, out));
      ceilings.add(pullAndAck(stack, channel, events, pullThreads, out));
    }
    RunRows rows = RunRows.of(payloads, rowsFrom);
    out.printf(
        "Appended rows as a %s run's: %d metadata columns, %.0f bytes each on average%n",
        rowsFrom.flagValue(), rows.metadata().columns().size(), rows.meanBytes());
    for (int size : rowsPerAppend) {
      ceilings.add(append(stack, rows, size, false, name + "_" + size, out));
      if (size == MachineCeilings.APPEND_ROWS) {
        ceilings.add(append(stack, rows, size, true, name + "_" + size + "_one", out));
      }
    }
    return new MachineCeilings(events, ceilings);
  }

  private static double mean(List<byte[]> payloads) {
    return payloads.stream().mapToInt(p -> p.length).average().orElse(0);
  }

  private static MachineCeilings.Ceiling publish(
      EmulatorStack stack, PubsubSource channel, List<byte[]> payloads, PrintStream out)
      throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < payloads.size(); i += PacedPublisher.MAX_MESSAGES_PER_CALL) {
      List<PubsubEmulator.RawMessage> batch = new ArrayList<>();
      for (int j = i;
          j < Math.min(payloads.size(), i + PacedPublisher.MAX_MESSAGES_PER_CALL);
          j++) {
        batch.add(
            new PubsubEmulator.RawMessage(
                payloads.get(j),
                Map.of(
                    "event_id",
                    Long.toString(j),
                    "event_time_ms",
                    Long.toString(System.currentTimeMillis()))));
      }
      stack.pubsub().publish(channel.topic(), batch);
    }
    return report(
        out,
        "pubsub_publish",
        "Pub/Sub publish (gRPC, " + PacedPublisher.MAX_MESSAGES_PER_CALL + " per call)",
        payloads.size(),
        start);
  }

  private static MachineCeilings.Ceiling pullAndAck(
      EmulatorStack stack, PubsubSource channel, int events, int threads, PrintStream out)
      throws Exception {
    PubsubOptions options =
        PipelineOptionsFactory.fromArgs(
                "--pubsubRootUrl=" + stack.pubsub().rootUrl(),
                "--credentialFactoryClass=" + IngestionArgs.NOOP_CREDENTIALS,
                "--project=" + LocalRunConfig.PROJECT)
            .as(PubsubOptions.class);
    PubsubClient.SubscriptionPath subscription =
        PubsubClient.subscriptionPathFromPath(
            stack.pubsub().subscriptionPath(channel.subscription()));
    AtomicLong pulled = new AtomicLong();
    AtomicLong calls = new AtomicLong();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                try (PubsubClient client = PULL_CLIENTS.newClient(null, null, options)) {
                  int emptyPulls = 0;
                  while (pulled.get() < events && emptyPulls < 50) {
                    List<PubsubClient.IncomingMessage> messages =
                        client.pull(System.currentTimeMillis(), subscription, 1000, true);
                    calls.incrementAndGet();
                    if (messages.isEmpty()) {
                      emptyPulls++;
                      Thread.sleep(20);
                      continue;
                    }
                    List<String> ackIds = new ArrayList<>(messages.size());
                    for (PubsubClient.IncomingMessage message : messages) {
                      ackIds.add(message.ackId());
                    }
                    client.acknowledge(subscription, ackIds);
                    pulled.addAndGet(messages.size());
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    return report(
        out,
        "pubsub_pull_ack",
        String.format(
            "Pub/Sub pull + ack (Beam's gRPC client, as local mode's reader; %d thread(s), %.0f"
                + " messages per pull)",
            threads, pulled.get() / (double) Math.max(1, calls.get())),
        pulled.get(),
        start);
  }

  /**
   * The sample events as the Storage Write API rows step 8 appends from {@code source}: with the
   * metadata columns that source's flags switch on ({@link EventSource#ingestionArgs()}) and the
   * attributes (Kafka: headers) its publisher stamps on each message.
   *
   * @param source the run's source
   * @param metadata the columns after the event's own
   */
  record RunRows(SourceKind source, MetadataColumns metadata, List<ByteString> rows) {
    private static final String TOPIC = "ceiling";

    static RunRows of(List<byte[]> payloads, SourceKind source) throws Exception {
      MetadataColumns metadata = EmulatorTables.metadataColumns(sourceFlags(source));
      var converter =
          Converters.encodedRows(
              ConverterConfig.of(ThriftSources.SAMPLE_CLASS, ThriftProtocol.BINARY, metadata));
      List<ByteString> rows = new ArrayList<>(payloads.size());
      for (int i = 0; i < payloads.size(); i++) {
        long createdAt = System.currentTimeMillis();
        Map<String, String> attributes =
            Map.of(
                EventAttributes.EVENT_TIME_MS,
                Long.toString(createdAt),
                EventAttributes.EVENT_ID,
                Long.toString(i));
        EventMetadata origin =
            switch (source) {
              case PUBSUB -> new EventMetadata(Long.toString(i + 1L), createdAt, attributes);
              case KAFKA ->
                  new EventMetadata(
                      null,
                      createdAt,
                      attributes,
                      new KafkaOrigin(
                          TOPIC,
                          i % KafkaSource.DEFAULT_PARTITIONS,
                          i / KafkaSource.DEFAULT_PARTITIONS,
                          null));
            };
        rows.add(ByteString.copyFrom(converter.fromBytes(payloads.get(i), origin).bytes()));
      }
      return new RunRows(source, metadata, List.copyOf(rows));
    }

    /** The flags a run from {@code source} reads with; only its metadata switches matter here. */
    static List<String> sourceFlags(SourceKind source) {
      return switch (source) {
        case PUBSUB ->
            PubsubSource.ingestionArgs(
                "http://127.0.0.1:1",
                "projects/" + LocalRunConfig.PROJECT + "/subscriptions/" + TOPIC);
        case KAFKA -> KafkaSource.ingestionArgs("127.0.0.1:1", TOPIC, TOPIC);
      };
    }

    DescriptorProtos.DescriptorProto descriptor() {
      return ProtoSchemaConverter.convert(
              EventSchemas.of(ThriftSources.SAMPLE_CLASS, metadata).rowDescriptor())
          .getProtoDescriptor();
    }

    double meanBytes() {
      return rows.stream().mapToInt(ByteString::size).average().orElse(0);
    }
  }

  private static MachineCeilings.Ceiling append(
      EmulatorStack stack,
      RunRows runRows,
      int rowsPerAppend,
      boolean oneInFlight,
      String table,
      PrintStream out)
      throws Exception {
    List<String> tableArgs = new ArrayList<>(LocalRunConfig.defaults().ingestionStructArgs());
    tableArgs.addAll(RunRows.sourceFlags(runRows.source()));
    EmulatorTables.create(stack, RunTables.forOutputTable(table), tableArgs);
    var descriptor = runRows.descriptor();
    List<ByteString> rows = runRows.rows();
    String stream =
        String.format(
            "projects/%s/datasets/%s/tables/%s/streams/_default",
            LocalRunConfig.PROJECT, LocalRunConfig.DATASET, table);
    MachineCeilings.Ceiling ceiling;
    try (BigQueryServices.WriteStreamService writes =
        new EmulatorBigQueryServices(stack.bigquery().storageWriteEndpoint())
            .getWriteStreamService(bigQueryOptions())) {
      BigQueryServices.StreamAppendClient client =
          writes.getStreamAppendClient(
              stream,
              descriptor,
              false,
              AppendRowsRequest.MissingValueInterpretation
                  .MISSING_VALUE_INTERPRETATION_UNSPECIFIED);
      double emulatorCpuAtStart = RunCosts.processTreeCpuSeconds(stack.bigquery().pid());
      long start = System.nanoTime();
      List<ApiFuture<AppendRowsResponse>> responses = new ArrayList<>();
      for (int i = 0; i < rows.size(); i += rowsPerAppend) {
        ProtoRows.Builder batch = ProtoRows.newBuilder();
        for (int j = i; j < Math.min(rows.size(), i + rowsPerAppend); j++) {
          batch.addSerializedRows(rows.get(j));
        }
        ApiFuture<AppendRowsResponse> response = client.appendRows(-1, batch.build());
        if (oneInFlight) {
          response.get(600, TimeUnit.SECONDS);
        } else {
          responses.add(response);
        }
      }
      for (ApiFuture<AppendRowsResponse> response : responses) {
        response.get(600, TimeUnit.SECONDS);
      }
      ceiling =
          report(
              out,
              oneInFlight
                  ? MachineCeilings.oneInFlightAppendKey(rowsPerAppend)
                  : MachineCeilings.appendKey(rowsPerAppend),
              "Storage Write append, "
                  + rowsPerAppend
                  + " rows per request"
                  + (oneInFlight ? " (one in flight)" : " (pipelined)")
                  + ", "
                  + runRows.source().flagValue()
                  + " rows",
              rows.size(),
              start);
      // Beside a run's emulator CPU per 100k events, this tells a dearer row from a writer that
      // leaves the emulator idle between appends.
      out.printf(
          "  BigQuery emulator: %.1f CPU-s per 100k rows%n",
          (RunCosts.processTreeCpuSeconds(stack.bigquery().pid()) - emulatorCpuAtStart)
              * 100_000
              / rows.size());
      client.close();
    }
    long written =
        stack
            .bigquery()
            .queryLong("SELECT COUNT(*) FROM `" + LocalRunConfig.DATASET + "." + table + "`");
    out.printf("rows in the table afterwards: %d%n", written);
    return ceiling;
  }

  private static BigQueryOptions bigQueryOptions() {
    return PipelineOptionsFactory.fromArgs(
            "--project=" + LocalRunConfig.PROJECT,
            "--credentialFactoryClass=" + IngestionArgs.NOOP_CREDENTIALS)
        .as(BigQueryOptions.class);
  }

  private static MachineCeilings.Ceiling report(
      PrintStream out, String key, String what, long count, long startNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    out.printf("%-80s %8d in %6.2f s = %8.0f /s%n", what, count, seconds, count / seconds);
    return new MachineCeilings.Ceiling(key, what, count / seconds);
  }
}
