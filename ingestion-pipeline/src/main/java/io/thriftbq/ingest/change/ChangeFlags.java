package io.thriftbq.ingest.change;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.change.ChangeSpec;
import io.thriftbq.ingest.options.ChangeCaptureOptions;
import io.thriftbq.schema.EventTypes;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Change mode's flags ({@link ChangeCaptureOptions}) checked against a job's structs, the same way
 * for the pipeline's launch ({@code ingest.plan.ChangePlanner}) and the schema exporter, so that a
 * table created outside the pipeline declares the key and staleness the job would give it. Each
 * problem is added to a list, naming the flag to change.
 */
public final class ChangeFlags {
  private ChangeFlags() {}

  /** Whether change mode is on ({@code --primaryKey} set). */
  public static boolean isOn(ChangeCaptureOptions options) {
    return isSet(options.getPrimaryKey());
  }

  /**
   * The change flags set although {@code --primaryKey} is not: each applies in change mode only.
   */
  public static List<String> setWithoutKey(ChangeCaptureOptions options) {
    List<String> set = new ArrayList<>();
    if (isOn(options)) {
      return set;
    }
    if (isSet(options.getChangeType())) {
      set.add("--changeType");
    }
    if (isSet(options.getChangeSequence())) {
      set.add("--changeSequence");
    }
    if (options.getUpsertValues() != null && !options.getUpsertValues().isEmpty()) {
      set.add("--upsertValues");
    }
    if (options.getDeleteValues() != null && !options.getDeleteValues().isEmpty()) {
      set.add("--deleteValues");
    }
    if (isSet(options.getMaxStaleness())) {
      set.add("--maxStaleness");
    }
    return set;
  }

  /** The flags parsed by thrift-common's {@link ChangeSpec#parse}, or null on a problem. */
  public static @Nullable ChangeSpec spec(ChangeCaptureOptions options, List<String> problems) {
    return ChangeSpec.parse(
        options.getPrimaryKey(),
        options.getChangeType(),
        options.getChangeSequence(),
        options.getUpsertValues(),
        options.getDeleteValues(),
        problems);
  }

  /**
   * Every struct's rule, in {@code types}' order, checked against its table schema ({@link
   * ChangeRule#of}); a struct {@code --primaryKey} names that the job does not ingest is a problem.
   * Null if there was one.
   */
  public static @Nullable List<ChangeRule> rules(
      ChangeSpec spec, EventTypes types, List<TableSchema> schemas, List<String> problems) {
    List<String> known = new ArrayList<>();
    for (EventTypes.EventType type : types.types()) {
      known.add(type.name());
    }
    for (String struct : spec.keys().keySet()) {
      if (!struct.equals(ChangeSpec.EVERY_STRUCT) && !known.contains(struct)) {
        problems.add(
            "--primaryKey names struct " + struct + ", which the job does not ingest " + known);
      }
    }
    List<ChangeRule> rules = new ArrayList<>();
    for (int i = 0; i < schemas.size(); i++) {
      rules.add(ChangeRule.of(spec, known.get(i), schemas.get(i), problems));
    }
    return rules.contains(null) ? null : rules;
  }

  /**
   * {@code --maxStaleness} as BigQuery's INTERVAL literal ({@code Y-M D H:M:S}), or null when not
   * set or invalid (a problem then).
   */
  public static @Nullable String maxStaleness(ChangeCaptureOptions options, List<String> problems) {
    String text = options.getMaxStaleness();
    if (!isSet(text)) {
      return null;
    }
    Duration duration;
    try {
      duration = Duration.parse(text.trim());
    } catch (DateTimeParseException e) {
      problems.add(
          "--maxStaleness="
              + text
              + " is not an ISO-8601 duration: write it like PT15M, PT1H or P1D");
      return null;
    }
    if (duration.isNegative() || duration.isZero()) {
      problems.add("--maxStaleness=" + text + " must be longer than zero");
      return null;
    }
    return interval(duration);
  }

  /**
   * A duration as BigQuery's INTERVAL canonical literal, for example {@code 0-0 0 0:15:0}: what a
   * table's {@code max_staleness} holds, in the API and in Terraform.
   */
  public static String interval(Duration duration) {
    long days = duration.toDays();
    Duration rest = duration.minusDays(days);
    return "0-0 "
        + days
        + " "
        + rest.toHours()
        + ":"
        + rest.toMinutesPart()
        + ":"
        + rest.toSecondsPart();
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
