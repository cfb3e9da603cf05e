package io.thriftbq.datagen;

import io.thriftbq.change.ChangeSpec;
import io.thriftbq.change.ChangeSpec.ChangeTypeSource;
import io.thriftbq.change.ChangeSpec.SequenceSource;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a {@link ChangeStream} makes, besides the structs and the seed (those are the {@link
 * GeneratorConfig}'s): the change-mode flags, parsed by {@link ChangeSpec} exactly as the ingestion
 * pipeline parses them, the number of distinct keys per struct and the share of each kind of
 * message. Every message that is not an update, a delete, a duplicate or an out-of-order change
 * brings a new key (an insert) until every key exists; after that it updates an existing key.
 *
 * @param spec where keys, change types and sequences go ({@code --primaryKey}, {@code
 *     --changeType}, {@code --changeSequence}, {@code --upsertValues}, {@code --deleteValues})
 * @param keys distinct keys per struct ({@code --changeKeys})
 * @param updateRatio share of messages that give an existing key new content ({@code
 *     --changeUpdateRatio})
 * @param deleteRatio share of messages that delete an existing key ({@code --changeDeleteRatio})
 * @param duplicateRatio share of messages that resend a recent message exactly, bytes and
 *     attributes ({@code --changeDuplicateRatio})
 * @param reorderRatio share of messages that carry a change older than the newest one already sent
 *     for its key, so that they lose ({@code --changeReorderRatio})
 */
public record ChangeStreamConfig(
    ChangeSpec spec,
    long keys,
    double updateRatio,
    double deleteRatio,
    double duplicateRatio,
    double reorderRatio)
    implements Serializable {

  public static final long DEFAULT_KEYS = 1000;
  public static final double DEFAULT_UPDATE_RATIO = 0.3;

  /** Most distinct keys per struct: the stream keeps each key's latest version in memory. */
  public static final long MAX_KEYS = 50_000_000L;

  public ChangeStreamConfig {
    Objects.requireNonNull(spec, "spec");
  }

  /** Share of messages that bring a new key (while keys remain): what the other shares leave. */
  public double insertRatio() {
    return Math.max(0, 1 - updateRatio - deleteRatio - duplicateRatio - reorderRatio);
  }

  /**
   * Parses the flags; every problem is added to {@code problems} naming the flag to change, and the
   * result is null if there was one. Whether the named fields exist, and have a usable type, is
   * checked against the structs when a {@link ChangeStream} is built.
   */
  public static @Nullable ChangeStreamConfig parse(
      String primaryKey,
      @Nullable String changeType,
      @Nullable String changeSequence,
      @Nullable List<String> upsertValues,
      @Nullable List<String> deleteValues,
      long keys,
      double updateRatio,
      double deleteRatio,
      double duplicateRatio,
      double reorderRatio,
      List<String> problems) {
    int before = problems.size();
    ChangeSpec spec =
        ChangeSpec.parse(
            primaryKey, changeType, changeSequence, upsertValues, deleteValues, problems);
    if (spec == null) {
      return null;
    }
    ChangeStreamConfig config =
        new ChangeStreamConfig(spec, keys, updateRatio, deleteRatio, duplicateRatio, reorderRatio);
    problems.addAll(config.problems());
    return problems.size() > before ? null : config;
  }

  /** The change-stream part of the generator's options, or null (with problems) if invalid. */
  public static @Nullable ChangeStreamConfig fromOptions(
      DatagenOptions options, List<String> problems) {
    return parse(
        options.getPrimaryKey(),
        options.getChangeType(),
        options.getChangeSequence(),
        options.getUpsertValues(),
        options.getDeleteValues(),
        options.getChangeKeys(),
        options.getChangeUpdateRatio(),
        options.getChangeDeleteRatio(),
        options.getChangeDuplicateRatio(),
        options.getChangeReorderRatio(),
        problems);
  }

  /**
   * Everything wrong with the numbers and their combination with the spec, each naming the flag to
   * change; empty when valid.
   */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (keys < 1 || keys > MAX_KEYS) {
      problems.add(
          "--changeKeys="
              + keys
              + " is outside 1.."
              + MAX_KEYS
              + ": give the number of distinct keys per struct");
    }
    ratio("--changeUpdateRatio", updateRatio, problems);
    ratio("--changeDeleteRatio", deleteRatio, problems);
    ratio("--changeDuplicateRatio", duplicateRatio, problems);
    ratio("--changeReorderRatio", reorderRatio, problems);
    double sum = updateRatio + deleteRatio + duplicateRatio + reorderRatio;
    if (sum > 1 + 1e-9) {
      problems.add(
          String.format(
              Locale.ROOT,
              "--changeUpdateRatio, --changeDeleteRatio, --changeDuplicateRatio and"
                  + " --changeReorderRatio add up to %s, above 1: lower them (what they leave"
                  + " below 1 is the share of new keys)",
              Math.round(sum * 1000) / 1000.0));
    }
    if (deleteRatio > 0 && spec.changeType() instanceof ChangeTypeSource.AllUpserts) {
      problems.add(
          "--changeDeleteRatio="
              + deleteRatio
              + " asks for deletes, but --changeType=UPSERT makes every event an upsert: set"
              + " --changeType=field:NAME or attribute:NAME, or --changeDeleteRatio=0");
    }
    if (reorderRatio > 0 && !(spec.sequence() instanceof SequenceSource.Field)) {
      problems.add(
          "--changeReorderRatio="
              + reorderRatio
              + " asks for out-of-order changes, but with --changeSequence="
              + describe(spec.sequence())
              + " the order of publication is the order of the changes, so no change can arrive"
              + " out of order: set --changeSequence=field:NAME (a version or timestamp field), or"
              + " --changeReorderRatio=0");
    }
    return problems;
  }

  static String describe(SequenceSource sequence) {
    if (sequence instanceof SequenceSource.Field field) {
      return "field:" + field.name();
    }
    if (sequence instanceof SequenceSource.PublishTime) {
      return "PUBLISH_TIME";
    }
    if (sequence instanceof SequenceSource.KafkaOffset) {
      return "KAFKA_OFFSET";
    }
    return "NONE";
  }

  private static void ratio(String flag, double value, List<String> problems) {
    if (!(value >= 0 && value <= 1)) {
      problems.add(flag + "=" + value + " is not a share: use a value from 0 to 1");
    }
  }
}
