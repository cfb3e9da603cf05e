package io.thriftbq.ingest.options;

import com.google.api.services.bigquery.model.TableReference;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.udf.EventTransforms;
import io.thriftbq.ingest.write.TableLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every option and every combination of options before the pipeline is built, so a mistake
 * fails the launch with a message that names the option to change, instead of failing on a worker
 * or, worse, silently doing something else than asked. All problems are reported at once.
 *
 * <p>Options that BigQueryIO would silently ignore because they belong to another write method (for
 * example {@code --numStreamingKeys} with a Storage API method) are errors too: the seven tuning
 * steps differ by exactly such flags, and a flag that does nothing makes a measurement lie. The one
 * exception is {@code --numStreamingKeys} with auto-sharded streaming inserts: same method, Beam
 * documents that auto-sharding wins, so it is logged as a warning.
 */
public final class IngestionOptionsValidator {
  private static final Logger LOG = LoggerFactory.getLogger(IngestionOptionsValidator.class);

  /** BigQueryOptions' default for {@code --numStreamingKeys}. */
  static final int DEFAULT_NUM_STREAMING_KEYS = 50;

  // Pub/Sub ids: 3-255 characters, starting with a letter.
  private static final String PUBSUB_ID = "[A-Za-z][-A-Za-z0-9._~+%]{2,254}";
  private static final Pattern SUBSCRIPTION =
      Pattern.compile("projects/[^/]+/subscriptions/" + PUBSUB_ID);
  private static final Pattern TOPIC = Pattern.compile("projects/[^/]+/topics/" + PUBSUB_ID);
  private static final Pattern HOST_PORT = Pattern.compile("[^\\s:/]+:\\d{1,5}");

  /**
   * The formats whose write path can carry the Thrift payload to BigQueryIO's fail-safe row, with
   * every write method ({@code WriteEventsToBigQuery#withKeepPayloadForWriteFailures}). This is the
   * one place a format is admitted: a new format is rejected with the option until its write path
   * wraps its elements in a {@code RowWithPayload} and sets the fail-safe function, and is added
   * here.
   */
  static final Set<StorageFormat> FORMATS_KEEPING_PAYLOAD =
      Collections.unmodifiableSet(
          EnumSet.of(
              StorageFormat.TABLE_ROW, StorageFormat.BEAM_ROW, StorageFormat.AVRO_GENERIC_RECORD));

  private IngestionOptionsValidator() {}

  /** Validates options for the real pipeline, which reads Pub/Sub (unbounded input). */
  public static void validate(IngestionOptions options) {
    validate(options, true, false);
  }

  /**
   * Validates options.
   *
   * @param pubsubSource whether the input is read from Pub/Sub (tests feed messages directly)
   * @param boundedInput whether the input is bounded (only in tests)
   * @throws IllegalArgumentException listing every problem and what to change
   */
  public static void validate(
      IngestionOptions options, boolean pubsubSource, boolean boundedInput) {
    List<String> problems = new ArrayList<>();
    if (pubsubSource) {
      checkSource(options, problems);
    }
    WriteMethod method = options.getBigQueryWriteMethod();
    StorageFormat format = options.getFormatToStore();
    if (method == null) {
      problems.add(
          "--bigQueryWriteMethod is empty: set one of STREAMING_INSERTS, "
              + "STORAGE_WRITE_API, STORAGE_API_AT_LEAST_ONCE");
    }
    if (format == null) {
      problems.add(
          "--formatToStore is empty: set one of TABLE_ROW, BEAM_ROW, AVRO_GENERIC_RECORD,"
              + " PROTO_MESSAGE");
    }
    if (options.getThriftProtocol() == null) {
      problems.add("--thriftProtocol is empty: set BINARY or COMPACT");
    }
    checkLimits(options, problems);
    EventSchemas schemas = checkEventClass(options, problems);
    checkProtoClass(options, format, schemas, problems);
    checkUdf(options, problems);
    checkTables(options, problems);
    if (method != null) {
      checkWriteTuning(options, method, boundedInput, problems);
    }
    checkTableLayout(options, schemas, problems);
    checkKeepPayload(
        Boolean.TRUE.equals(options.getKeepPayloadForWriteFailures()),
        format,
        FORMATS_KEEPING_PAYLOAD,
        problems);
    checkEmulator(options, problems);

    if (!problems.isEmpty()) {
      StringBuilder message = new StringBuilder("Invalid ingestion options:");
      for (String problem : problems) {
        message.append("\n  - ").append(problem);
      }
      throw new IllegalArgumentException(message.toString());
    }
  }

  private static void checkSource(IngestionOptions options, List<String> problems) {
    boolean subscription = isSet(options.getSubscription());
    boolean topic = isSet(options.getInputTopic());
    if (subscription == topic) {
      problems.add(
          subscription
              ? "Both --subscription and --inputTopic are set: keep only one (prefer"
                  + " --subscription in production)"
              : "Neither --subscription nor --inputTopic is set: set --subscription="
                  + "projects/PROJECT/subscriptions/NAME (or --inputTopic)");
      return;
    }
    if (subscription && !SUBSCRIPTION.matcher(options.getSubscription().trim()).matches()) {
      problems.add(
          "--subscription="
              + options.getSubscription()
              + " is not of the form projects/PROJECT/subscriptions/NAME (NAME: 3-255"
              + " characters, starting with a letter)");
    }
    if (topic && !TOPIC.matcher(options.getInputTopic().trim()).matches()) {
      problems.add(
          "--inputTopic="
              + options.getInputTopic()
              + " is not of the form projects/PROJECT/topics/NAME (NAME: 3-255 characters,"
              + " starting with a letter)");
    }
  }

  private static void checkLimits(IngestionOptions options, List<String> problems) {
    checkPositive(options.getMaxThriftStringBytes(), "--maxThriftStringBytes", problems);
    checkPositive(
        options.getMaxThriftContainerElements(), "--maxThriftContainerElements", problems);
  }

  private static @Nullable EventSchemas checkEventClass(
      IngestionOptions options, List<String> problems) {
    try {
      // Deriving the schemas loads the class and walks every field, so an unsupported IDL (for
      // example a recursive struct) fails here as well as a missing class.
      return EventSchemas.of(options.getThriftClassName(), MetadataColumns.from(options));
    } catch (IllegalArgumentException e) {
      problems.add("--thriftClassName: " + e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      problems.add(
          "--thriftClassName="
              + options.getThriftClassName()
              + " cannot be used: "
              + e
              + "; check that it is a class generated by the Thrift compiler that matches the"
              + " libthrift on the classpath");
    }
    return null;
  }

  private static void checkProtoClass(
      IngestionOptions options,
      @Nullable StorageFormat format,
      @Nullable EventSchemas schemas,
      List<String> problems) {
    boolean protoClassSet = isSet(options.getProtoClassName());
    if (format != StorageFormat.PROTO_MESSAGE) {
      if (protoClassSet) {
        problems.add(
            "--protoClassName applies only to --formatToStore=PROTO_MESSAGE: remove it, or set"
                + " that format");
      }
      return;
    }
    if (schemas == null) {
      return; // the event class problem is reported already
    }
    try {
      schemas.protoClass(options.getProtoClassName());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      problems.add("--protoClassName=" + options.getProtoClassName() + " cannot be used: " + e);
    }
  }

  private static void checkUdf(IngestionOptions options, List<String> problems) {
    if (isSet(options.getUdfClassName())) {
      try {
        EventTransforms.load(options.getUdfClassName());
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      } catch (RuntimeException | LinkageError e) {
        problems.add("--udfClassName=" + options.getUdfClassName() + " cannot be loaded: " + e);
      }
    }
  }

  private static void checkTables(IngestionOptions options, List<String> problems) {
    TableReference output = parseTable(options.getOutputTable(), "--outputTable", problems);
    if (output == null) {
      return;
    }
    TableReference deadLetter =
        parseTable(DeadLetterTables.forOptions(options), "--deadLetterTable", problems);
    if (deadLetter != null && sameTable(options, output, deadLetter)) {
      problems.add(
          "--deadLetterTable is the output table "
              + options.getOutputTable()
              + ": dead letters have their own schema; name another table or leave"
              + " --deadLetterTable unset for "
              + options.getOutputTable().trim()
              + DeadLetterTables.DEFAULT_SUFFIX);
    }
  }

  private static @Nullable TableReference parseTable(
      @Nullable String spec, String option, List<String> problems) {
    if (!isSet(spec)) {
      problems.add(option + " is empty: set it to PROJECT:DATASET.TABLE or DATASET.TABLE");
      return null;
    }
    try {
      return BigQueryHelpers.parseTableSpec(spec.trim());
    } catch (IllegalArgumentException e) {
      problems.add(
          option
              + "="
              + spec
              + " is not a table: use PROJECT:DATASET.TABLE, PROJECT.DATASET.TABLE or"
              + " DATASET.TABLE");
      return null;
    }
  }

  private static boolean sameTable(
      IngestionOptions options, TableReference first, TableReference second) {
    String defaultProject =
        isSet(options.getBigQueryProject()) ? options.getBigQueryProject() : options.getProject();
    String firstProject = isSet(first.getProjectId()) ? first.getProjectId() : defaultProject;
    String secondProject = isSet(second.getProjectId()) ? second.getProjectId() : defaultProject;
    return Objects.equals(firstProject, secondProject)
        && first.getDatasetId().equals(second.getDatasetId())
        && first.getTableId().equals(second.getTableId());
  }

  private static void checkWriteTuning(
      IngestionOptions options, WriteMethod method, boolean boundedInput, List<String> problems) {
    Integer frequency = options.getStorageWriteApiTriggeringFrequencySec();
    if (frequency != null) {
      if (method != WriteMethod.STORAGE_WRITE_API) {
        problems.add(
            "--storageWriteApiTriggeringFrequencySec applies only to STORAGE_WRITE_API"
                + " (exactly-once); "
                + method
                + " writes as rows arrive: remove the option");
      } else if (frequency <= 0) {
        problems.add(
            "--storageWriteApiTriggeringFrequencySec="
                + frequency
                + " must be a positive number of seconds (1 for low latency, 10 for fewer"
                + " commits)");
      }
    } else if (method == WriteMethod.STORAGE_WRITE_API && !boundedInput) {
      problems.add(
          "STORAGE_WRITE_API on a stream needs --storageWriteApiTriggeringFrequencySec: set it"
              + " (for example 1 for low latency, 10 for fewer commits), or use"
              + " STORAGE_API_AT_LEAST_ONCE");
    }

    boolean autoSharding = Boolean.TRUE.equals(options.getEnableBigQueryAutoshard());
    if (autoSharding && boundedInput) {
      problems.add(
          "--enableBigQueryAutoshard applies only to unbounded (streaming) input: remove it");
    }
    if (autoSharding && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--enableBigQueryAutoshard does nothing with STORAGE_API_AT_LEAST_ONCE, which writes"
              + " without a shuffle: remove it, or use STORAGE_WRITE_API or STREAMING_INSERTS");
    }

    Integer streamingKeys = options.getNumStreamingKeys();
    if (streamingKeys != null && streamingKeys <= 0) {
      problems.add("--numStreamingKeys=" + streamingKeys + " must be positive");
    } else if (streamingKeys != null && streamingKeys != DEFAULT_NUM_STREAMING_KEYS) {
      if (method != WriteMethod.STREAMING_INSERTS) {
        problems.add(
            "--numStreamingKeys applies only to STREAMING_INSERTS; "
                + method
                + " ignores it: remove it (use --numStorageWriteApiStreams for STORAGE_WRITE_API)");
      } else if (autoSharding) {
        // A warning, not an error: the knob belongs to this method, Beam documents that
        // auto-sharding wins, and tuning step 3 keeps step 2's keys on purpose to show exactly
        // that.
        LOG.warn(
            "--numStreamingKeys={} is ignored because --enableBigQueryAutoshard=true lets the"
                + " runner pick the shards",
            streamingKeys);
      }
    }

    Integer streams = options.getNumStorageWriteApiStreams();
    if (streams != null && streams < 0) {
      problems.add("--numStorageWriteApiStreams=" + streams + " must be 0 (automatic) or more");
    } else if (streams != null && streams > 0) {
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

    if (Boolean.TRUE.equals(options.getUseStorageApiConnectionPool())
        && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--useStorageApiConnectionPool=true works only with STORAGE_API_AT_LEAST_ONCE (it"
              + " multiplexes the default stream): remove it or switch the write method");
    }
  }

  private static void checkTableLayout(
      IngestionOptions options, @Nullable EventSchemas schemas, List<String> problems) {
    boolean anyLayout =
        isSet(options.getPartitionType())
            || isSet(options.getPartitionField())
            || isSet(options.getClusteringFields());
    if (!anyLayout) {
      return;
    }
    if (!Boolean.TRUE.equals(options.getCreateTable())) {
      problems.add(
          "--partitionType, --partitionField and --clusteringFields shape a table the pipeline"
              + " creates, but --createTable=false: set them on the existing table instead, or set"
              + " --createTable=true");
      return;
    }
    if (schemas == null) {
      return; // The event class problem is reported already; columns cannot be checked.
    }
    try {
      TableLayout.parse(
          options.getPartitionType(),
          options.getPartitionField(),
          options.getClusteringFields(),
          schemas.tableSchema());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
  }

  static void checkKeepPayload(
      boolean keepPayload,
      @Nullable StorageFormat format,
      Set<StorageFormat> supported,
      List<String> problems) {
    if (keepPayload && format != null && !supported.contains(format)) {
      List<String> names = new ArrayList<>();
      for (StorageFormat each : supported) {
        names.add(each.name());
      }
      problems.add(
          "--keepPayloadForWriteFailures=true is not supported with --formatToStore="
              + format
              + ": its write path cannot carry the Thrift bytes to BigQueryIO's fail-safe row."
              + " Use --formatToStore="
              + String.join(" or ", names)
              + ", or drop --keepPayloadForWriteFailures (rejected rows are then dead-lettered as"
              + " JSON)");
    }
  }

  private static void checkEmulator(IngestionOptions options, List<String> problems) {
    String host = options.getStorageWriteApiEmulatorHost();
    if (isSet(host)) {
      if (!HOST_PORT.matcher(host.trim()).matches()) {
        problems.add(
            "--storageWriteApiEmulatorHost=" + host + " must be host:port, e.g. 127.0.0.1:9060");
      } else {
        LOG.warn(
            "Writing through the Storage Write API emulator at {} without credentials: local"
                + " mode only",
            host);
      }
    }
  }

  private static void checkPositive(@Nullable Integer value, String option, List<String> problems) {
    if (value == null || value <= 0) {
      problems.add(option + "=" + value + " must be a positive number");
    }
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
