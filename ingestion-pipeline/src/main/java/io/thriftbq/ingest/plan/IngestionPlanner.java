package io.thriftbq.ingest.plan;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.format.Format;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.udf.EventTransforms;
import io.thriftbq.ingest.write.TableLayout;
import io.thriftbq.ingest.write.TableSetup;
import io.thriftbq.ingest.write.WriteSettings;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Turns the options into an {@link IngestionPlan}, checking every option and every combination on
 * the way, so a mistake fails the launch with a message that names the option to change, instead of
 * failing on a worker or, worse, silently doing something else than asked. All problems are
 * reported at once.
 *
 * <p>Options that BigQueryIO would silently ignore because they belong to another write method (for
 * example {@code --numStreamingKeys} with a Storage API method) are errors too: the tuning steps
 * differ by exactly such flags, and a flag that does nothing makes a measurement lie. Those rules
 * belong to the write and live in {@link WriteSettings#problems}; this class gathers them with the
 * rest.
 */
final class IngestionPlanner {

  private IngestionPlanner() {}

  static IngestionPlan plan(IngestionOptions options, IngestionPlan.Input input) {
    List<String> problems = new ArrayList<>();
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
    ThriftProtocol protocol = null;
    if (options.getThriftProtocol() == null) {
      problems.add("--thriftProtocol is empty: set BINARY or COMPACT");
    } else {
      protocol = ThriftProtocol.valueOf(options.getThriftProtocol().name());
    }
    checkPositive(options.getMaxThriftStringBytes(), "--maxThriftStringBytes", problems);
    checkPositive(
        options.getMaxThriftContainerElements(), "--maxThriftContainerElements", problems);
    if (options.getUnknownEnumValues() == null) {
      problems.add("--unknownEnumValues is empty: set KEEP or DEAD_LETTER");
    }
    if (options.getMaxRowBytes() == null
        || options.getMaxRowBytes() <= 0
        || options.getMaxRowBytes() > IngestionOptions.BIGQUERY_MAX_ROW_BYTES) {
      problems.add(
          "--maxRowBytes="
              + options.getMaxRowBytes()
              + " is outside 1.."
              + IngestionOptions.BIGQUERY_MAX_ROW_BYTES
              + ": BigQuery refuses rows over 10 MB, so a larger limit would let rows through that"
              + " can never be written (default "
              + IngestionOptions.DEFAULT_MAX_ROW_BYTES
              + ")");
    }
    if (options.getSchemaUpdate() == null) {
      problems.add("--schemaUpdate is empty: set ADD_COLUMNS, FAIL or NONE");
    }
    if (options.getInvalidUtf8() == null) {
      problems.add("--invalidUtf8 is empty: set DEAD_LETTER or REPLACE");
    }

    MetadataColumns metadataColumns =
        MetadataColumns.of(options)
            .withUnknownFields(Boolean.TRUE.equals(options.getKeepUnknownFields()));
    PTransform<PBegin, PCollection<EventMessage>> source =
        SourcePlanner.plan(options, input, metadataColumns, problems);
    EventTypes types = chooseTypes(options, problems);
    List<EventSchemas> schemas = new ArrayList<>();
    if (types != null) {
      for (EventTypes.EventType type : types.types()) {
        schemas.add(checkStruct(type, types.isSingle(), metadataColumns, problems));
      }
    }
    checkUdf(options, problems);
    TableNames tables = TableNames.resolve(options, types, problems);
    List<TableLayout> layouts = new ArrayList<>();
    for (int i = 0; i < schemas.size(); i++) {
      layouts.add(
          checkTableLayout(
              options, schemas.get(i), types.isSingle() ? null : types.types().get(i), problems));
    }

    List<WriteSettings> writes = new ArrayList<>();
    if (method != null && tables != null && !schemas.isEmpty() && !schemas.contains(null)) {
      for (int i = 0; i < schemas.size(); i++) {
        writes.add(
            new WriteSettings(
                    tables.eventTables().get(i),
                    method,
                    Boolean.TRUE.equals(options.getEnableBigQueryAutoshard()),
                    options.getStorageWriteApiTriggeringFrequencySec(),
                    options.getNumStorageWriteApiStreams() == null
                        ? 0
                        : options.getNumStorageWriteApiStreams(),
                    options.getNumStreamingKeys(),
                    Boolean.TRUE.equals(options.getUseStorageApiConnectionPool()),
                    Boolean.TRUE.equals(options.getCreateTable()),
                    layouts.get(i))
                .withHandOff(Boolean.TRUE.equals(options.getHandOffBeforeWrite()))
                .withHandOffWriters(
                    options.getHandOffWriters() == null ? 1 : options.getHandOffWriters()));
      }
    }
    List<ChangeRule> changes =
        ChangePlanner.plan(options, types, schemas, format, method, problems);
    if (!writes.isEmpty()) {
      // The knobs are the same for every type, so are their problems (checked in change mode with
      // the change, which some knobs do not go with).
      WriteSettings first = writes.get(0);
      problems.addAll(
          (changes == null ? first : first.withChange(changes.get(0))).problems(input.bounded()));
    }
    String maxStaleness =
        changes == null ? null : ChangePlanner.maxStaleness(options, new ArrayList<>());
    // In change mode a format whose rows cannot carry their change gives BigQueryIO a row mutation
    // function, which reads it from the row and its message's metadata: elements keep them.
    boolean keepPayload =
        Boolean.TRUE.equals(options.getKeepPayloadForWriteFailures())
            || (changes != null
                && format != null
                && method != null
                && !Format.of(format).forMethod(method).carriesChangeInRow());

    if (!problems.isEmpty()) {
      StringBuilder message = new StringBuilder("Invalid ingestion options:");
      for (String problem : problems) {
        message.append("\n  - ").append(problem);
      }
      throw new IllegalArgumentException(message.toString());
    }

    Objects.requireNonNull(types);
    Objects.requireNonNull(tables);
    List<TypePlan> typePlans = new ArrayList<>();
    List<TableSetup.Table> setup = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      EventTypes.EventType type = types.types().get(i);
      typePlans.add(
          new TypePlan(
              type,
              new ConverterConfig(
                  type.source(),
                  Objects.requireNonNull(protocol),
                  options.getMaxThriftStringBytes(),
                  options.getMaxThriftContainerElements(),
                  options.getMaxRowBytes(),
                  metadataColumns,
                  Objects.requireNonNull(options.getUnknownEnumValues()),
                  Objects.requireNonNull(options.getInvalidUtf8())),
              changes == null ? writes.get(i) : writes.get(i).withChange(changes.get(i))));
      setup.add(
          new TableSetup.Table(
              writes.get(i).table(),
              schemas.get(i).tableSchema(),
              layouts.get(i),
              true,
              changes == null
                  ? null
                  : new TableSetup.Key(changes.get(i).keyColumns(), maxStaleness)));
    }
    setup.add(
        new TableSetup.Table(
            tables.deadLetterTable(),
            DeadLetterSchema.tableSchema(),
            new TableLayout(DeadLetterSchema.timePartitioning(), null),
            true));
    Format<?> effectiveFormat = Format.of(format).forMethod(method);
    return new IngestionPlan(
        source,
        types,
        typePlans,
        EventSink.of(effectiveFormat, keepPayload),
        new TableSetup(
            Objects.requireNonNull(options.getSchemaUpdate()),
            Boolean.TRUE.equals(options.getCreateTable()),
            setup),
        tables.deadLetterTable(),
        blankToNull(options.getUdfClassName()),
        blankToNull(options.getEventTimeAttribute()),
        null);
  }

  /**
   * The event types: one struct (the IDL's or a generated class), or several; a user function works
   * on generated objects only.
   */
  private static @Nullable EventTypes chooseTypes(IngestionOptions options, List<String> problems) {
    EventTypes types;
    try {
      types = EventTypes.choose(options, "--thriftClassName", options.getThriftClassName(), false);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return null;
    }
    if (types.types().get(0).source() instanceof ThriftSource.Idl
        && isSet(options.getUdfClassName())) {
      problems.add(
          "--udfClassName works on Thrift-generated objects, which an IDL read at launch does not"
              + " have: generate classes from your IDL and give --thriftClassName instead of"
              + " --thriftIdl (see README, \"Bring your own IDL\")");
    }
    return types;
  }

  private static @Nullable EventSchemas checkStruct(
      EventTypes.EventType type,
      boolean single,
      MetadataColumns metadataColumns,
      List<String> problems) {
    ThriftSource source = type.source();
    String option =
        single
            ? (source instanceof ThriftSource.Idl ? "--thriftIdl: " : "--thriftClassName: ")
            : "--thriftStructs: " + type.name() + " cannot be a table: ";
    try {
      // Deriving the schemas resolves the struct and walks every field, so an unsupported IDL
      // (for example a recursive struct) fails here as well as a missing class.
      return EventSchemas.of(source, metadataColumns);
    } catch (IllegalArgumentException e) {
      problems.add(option + e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      problems.add(
          source.describe()
              + " cannot be used: "
              + e
              + "; check that it is a class generated by the Thrift compiler that matches the"
              + " libthrift on the classpath");
    }
    return null;
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

  /** The layout of a created table; NONE when there is none or it cannot be checked. */
  private static TableLayout checkTableLayout(
      IngestionOptions options,
      @Nullable EventSchemas schemas,
      EventTypes.@Nullable EventType type,
      List<String> problems) {
    boolean anyLayout =
        isSet(options.getPartitionType())
            || isSet(options.getPartitionField())
            || isSet(options.getClusteringFields());
    if (!anyLayout || schemas == null) {
      return TableLayout.NONE; // without schemas the struct problem is reported already
    }
    try {
      return TableLayout.parse(
          options.getPartitionType(),
          options.getPartitionField(),
          options.getClusteringFields(),
          schemas.tableSchema());
    } catch (IllegalArgumentException e) {
      problems.add((type == null ? "" : "The table of " + type.name() + ": ") + e.getMessage());
      return TableLayout.NONE;
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

  private static @Nullable String blankToNull(@Nullable String value) {
    return isSet(value) ? value.trim() : null;
  }
}
