package io.thriftbq.local.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code local-bigquery} emulator on 127.0.0.1: BigQuery REST v2 on one port, the Storage Write
 * API (plaintext gRPC) on another. Queries go through {@code jobs.query}, so what the report counts
 * is what a user would see with {@code bq query} against the emulator.
 */
public final class BigQueryEmulator implements AutoCloseable {
  /** BigQuery's limit on one AppendRows request (Storage Write API quotas: 10 MB). */
  static final int APPEND_REQUEST_LIMIT_BYTES = 10 * 1024 * 1024;

  private final ManagedProcess process;
  private final int restPort;
  private final int grpcPort;
  private final String project;
  private final LoopbackHttp http;
  private final Launch launch;

  /** How the emulator was started, to start it again the same way after a kill. */
  private record Launch(
      Path executable,
      String project,
      String dataset,
      Path dataDir,
      Path logFile,
      boolean fastAppend) {}

  private BigQueryEmulator(
      ManagedProcess process, int restPort, int grpcPort, String project, Launch launch) {
    this.process = process;
    this.restPort = restPort;
    this.grpcPort = grpcPort;
    this.project = project;
    this.http = new LoopbackHttp(restPort);
    this.launch = launch;
  }

  static BigQueryEmulator start(
      Path executable, String project, String dataset, Path dataDir, Path logFile)
      throws IOException, InterruptedException {
    return start(
        executable,
        project,
        dataset,
        dataDir,
        logFile,
        !"false".equals(System.getProperty(FAST_APPEND_PROPERTY)));
  }

  /**
   * Turns the launcher's fast append path off when {@code false} (to tell whether a problem comes
   * from it): {@code JAVA_OPTS="-Xmx2g -Dthriftbq.bigquery.fastAppend=false" scripts/run-local.sh}.
   */
  public static final String FAST_APPEND_PROPERTY = "thriftbq.bigquery.fastAppend";

  /**
   * @param fastAppend take the launcher's cheaper Storage Write append path (see {@link
   *     #launcher}); false runs the emulator's own
   */
  static BigQueryEmulator start(
      Path executable,
      String project,
      String dataset,
      Path dataDir,
      Path logFile,
      boolean fastAppend)
      throws IOException, InterruptedException {
    int restPort = FreePorts.pick();
    int grpcPort = FreePorts.pick();
    while (grpcPort == restPort) {
      grpcPort = FreePorts.pick();
    }
    return start(
        new Launch(executable, project, dataset, dataDir, logFile, fastAppend), restPort, grpcPort);
  }

  /**
   * Kills this emulator with SIGKILL, waits {@code downtime}, and starts a new one on the same
   * ports and data directory, as a crashed and restarted server would come back. Tables and their
   * rows are on disk (DuckLake under the data directory) and survive; the Storage Write streams a
   * client had open live in the process's memory and do not, so appends to them fail with NOT_FOUND
   * afterwards.
   */
  public BigQueryEmulator killAndRestart(Duration downtime)
      throws IOException, InterruptedException {
    process.kill();
    Thread.sleep(downtime.toMillis());
    return start(launch, restPort, grpcPort);
  }

  private static BigQueryEmulator start(Launch launch, int restPort, int grpcPort)
      throws IOException, InterruptedException {
    Path executable = launch.executable();
    Path dataDir = launch.dataDir();
    String project = launch.project();
    String dataset = launch.dataset();
    Path logFile = launch.logFile();
    List<String> command = new ArrayList<>(launcher(executable, dataDir));
    command.addAll(
        List.of(
            "serve",
            "--host",
            FreePorts.LOOPBACK,
            "--port",
            Integer.toString(restPort),
            "--grpc-port",
            Integer.toString(grpcPort),
            "--project",
            project,
            "--dataset",
            dataset,
            "--data-dir",
            dataDir.toString()));
    Map<String, String> environment = new HashMap<>(launcherEnvironment(launch.fastAppend()));
    ManagedProcess process =
        ManagedProcess.start("bigquery-emulator", command, environment, logFile);
    BigQueryEmulator emulator = new BigQueryEmulator(process, restPort, grpcPort, project, launch);
    try {
      emulator.awaitReady(Duration.ofSeconds(60));
    } catch (IOException | RuntimeException | InterruptedException e) {
      process.close();
      throw e;
    }
    return emulator;
  }

  /**
   * BigQuery takes AppendRows requests of up to 10 MB; the emulator's gRPC server keeps gRPC's
   * default of 4 MiB, so a row between 4 and 10 MB (a dead letter holding a 9 MB payload) that
   * BigQuery accepts would fail on the emulator forever. The emulator is started through a small
   * launcher, in its own Python, that gives the server BigQuery's limit; when the executable has no
   * Python beside it (a custom {@code LOCAL_BIGQUERY_BIN}), it is started as it is.
   *
   * <p>The launcher also keeps, for the server's life, the protobuf message class of every writer
   * schema and of every message type nested in it, where the emulator builds a new descriptor pool
   * for every append connection and lets it go when the connection ends. The nested ones are what
   * stopped the emulator's segmentation faults (protobuf's C extension, upb, reading a nested
   * message of an appended row; docs/RELIABILITY.md): upb makes a nested type's class on demand,
   * the garbage collector cleared it after each row, and another thread's row could be given the
   * cleared class. The launcher's self-test checks that those classes outlive their rows.
   *
   * <p>And, unless {@code fastAppend} is false, it replaces the emulator's Storage Write append
   * path with one that gives the same rows, responses and row errors for about half the CPU per row
   * (the emulator is the ceiling of local runs at saturation; {@code bigquery-emulator-launcher.py}
   * says what it does and why, benchmarks/RESULTS.md section 9 what it measured). Its self-test
   * ({@code FastAppendEquivalenceTest}) compares it with the emulator's own path.
   *
   * <p>It also models BigQuery change data capture: rows appended to {@code _default} with a {@code
   * _CHANGE_TYPE} pseudo-column are merged into the table by its primary key, as BigQuery documents
   * it ({@code bigquery_emulator_cdc.py}, docs/LOCAL.md "Change data capture in the emulator";
   * {@code ChangeDataCaptureTest}).
   *
   * <p>The launcher is a resource of this module, copied next to the data directory at each start.
   */
  private static List<String> launcher(Path executable, Path dataDir) throws IOException {
    Path python = executable.resolveSibling("python");
    if (!Files.isExecutable(python)) {
      return List.of(executable.toString());
    }
    Path script = copyLauncher(dataDir.resolveSibling("bigquery-emulator-launcher"));
    return List.of(python.toString(), script.toString());
  }

  /** The launcher's file name; {@code pgrep -f} finds the emulator's process by it. */
  static final String LAUNCHER = "bigquery-emulator-launcher.py";

  private static final List<String> LAUNCHER_FILES =
      List.of(LAUNCHER, "bigquery_emulator_selftest.py", "bigquery_emulator_cdc.py");

  /**
   * Copies the launcher, its self-test and its change data capture module into {@code dir} (created
   * if needed); returns the launcher's path.
   */
  static Path copyLauncher(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String file : LAUNCHER_FILES) {
      try (InputStream in = BigQueryEmulator.class.getResourceAsStream(file)) {
        if (in == null) {
          throw new IOException("resource " + file + " is missing from local mode's jar");
        }
        Files.copy(in, dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return dir.resolve(LAUNCHER);
  }

  /** The launcher's environment: BigQuery's request limit, and whether to take the fast path. */
  private static Map<String, String> launcherEnvironment(boolean fastAppend) {
    return Map.of(
        "THRIFTBQ_BQ_MAX_MESSAGE_BYTES",
        Integer.toString(APPEND_REQUEST_LIMIT_BYTES),
        "THRIFTBQ_BQ_FAST_APPEND",
        fastAppend ? "1" : "0");
  }

  private void awaitReady(Duration timeout) throws IOException, InterruptedException {
    process.awaitReady(
        "BigQuery emulator (ports " + restPort + "/" + grpcPort + ")",
        timeout,
        () ->
            FreePorts.isListening(restPort)
                && FreePorts.isListening(grpcPort)
                && http.get("/bigquery/v2/projects/" + project + "/datasets").ok());
  }

  public int restPort() {
    return restPort;
  }

  public int grpcPort() {
    return grpcPort;
  }

  public String project() {
    return project;
  }

  public long pid() {
    return process.pid();
  }

  public ManagedProcess process() {
    return process;
  }

  /** For Beam's {@code --bigQueryEndpoint}. */
  public String restEndpoint() {
    return "http://" + FreePorts.LOOPBACK + ":" + restPort;
  }

  /**
   * The plaintext Storage Write gRPC endpoint, host:port, for {@link
   * io.thriftbq.local.beamio.EmulatorBigQueryServices}.
   */
  public String storageWriteEndpoint() {
    return FreePorts.LOOPBACK + ":" + grpcPort;
  }

  public void createDataset(String dataset) throws IOException {
    ObjectNode body = LoopbackHttp.JSON.createObjectNode();
    body.putObject("datasetReference").put("projectId", project).put("datasetId", dataset);
    LoopbackHttp.Response response =
        http.postIdempotent("/bigquery/v2/projects/" + project + "/datasets", body);
    if (!response.ok() && response.status() != 409) {
      throw new IOException(
          "BigQuery emulator: create dataset " + dataset + ": HTTP " + response.raw());
    }
  }

  /** Deletes a table (for fault-injection tests: a table an operator removed mid-run). */
  public void deleteTable(String dataset, String table) throws IOException {
    LoopbackHttp.Response response = http.delete(tablePath(dataset, table));
    if (!response.ok()) {
      throw new IOException(
          "BigQuery emulator: delete table " + table + ": HTTP " + response.raw());
    }
  }

  public boolean tableExists(String dataset, String table) throws IOException {
    return http.get(tablePath(dataset, table)).ok();
  }

  private String tablePath(String dataset, String table) {
    return "/bigquery/v2/projects/" + project + "/datasets/" + dataset + "/tables/" + table;
  }

  /**
   * The rows in {@code table} as the table's metadata gives them ({@code numRows} of {@code
   * tables.get}), 0 when the table does not exist. local-bigquery reads it from its catalog's
   * record count, which equals {@code COUNT(*)} for tables that are only appended to (checked by
   * {@code EmulatorTablesTest}), for about a quarter of a query's cost: a query job is translated,
   * materialized into a results table and read back, which at one poll a second cost about a fifth
   * of the emulator's CPU at saturation (py-spy, benchmarks/RESULTS.md section 9).
   */
  public long tableRows(String dataset, String table) throws IOException {
    LoopbackHttp.Response response = http.get(tablePath(dataset, table));
    if (response.status() == 404) {
      return 0;
    }
    if (!response.ok() || response.body() == null) {
      throw new IOException(
          "tables.get " + dataset + "." + table + " failed: HTTP " + response.status());
    }
    JsonNode rows = response.body().path("numRows");
    if (!rows.isTextual() && !rows.isNumber()) {
      throw new IOException("tables.get " + dataset + "." + table + " gave no numRows");
    }
    return rows.asLong();
  }

  /**
   * Runs a GoogleSQL query and returns its rows as column-name → JSON value maps (REPEATED and
   * RECORD columns stay as the emulator's {@code f}/{@code v} JSON).
   */
  public List<Map<String, JsonNode>> query(String sql) throws IOException {
    JsonNode result = rawQuery(sql);
    List<String> names = new ArrayList<>();
    for (JsonNode field : result.path("schema").path("fields")) {
      names.add(field.path("name").asText());
    }
    List<Map<String, JsonNode>> rows = new ArrayList<>();
    for (JsonNode row : result.path("rows")) {
      Map<String, JsonNode> values = new LinkedHashMap<>();
      JsonNode cells = row.path("f");
      for (int i = 0; i < names.size() && i < cells.size(); i++) {
        values.put(names.get(i), cells.get(i).path("v"));
      }
      rows.add(values);
    }
    return rows;
  }

  /** The {@code jobs.query} response as is: {@code schema} and {@code rows} in f/v form. */
  public JsonNode rawQuery(String sql) throws IOException {
    ObjectNode body = LoopbackHttp.JSON.createObjectNode();
    body.put("query", sql).put("useLegacySql", false).put("timeoutMs", 60_000);
    body.put("maxResults", 1_000_000);
    LoopbackHttp.Response response =
        http.postIdempotent("/bigquery/v2/projects/" + project + "/queries", body);
    if (!response.ok() || response.body() == null) {
      throw new IOException(
          "BigQuery emulator: query failed: HTTP " + response.status() + " " + response.raw());
    }
    JsonNode result = response.body();
    if (!result.path("jobComplete").asBoolean(true)) {
      throw new IOException("BigQuery emulator: query did not complete within 60 s: " + sql);
    }
    long total = result.path("totalRows").asLong(-1);
    if (total >= 0 && total > result.path("rows").size()) {
      // Paging is not implemented here; every query of local mode is small or aggregated.
      throw new IOException(
          "BigQuery emulator returned " + result.path("rows").size() + " of " + total + " rows");
    }
    return result;
  }

  /** A single number from a query such as {@code SELECT COUNT(*) ...}; 0 when there is no row. */
  public long queryLong(String sql) throws IOException {
    List<Map<String, JsonNode>> rows = query(sql);
    if (rows.isEmpty()) {
      return 0;
    }
    JsonNode value = rows.get(0).values().iterator().next();
    return value == null || value.isNull() ? 0 : Long.parseLong(value.asText());
  }

  @Override
  public void close() {
    process.stop(Duration.ofSeconds(10));
  }
}
