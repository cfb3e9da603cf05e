package io.thriftbq.local.config;

import io.thriftbq.ingest.deadletter.DeadLetterTables;
import java.util.List;

/**
 * The BigQuery tables of one run, each with its kind. Today a run has one event table and its
 * dead-letter table; a run of many event types will have an event table per type. Everything that
 * counts, audits or reports rows goes over this list rather than over one table name.
 */
public record RunTables(List<Table> all) {
  public enum Kind {
    EVENTS,
    DEAD_LETTERS
  }

  /** One table of the run, in {@link LocalRunConfig#DATASET}. */
  public record Table(String name, Kind kind) {}

  public RunTables {
    all = List.copyOf(all);
  }

  /** {@code outputTable} and the dead-letter table the ingestion pipeline derives from it. */
  public static RunTables forOutputTable(String outputTable) {
    return new RunTables(
        List.of(
            new Table(outputTable, Kind.EVENTS),
            new Table(outputTable + DeadLetterTables.DEFAULT_SUFFIX, Kind.DEAD_LETTERS)));
  }

  public List<String> eventTables() {
    return names(Kind.EVENTS);
  }

  public List<String> deadLetterTables() {
    return names(Kind.DEAD_LETTERS);
  }

  /**
   * The one event table, for the ingestion pipeline's {@code --outputTable}.
   *
   * @throws IllegalStateException when the run has several: the pipeline then needs routing flags
   */
  public String outputTable() {
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
