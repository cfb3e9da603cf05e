package io.thriftbq.local.run;

import static io.thriftbq.local.run.TableQueries.qualified;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.ChangeStream;
import io.thriftbq.datagen.ExpectedState;
import io.thriftbq.local.config.ChangeMix;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.result.ChangeStateCheck;
import io.thriftbq.local.source.SourceMessage;
import io.thriftbq.local.stack.BigQueryEmulator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Change mode in a local run ({@code --changes}): the pipeline's change flags (the step's, or
 * {@code --ingest-arg}) handed to the generator so both read the same key, change type and
 * sequence; the change stream the paced publisher sends; and the check of the table's final state
 * against the stream's expected state.
 */
final class ChangeRun {
  /** The ingestion flags that the generator's change stream takes too (ChangeSpec's). */
  private static final List<String> SHARED_FLAGS =
      List.of(
          "--primaryKey=",
          "--changeType=",
          "--changeSequence=",
          "--upsertValues=",
          "--deleteValues=");

  private ChangeRun() {}

  /** The change-mode flags the pipeline gets: the step's, replaced by {@code --ingest-arg}. */
  static List<String> pipelineChangeFlags(LocalRunConfig config) {
    List<String> effective =
        IngestionArgs.merge(
            List.of(),
            config.step().pipelineArgs(config.triggeringFrequencySec(), config.format()),
            config.engine().extraPipelineArgs());
    List<String> flags = new ArrayList<>();
    for (String flag : effective) {
      if (SHARED_FLAGS.stream().anyMatch(flag::startsWith)) {
        flags.add(flag);
      }
    }
    return flags;
  }

  /** Whether the run's pipeline is in change mode (it has a primary key). */
  static boolean changeMode(LocalRunConfig config) {
    return pipelineChangeFlags(config).stream().anyMatch(f -> f.startsWith("--primaryKey="));
  }

  /**
   * The generator's flags for {@code --changes}: the pipeline's change flags and the mix.
   *
   * @throws IllegalArgumentException when the run is not in change mode
   */
  static List<String> generatorFlags(LocalRunConfig config) {
    ChangeMix mix = config.changes();
    if (!changeMode(config)) {
      throw new IllegalArgumentException(
          "--changes needs change mode: run --step 9, or give the key with"
              + " --ingest-arg=--primaryKey=COLUMN");
    }
    List<String> flags = new ArrayList<>(pipelineChangeFlags(config));
    if (mix.keys() > 0) {
      flags.add("--changeKeys=" + mix.keys());
    }
    flags.add("--changeUpdateRatio=" + mix.updates());
    flags.add("--changeDeleteRatio=" + mix.deletes());
    flags.add("--changeDuplicateRatio=" + mix.duplicates());
    flags.add("--changeReorderRatio=" + mix.reorder());
    return flags;
  }

  /** The stream the generator's flags describe (deterministic: a new one replays it). */
  static ChangeStream stream(List<String> generatorArgs) {
    return ChangeStream.of(GeneratorArgs.options(generatorArgs));
  }

  /**
   * Message n of {@code stream} for the paced publisher, which asks for them in order: its bytes,
   * its attributes ({@code event_id}, the change type attribute, the struct attribute) and, for
   * Kafka, a record key that keeps one key's changes in one partition.
   */
  static LongFunction<SourceMessage> messages(ChangeStream stream) {
    long[] next = {0};
    return n -> {
      ChangeStream.Message message = n == next[0] ? stream.next() : stream.messageAt(n);
      next[0] = n + 1;
      return new SourceMessage(message.payload(), message.attributes(), message.partitionKey());
    };
  }

  /**
   * The final state's rows and the sum of their {@code event_id}s (each live key's winning
   * message), which tell the progress follower when the run is over.
   */
  static long[] finalStateTarget(ExpectedState expected, ChangeStream replay) {
    long rows = 0;
    long idSum = 0;
    for (ExpectedState.Entry entry : expected.entries()) {
      if (entry.present()) {
        rows++;
        idSum += replay.messageAt(entry.message()).change().origin();
      }
    }
    return new long[] {rows, idSum};
  }

  /**
   * The run's tables against {@code expected}: each row's key, and its {@code event_id} (the number
   * of the message whose change it holds), against each key's winner.
   *
   * @param replay a new stream over the same flags, replayed to know every message's key
   * @param messages how many messages were published
   */
  static ChangeStateCheck check(
      BigQueryEmulator bigquery,
      RunTables tables,
      String attributesColumn,
      ExpectedState expected,
      ChangeStream replay,
      long messages)
      throws IOException {
    // Every message's struct and key, by the number its event_id attribute carries.
    Map<Long, String> keyOfMessage = new HashMap<>();
    Map<Long, Long> originOfMessage = new HashMap<>();
    for (long n = 0; n < messages; n++) {
      ChangeStream.Message message = replay.messageAt(n);
      keyOfMessage.put(n, message.struct() + "/" + keyText(message.key()));
      originOfMessage.put(n, message.change().origin());
    }
    Map<String, ExpectedState.Entry> expectedByKey = new HashMap<>();
    long live = 0;
    for (ExpectedState.Entry entry : expected.entries()) {
      expectedByKey.put(entry.struct() + "/" + keyText(entry.key()), entry);
      live += entry.present() ? 1 : 0;
    }
    long present = 0;
    long wrong = 0;
    long stale = 0;
    long deletedBack = 0;
    long extraRows = 0;
    List<String> examples = new ArrayList<>();
    Map<String, Long> rowsByKey = new HashMap<>();
    Map<String, List<String>> structsByTable = new HashMap<>();
    for (ExpectedState.Entry entry : expected.entries()) {
      String table =
          tables.eventTables().size() == 1
              ? tables.eventTables().get(0)
              : tables.tableOf(entry.struct());
      if (table != null) {
        structsByTable.computeIfAbsent(table, t -> new ArrayList<>());
        if (!structsByTable.get(table).contains(entry.struct())) {
          structsByTable.get(table).add(entry.struct());
        }
      }
    }
    for (Map.Entry<String, List<String>> byTable : structsByTable.entrySet()) {
      String table = byTable.getKey();
      String struct = byTable.getValue().get(0);
      List<String> keyColumns =
          expected.entries().stream()
              .filter(e -> e.struct().equals(struct))
              .findFirst()
              .map(e -> List.copyOf(e.key().keySet()))
              .orElse(List.of());
      if (!bigquery.tableExists(LocalRunConfig.DATASET, table) || keyColumns.isEmpty()) {
        continue;
      }
      StringBuilder select = new StringBuilder("SELECT ");
      for (int i = 0; i < keyColumns.size(); i++) {
        select.append("t.`").append(keyColumns.get(i)).append("` AS k").append(i).append(", ");
      }
      select
          .append("(SELECT a.value FROM UNNEST(t.")
          .append(attributesColumn)
          .append(") AS a WHERE a.key = '")
          .append(EventAttributes.EVENT_ID)
          .append("') AS message FROM ")
          .append(qualified(table))
          .append(" AS t");
      for (Map<String, JsonNode> row : bigquery.query(select.toString())) {
        Map<String, Object> key = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyColumns.size(); i++) {
          JsonNode value = row.get("k" + i);
          key.put(keyColumns.get(i), value == null || value.isNull() ? null : value.asText());
        }
        String name = struct + "/" + keyText(key);
        long rows = rowsByKey.merge(name, 1L, Long::sum);
        ExpectedState.Entry winner = expectedByKey.get(name);
        if (rows > 1 || winner == null) {
          extraRows++;
          example(examples, "extra row " + name);
          continue;
        }
        if (!winner.present()) {
          deletedBack++;
          example(examples, "deleted key back " + name);
          continue;
        }
        JsonNode idNode = row.get("message");
        Long id = idNode == null || idNode.isNull() ? null : parseLong(idNode.asText());
        long winnerOrigin = originOfMessage.getOrDefault(winner.message(), winner.message());
        if (id != null && id == winnerOrigin) {
          present++;
        } else if (id != null && name.equals(keyOfMessage.get(id))) {
          stale++;
          example(examples, "stale " + name + " holds message " + id + ", not " + winnerOrigin);
        } else {
          wrong++;
          example(examples, "wrong " + name + " holds message " + id);
        }
      }
    }
    long missing = 0;
    for (Map.Entry<String, ExpectedState.Entry> entry : expectedByKey.entrySet()) {
      if (entry.getValue().present() && !rowsByKey.containsKey(entry.getKey())) {
        missing++;
        example(examples, "missing " + entry.getKey());
      }
    }
    return new ChangeStateCheck(
        expectedByKey.size(),
        live,
        expectedByKey.size() - live,
        present,
        missing,
        wrong,
        stale,
        deletedBack,
        extraRows,
        examples);
  }

  private static String keyText(Map<String, Object> key) {
    StringBuilder text = new StringBuilder();
    for (Object value : key.values()) {
      text.append(text.length() == 0 ? "" : "/").append(value);
    }
    return text.toString();
  }

  private static Long parseLong(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void example(List<String> examples, String text) {
    if (examples.size() < 10) {
      examples.add(text);
    }
  }
}
