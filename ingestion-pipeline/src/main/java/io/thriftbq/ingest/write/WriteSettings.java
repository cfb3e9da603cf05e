package io.thriftbq.ingest.write;

import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.options.WriteMethod;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every BigQuery tuning knob of the event write, and the one place where the rules about which knob
 * goes with which write method live ({@link #problems}). {@link WriteEvents} applies the settings;
 * the launch check reports the same problems, named by option.
 *
 * @param table the output table, {@code PROJECT:DATASET.TABLE} or {@code DATASET.TABLE}
 * @param method the write method
 * @param autoSharding runner-chosen write shards ({@code --enableBigQueryAutoshard})
 * @param triggeringFrequencySec how often exactly-once writes commit ({@code
 *     --storageWriteApiTriggeringFrequencySec}); null when not set
 * @param numStorageWriteApiStreams fixed exactly-once streams, 0 for BigQueryIO's choice
 * @param numStreamingKeys {@code --numStreamingKeys}, read by BigQueryIO from the pipeline options;
 *     here so that its rules are checked with the others; null when not set
 * @param connectionPool {@code --useStorageApiConnectionPool}, read by BigQueryIO from the pipeline
 *     options, likewise
 * @param createTable create the table from the derived schema if needed
 * @param layout partitioning and clustering of a created table
 * @param change the change rule in change mode, or null
 * @param handOff hand the rows to the write through a Reshuffle ({@code --handOffBeforeWrite})
 * @param handOffWriters how many writers the hand-off feeds, each behind an exchange of its own
 *     ({@code --handOffWriters}); 1 without a hand-off
 */
public record WriteSettings(
    String table,
    WriteMethod method,
    boolean autoSharding,
    @Nullable Integer triggeringFrequencySec,
    int numStorageWriteApiStreams,
    @Nullable Integer numStreamingKeys,
    boolean connectionPool,
    boolean createTable,
    TableLayout layout,
    @Nullable ChangeRule change,
    boolean handOff,
    int handOffWriters)
    implements Serializable {
  private static final Logger LOG = LoggerFactory.getLogger(WriteSettings.class);

  /** Beam's default of {@code --numStreamingKeys}. */
  public static final int DEFAULT_NUM_STREAMING_KEYS = 50;

  public WriteSettings {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(layout, "layout");
  }

  /** Settings of an append-only write (no change mode). */
  public WriteSettings(
      String table,
      WriteMethod method,
      boolean autoSharding,
      @Nullable Integer triggeringFrequencySec,
      int numStorageWriteApiStreams,
      @Nullable Integer numStreamingKeys,
      boolean connectionPool,
      boolean createTable,
      TableLayout layout) {
    this(
        table,
        method,
        autoSharding,
        triggeringFrequencySec,
        numStorageWriteApiStreams,
        numStreamingKeys,
        connectionPool,
        createTable,
        layout,
        null,
        false,
        1);
  }

  /** These settings with the rows handed to the write through a Reshuffle, or not. */
  public WriteSettings withHandOff(boolean value) {
    return with(change, value, handOffWriters);
  }

  /** These settings with the hand-off feeding {@code writers} writers. */
  public WriteSettings withHandOffWriters(int writers) {
    return with(change, handOff, writers);
  }

  /** These settings in change mode: each row an upsert or delete by {@code change}'s key. */
  public WriteSettings withChange(@Nullable ChangeRule change) {
    return with(change, handOff, handOffWriters);
  }

  private WriteSettings with(@Nullable ChangeRule change, boolean handOff, int handOffWriters) {
    return new WriteSettings(
        table,
        method,
        autoSharding,
        triggeringFrequencySec,
        numStorageWriteApiStreams,
        numStreamingKeys,
        connectionPool,
        createTable,
        layout,
        change,
        handOff,
        handOffWriters);
  }

  /**
   * Writes to {@code table} with {@code method}; no sharding, triggering, fixed streams or layout;
   * creates the table.
   */
  public static WriteSettings of(String table, WriteMethod method) {
    return new WriteSettings(table, method, false, null, 0, null, false, true, TableLayout.NONE);
  }

  /**
   * What is wrong with these settings for bounded or unbounded input, each problem naming the
   * option to change; empty when they can be applied.
   */
  public List<String> problems(boolean boundedInput) {
    List<String> problems = new ArrayList<>();
    checkTriggeringFrequency(boundedInput, problems);
    if (autoSharding && boundedInput) {
      problems.add(
          "--enableBigQueryAutoshard applies only to unbounded (streaming) input: remove it");
    }
    if (autoSharding && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--enableBigQueryAutoshard does nothing with STORAGE_API_AT_LEAST_ONCE, which writes"
              + " without a shuffle: remove it, or use STORAGE_WRITE_API or STREAMING_INSERTS");
    }
    if (handOff && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--handOffBeforeWrite applies only to STORAGE_API_AT_LEAST_ONCE ("
              + method
              + " hands the rows on through its own shuffle): remove it");
    }
    if (handOff && change != null) {
      problems.add(
          "--handOffBeforeWrite may reorder the changes of one key, and --primaryKey applies them"
              + " in the order they arrive: remove --handOffBeforeWrite");
    }
    if (handOffWriters < 1) {
      problems.add(
          "--handOffWriters="
              + handOffWriters
              + " must be at least 1 (1 writer, as without the option)");
    } else if (handOffWriters > 1 && !handOff) {
      problems.add(
          "--handOffWriters="
              + handOffWriters
              + " splits the rows among writers behind the hand-off, but --handOffBeforeWrite is"
              + " off: add --handOffBeforeWrite=true, or remove --handOffWriters");
    }
    checkStreamingKeys(problems);
    checkStorageWriteStreams(problems);
    if (connectionPool && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--useStorageApiConnectionPool=true works only with STORAGE_API_AT_LEAST_ONCE (it"
              + " multiplexes the default stream): remove it or switch the write method");
    }
    if (!createTable && !layout.isEmpty()) {
      problems.add(
          "--partitionType, --partitionField and --clusteringFields shape a table the pipeline"
              + " creates, but --createTable=false: set them on the existing table instead, or set"
              + " --createTable=true");
    }
    return problems;
  }

  private void checkTriggeringFrequency(boolean boundedInput, List<String> problems) {
    if (triggeringFrequencySec != null) {
      if (method != WriteMethod.STORAGE_WRITE_API) {
        problems.add(
            "--storageWriteApiTriggeringFrequencySec applies only to STORAGE_WRITE_API"
                + " (exactly-once); "
                + method
                + " writes as rows arrive: remove the option");
      } else if (triggeringFrequencySec <= 0) {
        problems.add(
            "--storageWriteApiTriggeringFrequencySec="
                + triggeringFrequencySec
                + " must be a positive number of seconds (1 for low latency, 10 for fewer"
                + " commits)");
      }
    } else if (method == WriteMethod.STORAGE_WRITE_API && !boundedInput) {
      problems.add(
          "STORAGE_WRITE_API on a stream needs --storageWriteApiTriggeringFrequencySec: set it"
              + " (for example 1 for low latency, 10 for fewer commits), or use"
              + " STORAGE_API_AT_LEAST_ONCE");
    }
  }

  private void checkStreamingKeys(List<String> problems) {
    if (numStreamingKeys == null) {
      return;
    }
    if (numStreamingKeys <= 0) {
      problems.add("--numStreamingKeys=" + numStreamingKeys + " must be positive");
    } else if (numStreamingKeys != DEFAULT_NUM_STREAMING_KEYS) {
      if (method != WriteMethod.STREAMING_INSERTS) {
        problems.add(
            "--numStreamingKeys applies only to STREAMING_INSERTS; "
                + method
                + " ignores it: remove it (use --numStorageWriteApiStreams for STORAGE_WRITE_API)");
      } else if (autoSharding) {
        // A warning, not an error: the knob belongs to this method and Beam documents that
        // auto-sharding wins.
        LOG.warn(
            "--numStreamingKeys={} is ignored because --enableBigQueryAutoshard=true lets the"
                + " runner pick the shards",
            numStreamingKeys);
      }
    }
  }

  private void checkStorageWriteStreams(List<String> problems) {
    if (numStorageWriteApiStreams < 0) {
      problems.add(
          "--numStorageWriteApiStreams="
              + numStorageWriteApiStreams
              + " must be 0 (automatic) or more");
    } else if (numStorageWriteApiStreams > 0) {
      if (method != WriteMethod.STORAGE_WRITE_API) {
        problems.add(
            "--numStorageWriteApiStreams applies only to STORAGE_WRITE_API; "
                + method
                + " ignores it: remove it"
                + (method == WriteMethod.STREAMING_INSERTS ? " (use --numStreamingKeys)" : ""));
      } else if (autoSharding) {
        problems.add(
            "--numStorageWriteApiStreams conflicts with --enableBigQueryAutoshard=true (BigQueryIO"
                + " would ignore the fixed count): keep one of them");
      }
    }
  }
}
