package io.thriftbq.change;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Change mode's flags, parsed once for the ingestion pipeline and the generator alike (the same
 * syntax in both): which columns form each struct's primary key ({@code --primaryKey}), where each
 * event's change type comes from ({@code --changeType}, {@code --upsertValues}, {@code
 * --deleteValues}) and where its sequence comes from ({@code --changeSequence}). Whether the names
 * exist in the IDL is checked by each pipeline against its structs.
 *
 * <p>Syntax:
 *
 * <ul>
 *   <li>{@code --primaryKey}: {@code col[,col...]} for every struct of the job, or {@code
 *       Struct=col[,col...];Struct2=col...} per struct (a struct not named has no key, which a
 *       change-mode job refuses);
 *   <li>{@code --changeType}: {@code UPSERT} (every event), {@code field:NAME} (a top-level string
 *       or enum field), or {@code attribute:NAME} (a Pub/Sub attribute or Kafka header);
 *   <li>{@code --changeSequence}: {@code NONE}, {@code PUBLISH_TIME} (Pub/Sub), {@code
 *       KAFKA_OFFSET} (Kafka), or {@code field:NAME} (a top-level integer or timestamp field, or a
 *       string holding a BigQuery sequence number).
 * </ul>
 *
 * @param keys the key columns by struct name; the key {@link #EVERY_STRUCT} applies to all
 */
public record ChangeSpec(
    Map<String, List<String>> keys,
    ChangeTypeSource changeType,
    SequenceSource sequence,
    Set<String> upsertValues,
    Set<String> deleteValues)
    implements Serializable {

  /** BigQuery's limit on primary key columns. */
  public static final int MAX_KEY_COLUMNS = 16;

  /** The {@link #keys} entry for every struct ({@code --primaryKey=col,col}). */
  public static final String EVERY_STRUCT = "";

  public static final Set<String> DEFAULT_UPSERT_VALUES = Set.of("UPSERT", "INSERT", "UPDATE");
  public static final Set<String> DEFAULT_DELETE_VALUES = Set.of("DELETE");

  public ChangeSpec {
    keys = Map.copyOf(keys);
    upsertValues = Set.copyOf(upsertValues);
    deleteValues = Set.copyOf(deleteValues);
  }

  /** Where an event's change type comes from. */
  public sealed interface ChangeTypeSource extends Serializable {
    /** Every event is an UPSERT: duplicates collapse. */
    record AllUpserts() implements ChangeTypeSource {}

    /** A top-level string or enum field of the event. */
    record Field(String name) implements ChangeTypeSource {}

    /** A Pub/Sub attribute or a Kafka header. */
    record Attribute(String name) implements ChangeTypeSource {}
  }

  /** Where an event's change sequence number comes from. */
  public sealed interface SequenceSource extends Serializable {
    /** No sequence: BigQuery applies changes to a key in the order it ingests them. */
    record None() implements SequenceSource {}

    /** The Pub/Sub publish time, in milliseconds. */
    record PublishTime() implements SequenceSource {}

    /** The Kafka record's offset: it orders changes only within one partition. */
    record KafkaOffset() implements SequenceSource {}

    /** A top-level field: an integer (a version), a timestamp, or a sequence-number string. */
    record Field(String name) implements SequenceSource {}
  }

  /** The key columns of {@code struct} (its own, else those for every struct), or an empty list. */
  public List<String> keyOf(String struct) {
    List<String> own = keys.get(struct);
    if (own != null) {
      return own;
    }
    return keys.getOrDefault(EVERY_STRUCT, List.of());
  }

  /** The top-level field the change type is read from, or null. */
  public @Nullable String changeTypeField() {
    return changeType instanceof ChangeTypeSource.Field field ? field.name() : null;
  }

  /** The top-level field the sequence is read from, or null. */
  public @Nullable String sequenceField() {
    return sequence instanceof SequenceSource.Field field ? field.name() : null;
  }

  /**
   * Parses the flags; every problem is added to {@code problems}, naming the flag to change, and
   * the result is null if there was one.
   */
  public static @Nullable ChangeSpec parse(
      String primaryKey,
      @Nullable String changeType,
      @Nullable String changeSequence,
      @Nullable List<String> upsertValues,
      @Nullable List<String> deleteValues,
      List<String> problems) {
    int before = problems.size();
    Map<String, List<String>> keys = parseKeys(primaryKey, problems);
    ChangeTypeSource type = parseChangeType(changeType, problems);
    SequenceSource sequence = parseSequence(changeSequence, problems);
    Set<String> upserts = values(upsertValues, DEFAULT_UPSERT_VALUES, "--upsertValues", problems);
    Set<String> deletes = values(deleteValues, DEFAULT_DELETE_VALUES, "--deleteValues", problems);
    for (String value : upserts) {
      if (deletes.contains(value)) {
        problems.add(
            "--upsertValues and --deleteValues both name "
                + value
                + ": a value must mean one change type");
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new ChangeSpec(keys, type, sequence, upserts, deletes);
  }

  private static Map<String, List<String>> parseKeys(String primaryKey, List<String> problems) {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    String text = primaryKey == null ? "" : primaryKey.trim();
    if (text.isEmpty()) {
      problems.add("--primaryKey is empty: name the key column(s), for example --primaryKey=id");
      return keys;
    }
    for (String part : text.split(";")) {
      String entry = part.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int equals = entry.indexOf('=');
      String struct = equals < 0 ? EVERY_STRUCT : entry.substring(0, equals).trim();
      String columns = equals < 0 ? entry : entry.substring(equals + 1);
      if (equals >= 0 && struct.isEmpty()) {
        problems.add("--primaryKey entry '" + entry + "' names no struct before '='");
        continue;
      }
      if (keys.containsKey(struct)) {
        problems.add(
            "--primaryKey gives "
                + (struct.isEmpty() ? "the key for every struct" : "struct " + struct + "'s key")
                + " twice");
        continue;
      }
      List<String> names = new ArrayList<>();
      for (String column : columns.split(",")) {
        String name = column.trim();
        if (name.isEmpty()) {
          problems.add("--primaryKey entry '" + entry + "' has an empty column name");
        } else if (names.contains(name)) {
          problems.add("--primaryKey entry '" + entry + "' names column " + name + " twice");
        } else if (name.contains(".")) {
          problems.add(
              "--primaryKey column "
                  + name
                  + " is nested: BigQuery primary keys are top-level columns only; promote the"
                  + " field to the top level of the struct");
        } else {
          names.add(name);
        }
      }
      if (names.size() > MAX_KEY_COLUMNS) {
        problems.add(
            "--primaryKey names "
                + names.size()
                + " columns for "
                + (struct.isEmpty() ? "every struct" : struct)
                + "; BigQuery allows at most "
                + MAX_KEY_COLUMNS);
      }
      keys.put(struct, List.copyOf(names));
    }
    if (keys.size() > 1 && keys.containsKey(EVERY_STRUCT)) {
      problems.add(
          "--primaryKey mixes a key for every struct with per-struct keys: write each as"
              + " Struct=col[,col] separated by ';'");
    }
    return keys;
  }

  private static ChangeTypeSource parseChangeType(@Nullable String text, List<String> problems) {
    String value = text == null ? "UPSERT" : text.trim();
    if (value.isEmpty() || value.equalsIgnoreCase("UPSERT")) {
      return new ChangeTypeSource.AllUpserts();
    }
    String name = after(value, "field:");
    if (name != null) {
      requireName(name, "--changeType", problems);
      return new ChangeTypeSource.Field(name);
    }
    name = after(value, "attribute:");
    if (name == null) {
      name = after(value, "header:");
    }
    if (name != null) {
      requireName(name, "--changeType", problems);
      return new ChangeTypeSource.Attribute(name);
    }
    problems.add(
        "--changeType="
            + value
            + " is not UPSERT, field:NAME or attribute:NAME (header:NAME for a Kafka header)");
    return new ChangeTypeSource.AllUpserts();
  }

  private static SequenceSource parseSequence(@Nullable String text, List<String> problems) {
    String value = text == null ? "NONE" : text.trim();
    String name = after(value, "field:");
    if (name != null) {
      requireName(name, "--changeSequence", problems);
      return new SequenceSource.Field(name);
    }
    switch (value.toUpperCase(Locale.ROOT)) {
      case "", "NONE":
        return new SequenceSource.None();
      case "PUBLISH_TIME":
        return new SequenceSource.PublishTime();
      case "KAFKA_OFFSET":
        return new SequenceSource.KafkaOffset();
      default:
        problems.add(
            "--changeSequence=" + value + " is not NONE, PUBLISH_TIME, KAFKA_OFFSET or field:NAME");
        return new SequenceSource.None();
    }
  }

  private static void requireName(String name, String flag, List<String> problems) {
    if (name.isEmpty()) {
      problems.add(flag + " names no field or attribute after ':'");
    }
  }

  private static @Nullable String after(String value, String prefix) {
    if (value.regionMatches(true, 0, prefix, 0, prefix.length())) {
      return value.substring(prefix.length()).trim();
    }
    return null;
  }

  private static Set<String> values(
      @Nullable List<String> given, Set<String> defaults, String flag, List<String> problems) {
    if (given == null || given.isEmpty()) {
      return new LinkedHashSet<>(defaults);
    }
    Set<String> values = new LinkedHashSet<>();
    for (String value : given) {
      String trimmed = value.trim();
      if (trimmed.isEmpty()) {
        problems.add(flag + " has an empty value");
      } else {
        values.add(trimmed);
      }
    }
    return values;
  }
}
