package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.client.json.gson.GsonFactory;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.Exceptions;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchemaConverter;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.beamio.EmulatorBigQueryServices;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.run.Converters;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.schema.ThriftSources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The BigQuery emulator's launcher replaces its Storage Write append path with a cheaper one
 * (bigquery-emulator-launcher.py); what ends up in the tables, and what the appends answer, must
 * not change. Two checks, both against the emulator's own path:
 *
 * <ul>
 *   <li>the launcher's self-test, in the emulator's Python: thousands of random rows of every
 *       BigQuery type (nested, repeated, NULL, refused values, shapes that disagree with the table,
 *       timestamps out of range) appended through both paths in one process, to _default,
 *       COMMITTED, PENDING and BUFFERED streams; decoded rows, responses and tables compared;
 *   <li>two emulators, one with the fast path and one without, fed the same sample events over gRPC
 *       by the pipeline's own Storage Write client, with a row the table refuses: the same
 *       responses (offsets, errors, row errors) and the same table content.
 * </ul>
 */
@RunWith(JUnit4.class)
public class FastAppendEquivalenceTest {
  private static final String TABLE = "fast_append";
  private static final int EVENTS = 1_500;
  private static final int REFUSED = 777;

  @Test
  public void selfTestFindsTheFastPathEqualToTheEmulatorsOwn() throws Exception {
    selfTest(false);
  }

  /**
   * On protobuf's pure-Python backend (PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python), which a user
   * can run the emulator on to rule out the C one, the fast path gives the same too.
   */
  @Test
  public void selfTestFindsItEqualOnThePurePythonProtobufBackendToo() throws Exception {
    selfTest(true);
  }

  private static void selfTest(boolean purePython) throws Exception {
    Path executable = LocalPaths.localBigQueryExecutable();
    Path python = executable.resolveSibling("python");
    assertTrue(
        "the BigQuery emulator is not installed: scripts/local/install-bigquery-emulator.sh",
        Files.isExecutable(python));
    Path dir = Files.createTempDirectory("fast-append-selftest-");
    Path launcher = BigQueryEmulator.copyLauncher(dir);
    Path log = dir.resolve("self-test.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                python.toString(),
                launcher.toString(),
                "--self-test",
                purePython ? "40" : "80",
                "7")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    if (purePython) {
      builder.environment().put("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION", "python");
    }
    Process process = builder.start();
    assertTrue("self-test still running after 10 minutes", process.waitFor(10, TimeUnit.MINUTES));
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(output, 0, process.exitValue());
    assertThat(output, containsString("self-test OK"));
  }

  @Test
  public void twoEmulatorsWithAndWithoutTheFastPathAnswerAndStoreTheSame() throws Exception {
    Path dir = Files.createTempDirectory("fast-append-grpc-");
    List<ByteString> rows = sampleRows();
    DescriptorProto descriptor = descriptor();
    List<String> answers = new ArrayList<>();
    List<JsonNode> contents = new ArrayList<>();
    for (boolean fast : new boolean[] {false, true}) {
      String name = fast ? "fast" : "own";
      Path data = Files.createDirectories(dir.resolve(name).resolve("data"));
      try (BigQueryEmulator emulator =
          BigQueryEmulator.start(
              LocalPaths.localBigQueryExecutable(),
              LocalRunConfig.PROJECT,
              LocalRunConfig.DATASET,
              data,
              dir.resolve(name + ".log"),
              fast)) {
        createTable(emulator);
        answers.add(append(emulator, descriptor, rows));
        contents.add(
            emulator
                .rawQuery(
                    "SELECT * FROM `"
                        + LocalRunConfig.DATASET
                        + "."
                        + TABLE
                        + "` ORDER BY "
                        + MetadataColumns.MESSAGE_ID)
                .path("rows"));
      }
    }
    // Rows refused with their index and reason, the rest written once (two requests of the same
    // rows: the _default stream and a COMMITTED stream with offsets).
    assertThat(answers.get(0), containsString("{" + (REFUSED % 400) + "=Cannot convert"));
    assertThat(answers.get(0), containsString("Cannot convert value to integer"));
    assertEquals(2 * (EVENTS - 400), contents.get(0).size());
    assertEquals("what the appends answered", answers.get(0), answers.get(1));
    assertEquals("what the table holds", contents.get(0), contents.get(1));
  }

  /** The sample events as the pipeline's step 8 writes them, one of them refused by the table. */
  private static List<ByteString> sampleRows() throws Exception {
    List<byte[]> payloads = GeneratorArgs.samplePayloads(EVENTS);
    ConverterConfig config =
        ConverterConfig.of(ThriftSources.SAMPLE_CLASS, ThriftProtocol.BINARY, MetadataColumns.ALL);
    var converter = Converters.encodedRows(config);
    Descriptors.Descriptor type = schemas().rowDescriptor();
    Descriptors.FieldDescriptor userId = type.findFieldByName("user_id");
    List<ByteString> rows = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      EventMetadata metadata =
          new EventMetadata(
              String.format("m%05d", i), 1_700_000_000_000L + i, Map.of("event_id", "" + i));
      byte[] bytes = converter.fromBytes(payloads.get(i), metadata).bytes();
      // user_id is an INT64 column in this test's table: numbers pass, one word is refused.
      DynamicMessage.Builder row = DynamicMessage.parseFrom(type, bytes).toBuilder();
      if (i == REFUSED) {
        row.setField(userId, "not a number");
      } else if (i % 3 == 0) {
        row.clearField(userId);
      } else {
        row.setField(userId, Integer.toString(i * 7919 - 5_000_000));
      }
      rows.add(row.build().toByteString());
    }
    return rows;
  }

  private static EventSchemas schemas() {
    return EventSchemas.of(ThriftSources.SAMPLE_CLASS, MetadataColumns.ALL);
  }

  private static DescriptorProto descriptor() {
    return ProtoSchemaConverter.convert(schemas().rowDescriptor()).getProtoDescriptor();
  }

  private static void createTable(BigQueryEmulator emulator) throws IOException {
    JsonNode schema =
        LoopbackHttp.JSON.readTree(
            GsonFactory.getDefaultInstance().toString(schemas().tableSchema()));
    for (JsonNode field : schema.path("fields")) {
      if ("user_id".equals(field.path("name").asText())) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) field).put("type", "INT64");
      }
    }
    Map<String, Object> body =
        Map.of(
            "tableReference",
            Map.of(
                "projectId",
                emulator.project(),
                "datasetId",
                LocalRunConfig.DATASET,
                "tableId",
                TABLE),
            "schema",
            schema);
    LoopbackHttp.Response response =
        new LoopbackHttp(emulator.restPort())
            .postIdempotent(
                "/bigquery/v2/projects/"
                    + emulator.project()
                    + "/datasets/"
                    + LocalRunConfig.DATASET
                    + "/tables",
                body);
    assertTrue("create table: " + response.raw(), response.ok());
  }

  /**
   * Appends the rows in requests of 400 to the _default stream, then to a COMMITTED stream with
   * offsets (and once more at an offset that exists); returns the answers, stream names left out.
   */
  private static String append(
      BigQueryEmulator emulator, DescriptorProto descriptor, List<ByteString> rows)
      throws Exception {
    String table =
        String.format(
            "projects/%s/datasets/%s/tables/%s", emulator.project(), LocalRunConfig.DATASET, TABLE);
    StringBuilder answers = new StringBuilder();
    try (BigQueryServices.WriteStreamService writes =
        new EmulatorBigQueryServices(emulator.storageWriteEndpoint())
            .getWriteStreamService(options())) {
      WriteStream committed = writes.createWriteStream(table, WriteStream.Type.COMMITTED);
      for (String stream : List.of(table + "/streams/_default", committed.getName())) {
        boolean offsets = !stream.endsWith("/_default");
        BigQueryServices.StreamAppendClient client =
            writes.getStreamAppendClient(
                stream,
                descriptor,
                false,
                AppendRowsRequest.MissingValueInterpretation
                    .MISSING_VALUE_INTERPRETATION_UNSPECIFIED);
        client.pin();
        long offset = 0;
        for (int i = 0; i < rows.size(); i += 400) {
          ProtoRows.Builder batch = ProtoRows.newBuilder();
          rows.subList(i, Math.min(rows.size(), i + 400)).forEach(batch::addSerializedRows);
          answers.append(answer(client, offsets ? offset : -1, batch.build(), stream));
          if (!(i <= REFUSED && REFUSED < i + 400)) {
            offset += batch.getSerializedRowsCount();
          }
        }
        if (offsets) {
          ProtoRows first = ProtoRows.newBuilder().addSerializedRows(rows.get(0)).build();
          answers.append(answer(client, 0, first, stream));
        }
        client.close();
        client.unpin();
      }
    }
    return answers.toString();
  }

  private static String answer(
      BigQueryServices.StreamAppendClient client, long offset, ProtoRows rows, String stream)
      throws Exception {
    String text;
    try {
      AppendRowsResponse response = client.appendRows(offset, rows).get(120, TimeUnit.SECONDS);
      text = response.toString();
    } catch (java.util.concurrent.ExecutionException e) {
      text = "failed: " + e.getCause();
      if (e.getCause() instanceof Exceptions.AppendSerializationError refused) {
        // the row errors, by index, with their messages
        text += " " + new java.util.TreeMap<>(refused.getRowIndexToErrorMessage());
      }
    }
    return text.replace(stream, "<stream>") + "\n---\n";
  }

  private static BigQueryOptions options() {
    BigQueryOptions options = PipelineOptionsFactory.create().as(BigQueryOptions.class);
    options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
    return options;
  }
}
