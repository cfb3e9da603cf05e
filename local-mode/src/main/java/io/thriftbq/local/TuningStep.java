package io.thriftbq.local;

import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import java.util.ArrayList;
import java.util.List;

/**
 * The seven tuning steps of the scaling study (SPEC.md), as ingestion-pipeline flags. Local mode,
 * its end-to-end tests and the report all read the step table from here.
 *
 * <p>Auto-sharding carries over from step 3 to the exactly-once Storage Write steps that follow
 * (4-6), as in the study, where each step changes one thing; the at-least-once step 7 writes to the
 * default stream without a write shuffle, so sharding and triggering frequency do not apply.
 */
public enum TuningStep {
  STEP_1(
      1,
      WriteMethod.STREAMING_INSERTS,
      StorageFormat.TABLE_ROW,
      null,
      false,
      null,
      false,
      "defaults (50 streaming keys)"),
  STEP_2(
      2,
      WriteMethod.STREAMING_INSERTS,
      StorageFormat.TABLE_ROW,
      512,
      false,
      null,
      false,
      "--numStreamingKeys=512"),
  STEP_3(
      3,
      WriteMethod.STREAMING_INSERTS,
      StorageFormat.TABLE_ROW,
      null,
      true,
      null,
      false,
      "auto-sharding"),
  STEP_4(
      4,
      WriteMethod.STORAGE_WRITE_API,
      StorageFormat.TABLE_ROW,
      null,
      true,
      10,
      false,
      "triggering frequency 10 s, auto-sharding"),
  STEP_5(
      5,
      WriteMethod.STORAGE_WRITE_API,
      StorageFormat.BEAM_ROW,
      null,
      true,
      1,
      false,
      "triggering frequency 1 s"),
  STEP_6(
      6,
      WriteMethod.STORAGE_WRITE_API,
      StorageFormat.AVRO_GENERIC_RECORD,
      null,
      true,
      1,
      false,
      "triggering frequency 1 s"),
  STEP_7(
      7,
      WriteMethod.STORAGE_API_AT_LEAST_ONCE,
      StorageFormat.AVRO_GENERIC_RECORD,
      null,
      false,
      null,
      true,
      "--useStorageApiConnectionPool=true");

  private final int number;
  private final WriteMethod writeMethod;
  private final StorageFormat format;
  private final Integer numStreamingKeys;
  private final boolean autoSharding;
  private final Integer triggeringFrequencySec;
  private final boolean connectionPool;
  private final String extraSetting;

  TuningStep(
      int number,
      WriteMethod writeMethod,
      StorageFormat format,
      Integer numStreamingKeys,
      boolean autoSharding,
      Integer triggeringFrequencySec,
      boolean connectionPool,
      String extraSetting) {
    this.number = number;
    this.writeMethod = writeMethod;
    this.format = format;
    this.numStreamingKeys = numStreamingKeys;
    this.autoSharding = autoSharding;
    this.triggeringFrequencySec = triggeringFrequencySec;
    this.connectionPool = connectionPool;
    this.extraSetting = extraSetting;
  }

  public static TuningStep of(int number) {
    for (TuningStep step : values()) {
      if (step.number == number) {
        return step;
      }
    }
    throw new IllegalArgumentException("--step must be 1..7, got " + number);
  }

  public int number() {
    return number;
  }

  public WriteMethod writeMethod() {
    return writeMethod;
  }

  public StorageFormat format() {
    return format;
  }

  public boolean autoSharding() {
    return autoSharding;
  }

  public Integer triggeringFrequencySec() {
    return triggeringFrequencySec;
  }

  public boolean connectionPool() {
    return connectionPool;
  }

  public Integer numStreamingKeys() {
    return numStreamingKeys;
  }

  /** The SPEC table's "extra setting" column. */
  public String extraSetting() {
    return extraSetting;
  }

  public boolean exactlyOnce() {
    return writeMethod.isExactlyOnce();
  }

  /**
   * The step's ingestion flags. {@code triggeringFrequencyOverrideSec}, when not null, replaces the
   * step's triggering frequency (local runs may shorten it to finish sooner; the report says so).
   */
  public List<String> pipelineArgs(Integer triggeringFrequencyOverrideSec) {
    return pipelineArgs(triggeringFrequencyOverrideSec, format);
  }

  /** The step's flags with another format (the step's knobs do not depend on the format). */
  public List<String> pipelineArgs(
      Integer triggeringFrequencyOverrideSec, StorageFormat formatToStore) {
    List<String> args = new ArrayList<>();
    args.add("--bigQueryWriteMethod=" + writeMethod.name());
    args.add("--formatToStore=" + formatToStore.name());
    if (formatToStore == StorageFormat.PROTO_MESSAGE) {
      args.add("--protoClassName=" + LocalRunConfig.PROTO_CLASS);
    }
    if (numStreamingKeys != null) {
      args.add("--numStreamingKeys=" + numStreamingKeys);
    }
    if (autoSharding) {
      args.add("--enableBigQueryAutoshard=true");
    }
    Integer frequency = effectiveTriggeringFrequencySec(triggeringFrequencyOverrideSec);
    if (frequency != null) {
      args.add("--storageWriteApiTriggeringFrequencySec=" + frequency);
    }
    if (connectionPool) {
      args.add("--useStorageApiConnectionPool=true");
    }
    return args;
  }

  public Integer effectiveTriggeringFrequencySec(Integer overrideSec) {
    if (triggeringFrequencySec == null) {
      return null;
    }
    return overrideSec != null ? overrideSec : triggeringFrequencySec;
  }

  public String describe() {
    return "step "
        + number
        + ": "
        + writeMethod.name()
        + " + "
        + format.name()
        + ", "
        + extraSetting;
  }
}
