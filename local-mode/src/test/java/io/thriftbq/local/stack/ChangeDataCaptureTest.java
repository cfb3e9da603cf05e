package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.Exceptions;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import io.thriftbq.local.beamio.EmulatorBigQueryServices;
import io.thriftbq.local.config.LocalRunConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
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
 * BigQuery change data capture in the emulator (bigquery_emulator_cdc.py, started by the launcher):
 * rows appended to {@code _default} with {@code _CHANGE_TYPE} and {@code _CHANGE_SEQUENCE_NUMBER}
 * are merged into the table by its primary key, as BigQuery documents it
 * (https://cloud.google.com/bigquery/docs/change-data-capture).
 *
 * <ul>
 *   <li>the module's self-test, in the emulator's Python: the ordering of sequence numbers against
 *       the examples of BigQuery's documentation and Beam's RowMutationInformation javadoc, the
 *       merge rules, and appends in process on both append paths;
 *   <li>an emulator on 127.0.0.1, with and without the launcher's fast append path, fed changes
 *       over gRPC by the Storage Write client (duplicates, out-of-order sequence numbers, deletes,
 *       a delete followed by an older upsert, refused rows), read back with tabledata.list and a
 *       query; tables.get keeps the primary key and max staleness.
 * </ul>
 */
@RunWith(JUnit4.class)
public class ChangeDataCaptureTest {
  private static final String TABLE = "cdc_employees";
  private static final String NO_KEY = "cdc_no_key";
  private static final String STALENESS = "0-0 0 0:5:0";

  @Test
  public void selfTestChecksOrderingMergeRulesAndBothAppendPaths() throws Exception {
    Path executable = LocalPaths.localBigQueryExecutable();
    Path python = executable.resolveSibling("python");
    assertTrue(
        "the BigQuery emulator is not installed: scripts/local/install-bigquery-emulator.sh",
        Files.isExecutable(python));
    Path dir = Files.createTempDirectory("cdc-selftest-");
    Path launcher = BigQueryEmulator.copyLauncher(dir);
    Path log = dir.resolve("cdc-self-test.log");
    Process process =
        new ProcessBuilder(python.toString(), launcher.toString(), "--cdc-self-test")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue("self-test still running after 5 minutes", process.waitFor(5, TimeUnit.MINUTES));
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(output, 0, process.exitValue());
    assertThat(output, containsString("cdc self-test OK"));
  }

  @Test
  public void changesOnTheDefaultStreamAreMergedByPrimaryKeyOnBothAppendPaths() throws Exception {
    Path dir = Files.createTempDirectory("cdc-grpc-");
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
        checkMerges(emulator, name);
      }
    }
  }

  private static void checkMerges(BigQueryEmulator emulator, String path) throws Exception {
    LoopbackHttp http = new LoopbackHttp(emulator.restPort());
    createTable(http, emulator.project(), TABLE, true);
    createTable(http, emulator.project(), NO_KEY, false);

    JsonNode table = http.get(tablePath(emulator.project(), TABLE)).body();
    assertEquals(
        path + ": tables.get primary key",
        "[\"id\"]",
        table.path("tableConstraints").path("primaryKey").path("columns").toString());
    assertEquals(
        path + ": tables.get maxStaleness", STALENESS, table.path("maxStaleness").asText());

    Descriptors.Descriptor type = rowType();
    try (BigQueryServices.WriteStreamService writes =
        new EmulatorBigQueryServices(emulator.storageWriteEndpoint())
            .getWriteStreamService(options())) {
      BigQueryServices.StreamAppendClient client =
          writes.getStreamAppendClient(
              stream(emulator, TABLE),
              type.toProto(),
              false,
              AppendRowsRequest.MissingValueInterpretation
                  .MISSING_VALUE_INTERPRETATION_UNSPECIFIED);
      client.pin();
      // Duplicates (the later of equal sequence numbers wins) and first versions.
      append(
          client,
          type,
          upsert(1, "a", 100, "5"),
          upsert(1, "a-dup", 101, "5"),
          upsert(2, "b", 200, "10"),
          upsert(3, "c", 300, "1"),
          upsert(4, "d", 400, "A"));
      // Out of order: an older version loses, a newer one (more sections) wins, 3 is deleted.
      append(
          client,
          type,
          upsert(1, "a-old", 99, "4"),
          upsert(2, "b-new", 201, "10/1"),
          delete(3, "2"));
      append(client, type, delete(4, "F"));
      // A delete followed by older upserts: the keys stay deleted. Lower case hex is a number too.
      append(
          client,
          type,
          upsert(4, "d-older", 401, "B"),
          upsert(3, "c-older", 301, "1/FFFF"),
          upsert(5, "e", 500, "ff"));
      // Refused as a whole: an invalid _CHANGE_TYPE, a malformed sequence number.
      Map<Integer, String> refused =
          refusedRows(
              client,
              type,
              upsert(6, "f", 600, "1"),
              change(7, "INSERT", "1"),
              upsert(2, "x", 0, "Z"));
      assertEquals(
          path + ": refused rows " + refused, List.of(1, 2), List.copyOf(refused.keySet()));
      assertThat(refused.get(1), containsString("The given value is not a valid CHANGE_TYPE"));
      assertThat(refused.get(2), containsString("_CHANGE_SEQUENCE_NUMBER"));
      client.close();
      client.unpin();

      // A table without a primary key refuses _CHANGE_TYPE.
      BigQueryServices.StreamAppendClient noKey =
          writes.getStreamAppendClient(
              stream(emulator, NO_KEY),
              type.toProto(),
              false,
              AppendRowsRequest.MissingValueInterpretation
                  .MISSING_VALUE_INTERPRETATION_UNSPECIFIED);
      noKey.pin();
      try {
        append(noKey, type, upsert(1, "a", 1, "1"));
        fail(path + ": an append of changes to a table without a primary key was accepted");
      } catch (ExecutionException e) {
        assertThat(String.valueOf(e.getCause()), containsString("no primary key"));
      }
      noKey.unpin();
    }

    List<String> expected = List.of("1 a-dup 101", "2 b-new 201", "5 e 500");
    assertEquals(path + ": tabledata.list", expected, listed(http, emulator.project()));
    List<String> queried = new ArrayList<>();
    JsonNode result =
        emulator.rawQuery(
            "SELECT * FROM `" + LocalRunConfig.DATASET + "." + TABLE + "` ORDER BY id");
    List<String> columns = new ArrayList<>();
    result.path("schema").path("fields").forEach(f -> columns.add(f.path("name").asText()));
    assertEquals(path + ": no pseudo-columns", List.of("id", "name", "salary"), columns);
    for (JsonNode row : result.path("rows")) {
      JsonNode f = row.path("f");
      queried.add(
          f.get(0).path("v").asText()
              + " "
              + f.get(1).path("v").asText()
              + " "
              + f.get(2).path("v").asText());
    }
    assertEquals(path + ": query", expected, queried);
    assertEquals(path + ": numRows", 3, emulator.tableRows(LocalRunConfig.DATASET, TABLE));
    assertEquals(
        path + ": nothing in the table without a key",
        0,
        emulator.tableRows(LocalRunConfig.DATASET, NO_KEY));
  }

  /** id INT64 (the primary key), name STRING, salary INT64, and the two pseudo-columns. */
  private static Descriptors.Descriptor rowType() throws Exception {
    DescriptorProto.Builder row = DescriptorProto.newBuilder().setName("Employee");
    String[] names = {"id", "name", "salary", "_CHANGE_TYPE", "_CHANGE_SEQUENCE_NUMBER"};
    FieldDescriptorProto.Type[] types = {
      FieldDescriptorProto.Type.TYPE_INT64,
      FieldDescriptorProto.Type.TYPE_STRING,
      FieldDescriptorProto.Type.TYPE_INT64,
      FieldDescriptorProto.Type.TYPE_STRING,
      FieldDescriptorProto.Type.TYPE_STRING
    };
    for (int i = 0; i < names.length; i++) {
      row.addField(
          FieldDescriptorProto.newBuilder()
              .setName(names[i])
              .setNumber(i + 1)
              .setType(types[i])
              .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL));
    }
    FileDescriptorProto file =
        FileDescriptorProto.newBuilder().setName("cdc.proto").addMessageType(row).build();
    return Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0])
        .findMessageTypeByName("Employee");
  }

  private record Change(long id, String name, Long salary, String type, String sequence) {}

  private static Change upsert(long id, String name, long salary, String sequence) {
    return new Change(id, name, salary, "UPSERT", sequence);
  }

  private static Change delete(long id, String sequence) {
    return new Change(id, null, null, "DELETE", sequence);
  }

  private static Change change(long id, String type, String sequence) {
    return new Change(id, "?", 0L, type, sequence);
  }

  private static ProtoRows rows(Descriptors.Descriptor type, Change... changes) {
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    for (Change change : changes) {
      DynamicMessage.Builder row = DynamicMessage.newBuilder(type);
      row.setField(type.findFieldByName("id"), change.id());
      if (change.name() != null) {
        row.setField(type.findFieldByName("name"), change.name());
      }
      if (change.salary() != null) {
        row.setField(type.findFieldByName("salary"), change.salary());
      }
      row.setField(type.findFieldByName("_CHANGE_TYPE"), change.type());
      row.setField(type.findFieldByName("_CHANGE_SEQUENCE_NUMBER"), change.sequence());
      rows.addSerializedRows(row.build().toByteString());
    }
    return rows.build();
  }

  private static void append(
      BigQueryServices.StreamAppendClient client, Descriptors.Descriptor type, Change... changes)
      throws Exception {
    client.appendRows(-1, rows(type, changes)).get(60, TimeUnit.SECONDS);
  }

  /** The row errors of a request that must be refused, by index. */
  private static Map<Integer, String> refusedRows(
      BigQueryServices.StreamAppendClient client, Descriptors.Descriptor type, Change... changes)
      throws Exception {
    try {
      append(client, type, changes);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exceptions.AppendSerializationError refused) {
        return new java.util.TreeMap<>(refused.getRowIndexToErrorMessage());
      }
      throw e;
    }
    fail("the request was accepted");
    return Map.of();
  }

  private static List<String> listed(LoopbackHttp http, String project) throws Exception {
    JsonNode page = http.get(tablePath(project, TABLE) + "/data").body();
    List<String> rows = new ArrayList<>();
    for (JsonNode row : page.path("rows")) {
      JsonNode f = row.path("f");
      rows.add(
          f.get(0).path("v").asText()
              + " "
              + f.get(1).path("v").asText()
              + " "
              + f.get(2).path("v").asText());
    }
    rows.sort(null);
    return rows;
  }

  private static void createTable(LoopbackHttp http, String project, String table, boolean key)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "tableReference",
        Map.of("projectId", project, "datasetId", LocalRunConfig.DATASET, "tableId", table));
    body.put(
        "schema",
        Map.of(
            "fields",
            List.of(
                Map.of("name", "id", "type", "INT64", "mode", "REQUIRED"),
                Map.of("name", "name", "type", "STRING"),
                Map.of("name", "salary", "type", "INT64"))));
    if (key) {
      body.put("tableConstraints", Map.of("primaryKey", Map.of("columns", List.of("id"))));
      body.put("maxStaleness", STALENESS);
    }
    LoopbackHttp.Response response =
        http.postIdempotent(
            "/bigquery/v2/projects/" + project + "/datasets/" + LocalRunConfig.DATASET + "/tables",
            body);
    assertTrue("create table " + table + ": " + response.raw(), response.ok());
  }

  private static String tablePath(String project, String table) {
    return "/bigquery/v2/projects/"
        + project
        + "/datasets/"
        + LocalRunConfig.DATASET
        + "/tables/"
        + table;
  }

  private static String stream(BigQueryEmulator emulator, String table) {
    return String.format(
        "projects/%s/datasets/%s/tables/%s/streams/_default",
        emulator.project(), LocalRunConfig.DATASET, table);
  }

  private static BigQueryOptions options() {
    BigQueryOptions options = PipelineOptionsFactory.create().as(BigQueryOptions.class);
    options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
    return options;
  }
}
