package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a run was configured to do, as the report holds it: the JSON report's {@value #KEY} object,
 * written from this record and read back into it here only (each key spelled once), and what the
 * text report's heading is formatted from.
 *
 * @param stepSettingsReplaced the step's flags that {@code --ingest-arg} replaced
 * @param triggeringFrequencySec the exactly-once steps' triggering frequency; null for the others
 * @param runner the engine, in words
 * @param rampUpSec how long the paced publisher took to rise to the rate after the pipeline's first
 *     row ({@code --ramp-up}); 0 when it did not ramp, with the generator pipeline, and in a report
 *     written before the ramp
 * @param publisher who published, in words
 * @param source the source's names, as {@link io.thriftbq.local.source.EventSource#describe()}
 *     gives them (the report's JSON has them as keys of the configuration)
 * @param table the event table, when the run had one; null with many types
 * @param build which build of each module ran ({@link BuildIdentity#digests()}); empty in a report
 *     written before it was recorded
 */
public record RunConfiguration(
    int step,
    String writeMethod,
    String format,
    String extraSetting,
    List<String> stepSettingsReplaced,
    @Nullable Integer triggeringFrequencySec,
    boolean exactlyOnce,
    String runner,
    boolean directRunnerChecks,
    long events,
    long ratePerSec,
    long rampUpSec,
    int recordsPerMessage,
    String publisher,
    long seed,
    Map<String, String> source,
    @Nullable String table,
    List<Table> tables,
    List<String> ingestionArgs,
    Map<String, String> build) {

  static final String KEY = "configuration";

  /** One of the run's tables: its name as the report gives it, and its kind. */
  public record Table(String name, String kind) {}

  private static final String STEP = "step";
  private static final String WRITE_METHOD = "write_method";
  private static final String FORMAT = "format";
  private static final String EXTRA_SETTING = "extra_setting";
  private static final String REPLACED = "step_settings_replaced_by_ingest_args";
  private static final String TRIGGERING_FREQUENCY = "triggering_frequency_sec";
  private static final String EXACTLY_ONCE = "exactly_once";
  private static final String RUNNER = "runner";
  private static final String DIRECT_RUNNER_CHECKS = "direct_runner_checks";
  private static final String EVENTS = "events";
  private static final String RATE = "rate_per_sec";
  private static final String RAMP_UP = "ramp_up_sec";
  private static final String RECORDS_PER_MESSAGE = "records_per_message";
  private static final String PUBLISHER = "publisher";
  private static final String SEED = "seed";
  private static final String TABLE = "table";
  private static final String TABLES = "tables";
  private static final String TABLE_NAME = "name";
  private static final String TABLE_KIND = "kind";
  private static final String INGESTION_ARGS = "ingestion_args";
  private static final String BUILD = "build";

  /** The keys that are not the source's names. */
  private static final Set<String> OWN_KEYS =
      Set.of(
          STEP,
          WRITE_METHOD,
          FORMAT,
          EXTRA_SETTING,
          REPLACED,
          TRIGGERING_FREQUENCY,
          EXACTLY_ONCE,
          RUNNER,
          DIRECT_RUNNER_CHECKS,
          EVENTS,
          RATE,
          RAMP_UP,
          RECORDS_PER_MESSAGE,
          PUBLISHER,
          SEED,
          TABLE,
          TABLES,
          INGESTION_ARGS,
          BUILD);

  public RunConfiguration {
    stepSettingsReplaced = List.copyOf(stepSettingsReplaced);
    source = Collections.unmodifiableMap(new LinkedHashMap<>(source));
    tables = List.copyOf(tables);
    ingestionArgs = List.copyOf(ingestionArgs);
    build = Collections.unmodifiableMap(new LinkedHashMap<>(build));
  }

  static RunConfiguration of(RunResult result) {
    LocalRunConfig config = result.config();
    List<String> eventTables = result.tables().eventTables();
    List<Table> tables = new ArrayList<>();
    for (RunTables.Table table : result.tables().all()) {
      tables.add(new Table(result.tableNames().get(table.name()), table.kind().name()));
    }
    return new RunConfiguration(
        config.step().number(),
        config.step().writeMethod().name(),
        config.format().name(),
        config.step().extraSetting(),
        config.replacedStepFlags(),
        config.step().effectiveTriggeringFrequencySec(config.triggeringFrequencySec()),
        config.step().exactlyOnce(),
        config.engine().describe(),
        config.directRunnerChecks(),
        config.events(),
        config.rate(),
        config.rampUpMillis() / 1000,
        config.recordsPerMessage(),
        config.generatorPipeline()
            ? "generator pipeline (DirectRunner, bounded: publishes at its end)"
            : "paced in-process publisher using the generator's core",
        config.seed(),
        result.source(),
        eventTables.size() == 1 ? result.tableNames().get(eventTables.get(0)) : null,
        tables,
        result.ingestionArgs(),
        BuildIdentity.current().digests());
  }

  /** How the paced publisher reached the rate, as the report's throughput lines add it. */
  String rampUpPhrase() {
    return rampUpSec == 0
        ? ""
        : String.format(", rising to %d/s over the first %d s", ratePerSec, rampUpSec);
  }

  /** Which server carried the run's events. */
  public SourceKind sourceKind() {
    return ReportFigures.sourceKind(source);
  }

  ObjectNode toJson() {
    ObjectNode json = LoopbackHttp.JSON.createObjectNode();
    json.put(STEP, step);
    json.put(WRITE_METHOD, writeMethod);
    json.put(FORMAT, format);
    json.put(EXTRA_SETTING, extraSetting);
    ArrayNode replaced = json.putArray(REPLACED);
    stepSettingsReplaced.forEach(replaced::add);
    if (triggeringFrequencySec != null) {
      json.put(TRIGGERING_FREQUENCY, triggeringFrequencySec);
    }
    json.put(EXACTLY_ONCE, exactlyOnce);
    json.put(RUNNER, runner);
    json.put(DIRECT_RUNNER_CHECKS, directRunnerChecks);
    json.put(EVENTS, events);
    json.put(RATE, ratePerSec);
    json.put(RAMP_UP, rampUpSec);
    json.put(RECORDS_PER_MESSAGE, recordsPerMessage);
    json.put(PUBLISHER, publisher);
    json.put(SEED, seed);
    source.forEach(json::put);
    if (table != null) {
      json.put(TABLE, table);
    }
    ArrayNode tableList = json.putArray(TABLES);
    tables.forEach(t -> tableList.addObject().put(TABLE_NAME, t.name()).put(TABLE_KIND, t.kind()));
    ArrayNode args = json.putArray(INGESTION_ARGS);
    ingestionArgs.forEach(args::add);
    ObjectNode modules = json.putObject(BUILD);
    build.forEach(modules::put);
    return json;
  }

  /** The configuration of a report's {@value #KEY}; the source's names are its other keys. */
  public static RunConfiguration fromJson(JsonNode json) {
    Map<String, String> source = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!OWN_KEYS.contains(field.getKey())) {
        source.put(field.getKey(), field.getValue().asText());
      }
    }
    Map<String, String> build = new LinkedHashMap<>();
    json.path(BUILD).fields().forEachRemaining(m -> build.put(m.getKey(), m.getValue().asText()));
    List<Table> tables = new ArrayList<>();
    for (JsonNode table : json.path(TABLES)) {
      tables.add(new Table(table.path(TABLE_NAME).asText(), table.path(TABLE_KIND).asText()));
    }
    return new RunConfiguration(
        json.path(STEP).asInt(),
        json.path(WRITE_METHOD).asText(),
        json.path(FORMAT).asText(),
        json.path(EXTRA_SETTING).asText(),
        strings(json.path(REPLACED)),
        json.path(TRIGGERING_FREQUENCY).isNumber() ? json.path(TRIGGERING_FREQUENCY).asInt() : null,
        json.path(EXACTLY_ONCE).asBoolean(),
        json.path(RUNNER).asText(),
        json.path(DIRECT_RUNNER_CHECKS).asBoolean(),
        json.path(EVENTS).asLong(),
        json.path(RATE).asLong(),
        json.path(RAMP_UP).asLong(), // a report from before the ramp had none
        json.path(RECORDS_PER_MESSAGE).asInt(),
        json.path(PUBLISHER).asText(),
        json.path(SEED).asLong(),
        source,
        json.path(TABLE).isTextual() ? json.path(TABLE).asText() : null,
        tables,
        strings(json.path(INGESTION_ARGS)),
        build);
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(element -> list.add(element.asText()));
    return list;
  }
}
