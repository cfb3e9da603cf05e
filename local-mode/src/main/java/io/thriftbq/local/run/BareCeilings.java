package io.thriftbq.local.run;

import com.google.api.core.ApiFuture;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchemaConverter;
import com.google.protobuf.ByteString;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.beamio.EmulatorBigQueryServices;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.report.MachineCeilings;
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
import org.apache.beam.sdk.io.gcp.pubsub.PubsubJsonClient;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Measures the emulators' own ceilings with bare clients and no pipeline: what local mode could
 * reach at best on this machine. Publishes the sample events with the REST call local mode's
 * publisher uses, pulls and acknowledges them with Beam's own Pub/Sub client (what {@code
 * PubsubIO}'s reader calls, 1,000 messages per pull), and appends the same rows, as Storage Write
 * API bytes, to the {@code _default} stream of a table (pipelined requests of each given size), and
 * at {@link MachineCeilings#APPEND_ROWS} rows also with one request in flight at a time, the way a
 * BigQueryIO write that waits for its appends at the end of a bundle sends them. The one
 * measurement of {@code EmulatorCeilings} and {@code --compare-steps}.
 */
public final class BareCeilings {
  private BareCeilings() {}

  /**
   * Measures on {@code stack}: the Pub/Sub ceilings when {@code pubsub} (the stack runs the Pub/Sub
   * emulator), then the append ceiling at each of {@code rowsPerAppend}; prints a line per ceiling.
   *
   * @param name a prefix for the topic and the tables, unique in the stack
   */
  public static MachineCeilings measure(
      EmulatorStack stack,
      boolean pubsub,
      int events,
      int pullThreads,
      List<Integer> rowsPerAppend,
      String name,
      PrintStream out)
      throws Exception {
    RandomEventGenerator generator =
        GeneratorArgs.generatorFor(
            GeneratorArgs.of(
                List.of(),
                events,
                1000,
                1,
                1,
                false,
                LocalRunConfig.defaults().datagenStructArgs()));
    List<byte[]> payloads = new ArrayList<>(events);
    for (int i = 0; i < events; i++) {
      payloads.add(generator.serialize(i));
    }
    out.printf("%d sample events, %.0f bytes each on average%n", events, mean(payloads));
    List<MachineCeilings.Ceiling> ceilings = new ArrayList<>();
    if (pubsub) {
      PubsubSource channel = PubsubSource.create(stack, name);
      ceilings.add(publish(stack, channel, payloads, out));
      ceilings.add(pullAndAck(stack, channel, events, pullThreads, out));
    }
    List<ByteString> rows = rows(payloads);
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
                try (PubsubClient client =
                    PubsubJsonClient.FACTORY.newClient(null, null, options)) {
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
            "Pub/Sub pull + ack (Beam's JSON client, %d thread(s), %.0f messages per pull)",
            threads, pulled.get() / (double) Math.max(1, calls.get())),
        pulled.get(),
        start);
  }

  /** The sample events as the Storage Write API rows step 8 appends. */
  private static List<ByteString> rows(List<byte[]> payloads) throws Exception {
    ConverterConfig config =
        ConverterConfig.of(ThriftSources.SAMPLE_CLASS, ThriftProtocol.BINARY, MetadataColumns.ALL);
    var converter = Converters.encodedRows(config);
    List<ByteString> rows = new ArrayList<>(payloads.size());
    for (int i = 0; i < payloads.size(); i++) {
      EventMetadata metadata =
          new EventMetadata("m" + i, System.currentTimeMillis(), Map.of("event_id", "" + i));
      rows.add(ByteString.copyFrom(converter.fromBytes(payloads.get(i), metadata).bytes()));
    }
    return rows;
  }

  private static MachineCeilings.Ceiling append(
      EmulatorStack stack,
      List<ByteString> rows,
      int rowsPerAppend,
      boolean oneInFlight,
      String table,
      PrintStream out)
      throws Exception {
    EmulatorTables.create(stack, RunTables.forOutputTable(table));
    var descriptor =
        ProtoSchemaConverter.convert(
                EventSchemas.of(ThriftSources.SAMPLE_CLASS, MetadataColumns.ALL).rowDescriptor())
            .getProtoDescriptor();
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
                  + (oneInFlight ? " (one in flight)" : " (pipelined)"),
              rows.size(),
              start);
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
