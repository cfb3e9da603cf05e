package io.thriftbq.local.run;

import static io.thriftbq.local.run.TableQueries.qualified;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.result.DeadLetterContents;
import io.thriftbq.local.result.EventTableContents;
import io.thriftbq.local.result.IdFieldCheck;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.BigQueryEmulator;
import io.thriftbq.local.stack.QueryRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * Reads a run's tables back from the BigQuery emulator once the run is over: every figure the
 * report gives about rows comes from here, not from the pipeline's own counters.
 */
final class TableAudit {
  private final BigQueryEmulator bigquery;
  private final int sampleRows;
  private final String attributesColumn;

  /**
   * @param attributesColumn the column holding each row's attributes, {@code event_id} among them
   */
  TableAudit(BigQueryEmulator bigquery, int sampleRows, String attributesColumn) {
    this.bigquery = bigquery;
    this.sampleRows = sampleRows;
    this.attributesColumn = attributesColumn;
  }

  EventTableContents eventTable(String table) throws IOException {
    if (!bigquery.tableExists(LocalRunConfig.DATASET, table)) {
      return EventTableContents.missing(table);
    }
    long rows = bigquery.queryLong("SELECT COUNT(*) FROM " + qualified(table));
    long rowsWithId = 0;
    Set<Long> ids = new HashSet<>();
    Map<Long, Long> duplicates = new TreeMap<>();
    for (Map<String, JsonNode> row :
        bigquery.query(
            "SELECT a.value AS id, COUNT(*) AS n FROM "
                + qualified(table)
                + " AS t, UNNEST(t."
                + attributesColumn
                + ") AS a WHERE a.key = 'event_id' GROUP BY a.value")) {
      long id = Long.parseLong(row.get("id").asText());
      long n = Long.parseLong(row.get("n").asText());
      rowsWithId += n;
      ids.add(id);
      if (n > 1) {
        duplicates.put(id, n);
      }
    }
    List<JsonNode> samples =
        rows > 0 ? sample("SELECT * FROM " + qualified(table) + " LIMIT " + sampleRows) : List.of();
    return new EventTableContents(table, true, rows, rows - rowsWithId, ids, duplicates, samples);
  }

  /** The dead-letter table: by stage, the malformed messages by id, and valid events among them. */
  DeadLetterContents deadLetterTable(String table) throws IOException {
    if (!bigquery.tableExists(LocalRunConfig.DATASET, table)) {
      return DeadLetterContents.missing(table);
    }
    long rows = bigquery.queryLong("SELECT COUNT(*) FROM " + qualified(table));
    Map<String, Long> byStage = new TreeMap<>();
    for (Map<String, JsonNode> row :
        bigquery.query(
            "SELECT stage, COUNT(*) AS n FROM " + qualified(table) + " GROUP BY stage")) {
      byStage.put(row.get("stage").asText(), Long.parseLong(row.get("n").asText()));
    }
    Map<String, Long> byStruct = new TreeMap<>();
    for (Map<String, JsonNode> row :
        bigquery.query(
            "SELECT COALESCE(struct, '') AS s, COUNT(*) AS n FROM "
                + qualified(table)
                + " GROUP BY COALESCE(struct, '')")) {
      byStruct.put(row.get("s").asText(), Long.parseLong(row.get("n").asText()));
    }
    Map<String, String> malformedStages = new TreeMap<>();
    Map<String, String> malformedStructs = new TreeMap<>();
    for (Map<String, JsonNode> row : attributeStages(table, MalformedMessages.ID_ATTRIBUTE)) {
      malformedStages.merge(
          row.get("id").asText(), row.get("stage").asText(), (x, y) -> x + "," + y);
      malformedStructs.merge(row.get("id").asText(), row.get("s").asText(), (x, y) -> x + "," + y);
    }
    Map<Long, String> validEvents = new TreeMap<>();
    List<String> unreadable = new ArrayList<>();
    for (Map<String, JsonNode> row : attributeStages(table, "event_id")) {
      try {
        validEvents.put(Long.parseLong(row.get("id").asText()), row.get("stage").asText());
      } catch (NumberFormatException notAnId) {
        unreadable.add(String.valueOf(row.get("id")));
      }
    }
    List<JsonNode> samples =
        rows > 0
            ? sample(
                "SELECT stage, struct, error_message, payload_format, message_id FROM "
                    + qualified(table)
                    + " LIMIT 3")
            : List.of();
    return new DeadLetterContents(
        table,
        true,
        rows,
        byStage,
        malformedStages,
        validEvents,
        unreadable,
        samples,
        byStruct,
        malformedStructs);
  }

  private List<Map<String, JsonNode>> attributeStages(String table, String key) throws IOException {
    return bigquery.query(
        "SELECT a.value AS id, d.stage AS stage, COALESCE(d.struct, '') AS s FROM "
            + qualified(table)
            + " AS d, UNNEST(d.attributes) AS a WHERE a.key = '"
            + key
            + "'");
  }

  /**
   * The values of {@code field} in the event tables against those of the generated events that were
   * not dead-lettered: each generated value present, and nothing else.
   */
  IdFieldCheck idField(
      String field,
      List<String> eventTables,
      long events,
      Set<Long> deadLettered,
      LongFunction<String> fieldOfEvent)
      throws IOException {
    Map<String, Long> expected = new HashMap<>();
    for (long id = 0; id < events; id++) {
      if (!deadLettered.contains(id)) {
        expected.merge(fieldOfEvent.apply(id), 1L, Long::sum);
      }
    }
    Map<String, Long> actual = new HashMap<>();
    for (String table : eventTables) {
      if (!bigquery.tableExists(LocalRunConfig.DATASET, table)) {
        continue;
      }
      for (Map<String, JsonNode> row :
          bigquery.query(
              "SELECT t."
                  + field
                  + " AS v FROM "
                  + qualified(table)
                  + " AS t WHERE t."
                  + field
                  + " IS NOT NULL")) {
        actual.merge(row.get("v").asText(), 1L, Long::sum);
      }
    }
    List<String> missing = new ArrayList<>();
    expected.keySet().stream().filter(v -> !actual.containsKey(v)).forEach(missing::add);
    List<String> unexpected = new ArrayList<>();
    actual.keySet().stream().filter(v -> !expected.containsKey(v)).forEach(unexpected::add);
    return new IdFieldCheck(field, missing, unexpected);
  }

  private List<JsonNode> sample(String sql) throws IOException {
    JsonNode result = bigquery.rawQuery(sql);
    List<JsonNode> rows = new ArrayList<>();
    for (JsonNode row : result.path("rows")) {
      rows.add(QueryRows.toObject(result.path("schema").path("fields"), row));
    }
    return rows;
  }
}
