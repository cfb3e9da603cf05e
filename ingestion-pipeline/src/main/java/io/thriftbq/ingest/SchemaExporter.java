package io.thriftbq.ingest;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.change.ChangeSpec;
import io.thriftbq.ingest.change.ChangeFlags;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.options.ChangeCaptureOptions;
import io.thriftbq.ingest.options.MetadataOptions;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.schema.ProtoSchemas;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.EventTypes.EventType;
import io.thriftbq.schema.ThriftSchemaOptions;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes the BigQuery table schemas the ingestion pipeline derives from a Thrift class, as the JSON
 * schema files {@code bq mk --schema} and Terraform's {@code google_bigquery_table.schema} read, so
 * tables created outside the pipeline match what it writes; and the .proto of the table's message
 * for the PROTO_MESSAGE format.
 *
 * <pre>
 * java -cp ingestion-pipeline/target/ingestion-pipeline-bundled.jar \
 *   io.thriftbq.ingest.SchemaExporter --thriftClassName=io.thriftbq.sample.Event \
 *   --includePublishTime=true --output=event_table.json --deadLetterOutput=dead_letter_table.json
 * </pre>
 *
 * <p>For a job with several event types ({@code --thriftStructs=Order,Refund,Click} or {@code
 * --thriftUnion=AnyEvent}, chosen as the pipeline chooses them), {@code --output} holds {@code
 * {struct}}, replaced by each struct's table name ({@link EventType#tableName()}), and one schema
 * file is written per struct; {@code --terraformVarsOutput} also writes the Terraform variable
 * {@code event_tables} that creates one table per struct from those files:
 *
 * <pre>
 * java -cp ingestion-pipeline/target/ingestion-pipeline-bundled.jar \
 *   io.thriftbq.ingest.SchemaExporter --thriftIdl=shop_events.thrift \
 *   --thriftStructs=Order,Refund,Click --output=schemas/{struct}.json \
 *   --deadLetterOutput=schemas/dead_letter_table.json \
 *   --terraformVarsOutput=schemas/event_tables.tfvars.json
 * </pre>
 *
 * <p>Change mode: given the job's {@code --primaryKey} (and {@code --maxStaleness}, and the other
 * change flags if the job sets them), the exporter checks them as the pipeline's launch does
 * ({@link ChangeFlags}, {@link ChangeRule#of}) and writes each table's key and staleness where
 * Terraform reads them, so that the tables it creates are the ones the launch accepts: the {@code
 * event_tables} entries gain {@code primary_key} and {@code max_staleness}; for one struct, {@code
 * --terraformVarsOutput} (without {@code {struct}} in {@code --output}) writes the root variables
 * {@code event_table_schema_file}, {@code event_table_primary_key} and {@code
 * event_table_max_staleness}.
 */
public final class SchemaExporter {

  /** Options of the exporter; the metadata switches mean what they mean to the pipeline. */
  public interface Options extends ThriftSchemaOptions, MetadataOptions, ChangeCaptureOptions {
    @Description(
        "Fully qualified name of the Thrift-generated event class; give either this or"
            + " --thriftIdl (default: io.thriftbq.sample.Event when neither is given).")
    String getThriftClassName();

    void setThriftClassName(String value);

    @Description("Include the _unknown_fields column, as --keepUnknownFields does.")
    @Default.Boolean(false)
    Boolean getKeepUnknownFields();

    void setKeepUnknownFields(Boolean value);

    @Description(
        "File to write the event table's JSON schema to; omit to skip it. {struct} in it is"
            + " replaced by the struct's table name (Order -> order), as in --outputTable; with"
            + " several structs (--thriftStructs, --thriftUnion) it must hold {struct}, and one file"
            + " is written per struct.")
    String getOutput();

    void setOutput(String value);

    @Description(
        "File to write the .proto of the table's message to, for --formatToStore=PROTO_MESSAGE;"
            + " compile it with protoc --java_out. Omit to skip it.")
    String getProtoOutput();

    void setProtoOutput(String value);

    @Description("Name of the message (and generated class) in --protoOutput, like EventRow.")
    @Default.String("EventRow")
    String getProtoMessageName();

    void setProtoMessageName(String value);

    @Description(
        "Java package of the generated class (also the proto package); empty means the Thrift"
            + " class's package plus .proto")
    String getProtoJavaPackage();

    void setProtoJavaPackage(String value);

    @Description("File to write the dead-letter table's JSON schema to; omit to skip it.")
    String getDeadLetterOutput();

    void setDeadLetterOutput(String value);

    @Description(
        "File to write Terraform variables to (JSON, for terraform -var-file). With {struct} in"
            + " --output: event_tables, one entry per struct, keyed by its table name, with the"
            + " schema file --output wrote and, with --primaryKey, the struct's primary_key and"
            + " max_staleness. With one struct and --output naming one file: the single event"
            + " table's event_table_schema_file and, with --primaryKey, event_table_primary_key and"
            + " event_table_max_staleness. Omit to skip it.")
    String getTerraformVarsOutput();

    void setTerraformVarsOutput(String value);

    @Description(
        "Directory the schema_file paths in --terraformVarsOutput are written relative to (the"
            + " Terraform root, where terraform runs); empty writes absolute paths.")
    String getTerraformDir();

    void setTerraformDir(String value);
  }

  /** What {@code --output} and {@code --outputTable} replace with a struct's table name. */
  public static final String STRUCT_PLACEHOLDER = "{struct}";

  private SchemaExporter() {}

  /**
   * Runs {@link #export} from the command line. A problem with the flags or the IDL is the user's
   * to fix, so it prints as one message saying what to change, not a stack trace, and exits 2.
   */
  public static void main(String[] args) throws IOException {
    try {
      export(args);
    } catch (IllegalArgumentException e) {
      System.err.println("ERROR: " + e.getMessage());
      System.exit(2);
    }
  }

  /**
   * Writes the files the flags ask for.
   *
   * @throws IllegalArgumentException for invalid flags or an IDL BigQuery cannot hold, saying what
   *     to change
   */
  public static void export(String[] args) throws IOException {
    PipelineOptionsFactory.register(Options.class);
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    MetadataColumns metadata =
        MetadataColumns.of(options).withUnknownFields(options.getKeepUnknownFields());
    if (!isSet(options.getOutput())
        && !isSet(options.getProtoOutput())
        && !isSet(options.getDeadLetterOutput())) {
      throw new IllegalArgumentException(
          "Nothing to export: set --output, --protoOutput or --deadLetterOutput");
    }
    EventTypes types =
        EventTypes.choose(options, "--thriftClassName", options.getThriftClassName(), false);
    String output = options.getOutput();
    boolean perStruct = isSet(output) && output.contains(STRUCT_PLACEHOLDER);
    if (!types.isSingle()) {
      if (isSet(output) && !perStruct) {
        throw new IllegalArgumentException(
            "--output="
                + output
                + " names one file, but the options name "
                + types.types().size()
                + " structs ("
                + types.allowedNames()
                + "): put "
                + STRUCT_PLACEHOLDER
                + " in it, for example --output=schemas/"
                + STRUCT_PLACEHOLDER
                + ".json");
      }
      if (isSet(options.getProtoOutput())) {
        throw new IllegalArgumentException(
            "--protoOutput writes the message of one struct, but the options name "
                + types.types().size()
                + " structs ("
                + types.allowedNames()
                + "): export each struct's .proto with --thriftStruct=NAME instead");
      }
    }
    if (isSet(options.getTerraformVarsOutput()) && !isSet(output)) {
      throw new IllegalArgumentException(
          "--terraformVarsOutput names the schema files --output writes: give --output, with "
              + STRUCT_PLACEHOLDER
              + " in it for one table per struct, for example --output=schemas/"
              + STRUCT_PLACEHOLDER
              + ".json");
    }
    List<EventSchemas> all = new ArrayList<>();
    for (EventType type : types.types()) {
      all.add(EventSchemas.of(type.source(), metadata));
    }
    // Checked before any file is written, as the launch checks them.
    Map<String, TableKey> keys = tableKeys(options, types, all);
    Map<String, Path> written = new LinkedHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      EventType type = types.types().get(i);
      if (isSet(output)) {
        Path file = Path.of(schemaFile(output, type));
        writeText(toJson(all.get(i).tableSchema().getFields()), file);
        written.put(type.tableName(), file);
        System.out.println(type.qualifiedName() + " -> " + file);
      }
      TableKey key = keys.get(type.tableName());
      if (key != null) {
        System.out.println(
            type.qualifiedName()
                + ": primary key "
                + key.columns()
                + (key.maxStaleness() == null ? "" : ", max_staleness " + key.maxStaleness()));
      }
    }
    if (isSet(options.getTerraformVarsOutput())) {
      String vars =
          perStruct
              ? terraformVars(written, keys, options.getTerraformDir())
              : singleTableVars(
                  written.values().iterator().next(),
                  keys.get(types.types().get(0).tableName()),
                  options.getTerraformDir());
      writeText(vars, Path.of(options.getTerraformVarsOutput()));
    }
    EventSchemas first = all.get(0);
    if (isSet(options.getDeadLetterOutput())) {
      writeText(
          toJson(DeadLetterSchema.tableSchema().getFields()),
          Path.of(options.getDeadLetterOutput()));
    }
    if (isSet(options.getProtoOutput())) {
      String javaPackage =
          isSet(options.getProtoJavaPackage())
              ? options.getProtoJavaPackage()
              : defaultJavaPackage(first);
      writeText(
          protoSource(first, javaPackage, options.getProtoMessageName()),
          Path.of(options.getProtoOutput()));
    }
  }

  /** {@code output} with {@code {struct}} replaced by the type's table name. */
  public static String schemaFile(String output, EventType type) {
    return output.replace(STRUCT_PLACEHOLDER, type.tableName());
  }

  /**
   * A change-mode table's primary key and {@code max_staleness}.
   *
   * @param maxStaleness BigQuery's INTERVAL literal (for example {@code 0-0 0 0:15:0}), or null
   */
  public record TableKey(List<String> columns, @Nullable String maxStaleness) {}

  /**
   * The key of each struct's table, by table name, checked as the launch checks the change flags;
   * empty when change mode is off.
   *
   * @throws IllegalArgumentException listing every problem, each naming the flag to change
   */
  static Map<String, TableKey> tableKeys(
      ChangeCaptureOptions options, EventTypes types, List<EventSchemas> schemas) {
    List<String> problems = new ArrayList<>();
    for (String flag : ChangeFlags.setWithoutKey(options)) {
      problems.add(flag + " applies in change mode only: set --primaryKey as well, or remove it");
    }
    Map<String, TableKey> keys = new LinkedHashMap<>();
    if (ChangeFlags.isOn(options)) {
      ChangeSpec spec = ChangeFlags.spec(options, problems);
      String maxStaleness = ChangeFlags.maxStaleness(options, problems);
      if (spec != null) {
        List<TableSchema> tables = new ArrayList<>();
        for (EventSchemas one : schemas) {
          tables.add(one.tableSchema());
        }
        List<ChangeRule> rules = ChangeFlags.rules(spec, types, tables, problems);
        for (int i = 0; rules != null && i < rules.size(); i++) {
          keys.put(
              types.types().get(i).tableName(),
              new TableKey(rules.get(i).keyColumns(), maxStaleness));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid change-mode options (the pipeline's launch would refuse them too):\n  "
              + String.join("\n  ", problems));
    }
    return keys;
  }

  /**
   * The Terraform variables file (JSON) that creates one table per struct: {@code {"event_tables":
   * {"order": {"schema_file": "schemas/order.json"}, ...}}}, keyed by table name, the paths
   * relative to {@code terraformDir} when given (and the file is under it), else absolute; a table
   * in {@code keys} (change mode) also gets {@code primary_key} and, when set, {@code
   * max_staleness}.
   */
  public static String terraformVars(
      Map<String, Path> schemaFiles, Map<String, TableKey> keys, String terraformDir)
      throws IOException {
    Map<String, Object> tables = new LinkedHashMap<>();
    for (Map.Entry<String, Path> entry : schemaFiles.entrySet()) {
      Map<String, Object> table = new LinkedHashMap<>();
      table.put("schema_file", terraformPath(entry.getValue(), terraformDir));
      TableKey key = keys.get(entry.getKey());
      if (key != null) {
        table.put("primary_key", key.columns());
        if (key.maxStaleness() != null) {
          table.put("max_staleness", key.maxStaleness());
        }
      }
      tables.put(entry.getKey(), table);
    }
    return GsonFactory.getDefaultInstance().toPrettyString(Map.of("event_tables", tables)) + "\n";
  }

  /**
   * The Terraform variables file (JSON) of the single event table: {@code event_table_schema_file}
   * and, in change mode ({@code key} not null), {@code event_table_primary_key} and, when set,
   * {@code event_table_max_staleness}.
   */
  public static String singleTableVars(Path schemaFile, @Nullable TableKey key, String terraformDir)
      throws IOException {
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("event_table_schema_file", terraformPath(schemaFile, terraformDir));
    if (key != null) {
      vars.put("event_table_primary_key", key.columns());
      if (key.maxStaleness() != null) {
        vars.put("event_table_max_staleness", key.maxStaleness());
      }
    }
    return GsonFactory.getDefaultInstance().toPrettyString(vars) + "\n";
  }

  /** {@code file} relative to {@code terraformDir} when given and the file is under it. */
  private static String terraformPath(Path file, String terraformDir) {
    Path base = isSet(terraformDir) ? Path.of(terraformDir).toAbsolutePath().normalize() : null;
    Path absolute = file.toAbsolutePath().normalize();
    return base != null && absolute.startsWith(base)
        ? base.relativize(absolute).toString()
        : absolute.toString();
  }

  /** The struct's Java package (generated class, or the IDL's namespace) plus {@code .proto}. */
  private static String defaultJavaPackage(EventSchemas schemas) {
    String javaPackage = schemas.struct().javaPackage();
    return javaPackage == null || javaPackage.isEmpty() ? "thriftbq.proto" : javaPackage + ".proto";
  }

  /** The .proto source of the table's message, with a header saying where it comes from. */
  public static String protoSource(EventSchemas schemas, String javaPackage, String messageName) {
    MetadataColumns metadata = schemas.metadataColumns();
    List<String> columns = new ArrayList<>();
    for (MetadataColumn column : metadata.inOrder()) {
      if (column != MetadataColumn.UNKNOWN_FIELDS) {
        columns.add(column.columnName());
      }
    }
    return ProtoSchemas.render(
        ProtoSchemas.fileFor(schemas.tableSchema(), javaPackage, messageName),
        List.of(
            "The BigQuery row of " + schemas.struct().qualifiedName() + " as a message,",
            "metadata columns: " + (columns.isEmpty() ? "none" : String.join(", ", columns)) + ".",
            "Generated by io.thriftbq.ingest.SchemaExporter: do not edit. Regenerate it",
            "(scripts/export-schema.sh --proto-message) when the IDL or the --include* switches",
            "change; the pipeline checks it against the table schema at launch."));
  }

  private static boolean isSet(String value) {
    return value != null && !value.isBlank();
  }

  /** The JSON array of fields that BigQuery tools call a schema file. */
  public static String toJson(List<TableFieldSchema> fields) throws IOException {
    return GsonFactory.getDefaultInstance().toPrettyString(fields) + "\n";
  }

  private static void writeText(String text, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writer.write(text);
    }
  }
}
