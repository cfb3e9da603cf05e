package io.thriftbq.local.config;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One tuning step of the scaling study, read from the one step table, {@code
 * scripts/lib/tuning-steps.tsv} (bundled into this module's jar), which the numbered launch scripts
 * read too: a local step runs with exactly the ingestion flags of the cloud step.
 */
public final class TuningStep {
  static final String RESOURCE = "tuning-steps.tsv";
  private static final String FORMAT_FLAG = "--formatToStore=";
  private static final String FREQUENCY_FLAG = "--storageWriteApiTriggeringFrequencySec=";

  private static final List<TuningStep> STEPS = load();

  private final int number;
  private final String name;
  private final String title;
  private final String setting;
  private final String lesson;
  private final List<String> flags;

  private TuningStep(
      int number, String name, String title, String setting, String lesson, List<String> flags) {
    this.number = number;
    this.name = name;
    this.title = title;
    this.setting = setting;
    this.lesson = lesson;
    this.flags = List.copyOf(flags);
  }

  /** Every step, in table order. */
  public static List<TuningStep> all() {
    return STEPS;
  }

  public static TuningStep of(int number) {
    for (TuningStep step : STEPS) {
      if (step.number == number) {
        return step;
      }
    }
    throw new IllegalArgumentException("--step must be " + range() + ", got " + number);
  }

  /** The step numbers as {@code FIRST..LAST}; the table numbers its steps 1, 2, 3, ... */
  public static String range() {
    return STEPS.get(0).number + ".." + STEPS.get(STEPS.size() - 1).number;
  }

  public int number() {
    return number;
  }

  /** The name of the step's launch script, without the number: {@code N-NAME.sh}. */
  public String name() {
    return name;
  }

  public String title() {
    return title;
  }

  /** The SPEC table's "extra setting" column. */
  public String extraSetting() {
    return setting;
  }

  public String lesson() {
    return lesson;
  }

  /** The step's ingestion flags exactly as the table gives them (the cloud step's flags). */
  public List<String> flags() {
    return flags;
  }

  public WriteMethod writeMethod() {
    return WriteMethod.valueOf(required("--bigQueryWriteMethod="));
  }

  public StorageFormat format() {
    return StorageFormat.valueOf(required(FORMAT_FLAG));
  }

  public boolean autoSharding() {
    return "true".equals(value("--enableBigQueryAutoshard="));
  }

  public @Nullable Integer triggeringFrequencySec() {
    String value = value(FREQUENCY_FLAG);
    return value == null ? null : Integer.valueOf(value);
  }

  public boolean connectionPool() {
    return "true".equals(value("--useStorageApiConnectionPool="));
  }

  public @Nullable Integer numStreamingKeys() {
    String value = value("--numStreamingKeys=");
    return value == null ? null : Integer.valueOf(value);
  }

  /** Whether the step runs change mode (a primary key: BigQuery keeps one row per key). */
  public boolean changeMode() {
    return flags.stream().anyMatch(flag -> flag.startsWith("--primaryKey="));
  }

  public boolean exactlyOnce() {
    return writeMethod().isExactlyOnce();
  }

  /**
   * The step's ingestion flags. {@code triggeringFrequencyOverrideSec}, when not null, replaces the
   * step's triggering frequency (local runs may shorten it to finish sooner; the report says so).
   */
  public List<String> pipelineArgs(@Nullable Integer triggeringFrequencyOverrideSec) {
    return pipelineArgs(triggeringFrequencyOverrideSec, format());
  }

  /** The step's flags with another format (the step's knobs do not depend on the format). */
  public List<String> pipelineArgs(
      @Nullable Integer triggeringFrequencyOverrideSec, StorageFormat formatToStore) {
    Integer frequency = effectiveTriggeringFrequencySec(triggeringFrequencyOverrideSec);
    List<String> args = new ArrayList<>();
    for (String flag : flags) {
      if (flag.startsWith(FORMAT_FLAG)) {
        args.add(FORMAT_FLAG + formatToStore.name());
      } else if (flag.startsWith(FREQUENCY_FLAG)) {
        args.add(FREQUENCY_FLAG + frequency);
      } else {
        args.add(flag);
      }
    }
    return args;
  }

  public @Nullable Integer effectiveTriggeringFrequencySec(@Nullable Integer overrideSec) {
    Integer frequency = triggeringFrequencySec();
    if (frequency == null) {
      return null;
    }
    return overrideSec != null ? overrideSec : frequency;
  }

  public String describe() {
    return "step "
        + number
        + ": "
        + writeMethod().name()
        + " + "
        + format().name()
        + ", "
        + setting;
  }

  @Override
  public String toString() {
    return "step " + number;
  }

  private @Nullable String value(String prefix) {
    for (String flag : flags) {
      if (flag.startsWith(prefix)) {
        return flag.substring(prefix.length());
      }
    }
    return null;
  }

  private String required(String prefix) {
    String value = value(prefix);
    if (value == null) {
      throw new IllegalStateException("Step " + number + " of " + RESOURCE + " has no " + prefix);
    }
    return value;
  }

  private static List<TuningStep> load() {
    try (InputStream in = TuningStep.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE + " is not on the classpath; rebuild local-mode (it bundles scripts/lib/)");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<TuningStep> parse(BufferedReader reader) throws IOException {
    List<TuningStep> steps = new ArrayList<>();
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] columns = line.split("\t", -1);
      if (columns.length != 6) {
        throw new IllegalStateException(
            RESOURCE + ": expected 6 tab-separated columns, got " + columns.length + ": " + line);
      }
      TuningStep step =
          new TuningStep(
              Integer.parseInt(columns[0].trim()),
              columns[1],
              columns[2],
              columns[3],
              columns[4],
              Arrays.asList(columns[5].trim().split(" ")));
      if (step.number != steps.size() + 1) {
        throw new IllegalStateException(
            RESOURCE + ": steps are numbered 1, 2, 3, ... in order; got " + step.number);
      }
      step.writeMethod(); // fail on load, not mid-run, when a step lacks its method or format
      step.format();
      steps.add(step);
    }
    return Collections.unmodifiableList(steps);
  }
}
