package io.thriftbq.local.config;

import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.schema.EventTypes;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The BigQuery tables of one run, each with its kind: one event table and its dead-letter table, or
 * with many event types an event table per struct and one dead-letter table for all. Everything
 * that counts, audits or reports rows goes over this list rather than over one table name.
 *
 * @param template the ingestion pipeline's {@code --outputTable} (table part) for many types, with
 *     {@code {struct}}; null for one type
 */
public record RunTables(List<Table> all, @Nullable String template) {
  public enum Kind {
    EVENTS,
    DEAD_LETTERS
  }

  /**
   * One table of the run, in {@link LocalRunConfig#DATASET}.
   *
   * @param struct the struct (IDL name) an event table holds with many types, else null
   */
  public record Table(String name, Kind kind, @Nullable String struct) {
    public Table(String name, Kind kind) {
      this(name, kind, null);
    }
  }

  public RunTables {
    all = List.copyOf(all);
  }

  public RunTables(List<Table> all) {
    this(all, null);
  }

  /** {@code outputTable} and the dead-letter table the ingestion pipeline derives from it. */
  public static RunTables forOutputTable(String outputTable) {
    return new RunTables(
        List.of(
            new Table(outputTable, Kind.EVENTS),
            new Table(outputTable + DeadLetterTables.DEFAULT_SUFFIX, Kind.DEAD_LETTERS)));
  }

  /**
   * For {@code types}: with one type as {@link #forOutputTable}; with several, {@code
   * base_{struct}} per struct (its name in snake_case, as the pipeline names it) and {@code
   * base_dead_letter}.
   */
  public static RunTables forTypes(String base, EventTypes types) {
    if (types.types().size() == 1 && types.isSingle()) {
      return forOutputTable(base);
    }
    String template = base + "_" + DeadLetterTables.STRUCT_PLACEHOLDER;
    List<Table> tables = new ArrayList<>();
    for (EventTypes.EventType type : types.types()) {
      tables.add(new Table(base + "_" + type.tableName(), Kind.EVENTS, type.name()));
    }
    tables.add(new Table(DeadLetterTables.resolve(null, template), Kind.DEAD_LETTERS));
    return new RunTables(tables, template);
  }

  public List<String> eventTables() {
    return names(Kind.EVENTS);
  }

  public List<String> deadLetterTables() {
    return names(Kind.DEAD_LETTERS);
  }

  /** The event table of {@code struct} (IDL name), or null. */
  public @Nullable String tableOf(String struct) {
    return all.stream()
        .filter(t -> t.kind() == Kind.EVENTS && struct.equals(t.struct()))
        .map(Table::name)
        .findFirst()
        .orElse(null);
  }

  /**
   * The ingestion pipeline's {@code --outputTable} (table part): the one event table, or the
   * template with {@code {struct}} when the run has an event table per struct.
   *
   * @throws IllegalStateException when the run has several tables but no template
   */
  public String outputTable() {
    if (template != null) {
      return template;
    }
    List<String> events = eventTables();
    if (events.size() != 1) {
      throw new IllegalStateException(
          "one --outputTable cannot name the " + events.size() + " event tables " + events);
    }
    return events.get(0);
  }

  private List<String> names(Kind kind) {
    return all.stream().filter(t -> t.kind() == kind).map(Table::name).toList();
  }
}
