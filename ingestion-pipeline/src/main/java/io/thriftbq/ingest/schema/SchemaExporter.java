package io.thriftbq.ingest.schema;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.options.MetadataOptions;
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

/**
 * Writes the BigQuery table schemas the ingestion pipeline derives from a Thrift class, as the JSON
 * schema files {@code bq mk --schema} and Terraform's {@code google_bigquery_table.schema} read, so
 * tables created outside the pipeline match what it writes; and the .proto of the table's message
 * for the PROTO_MESSAGE format.
 *
 * <pre>
 * java -cp ingestion-pipeline/target/ingestion-pipeline-bundled.jar \
 *   io.thriftbq.ingest.schema.SchemaExporter --thriftClassName=io.thriftbq.sample.Event \
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
 *   io.thriftbq.ingest.schema.SchemaExporter --thriftIdl=shop_events.thrift \
 *   --thriftStructs=Order,Refund,Click --output=schemas/{struct}.json \
 *   --deadLetterOutput=schemas/dead_letter_table.json \
 *   --terraformVarsOutput=schemas/event_tables.tfvars.json
 * </pre>
 */
public final class SchemaExporter {

  /** Options of the exporter; the metadata switches mean what they mean to the pipeline. */
  public interface Options extends ThriftSchemaOptions, MetadataOptions {
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
        "File to write the Terraform variable event_tables to (JSON, for terraform -var-file):"
            + " one entry per struct, keyed by its table name, with the schema file --output"
            + " wrote. Needs --output with {struct}. Omit to skip it.")
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

  public static void main(String[] args) throws IOException {
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
    if (isSet(options.getTerraformVarsOutput()) && !perStruct) {
      throw new IllegalArgumentException(
          "--terraformVarsOutput lists one schema file per struct: give --output with "
              + STRUCT_PLACEHOLDER
              + " in it, for example --output=schemas/"
              + STRUCT_PLACEHOLDER
              + ".json");
    }
    Map<String, Path> written = new LinkedHashMap<>();
    EventSchemas first = null;
    for (EventType type : types.types()) {
      EventSchemas schemas = EventSchemas.of(type.source(), metadata);
      if (first == null) {
        first = schemas;
      }
      if (isSet(output)) {
        Path file = Path.of(schemaFile(output, type));
        writeText(toJson(schemas.tableSchema().getFields()), file);
        written.put(type.tableName(), file);
        System.out.println(type.qualifiedName() + " -> " + file);
      }
    }
    if (isSet(options.getTerraformVarsOutput())) {
      writeText(
          terraformVars(written, options.getTerraformDir()),
          Path.of(options.getTerraformVarsOutput()));
    }
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
   * The Terraform variables file (JSON) that creates one table per struct: {@code {"event_tables":
   * {"order": {"schema_file": "schemas/order.json"}, ...}}}, keyed by table name, the paths
   * relative to {@code terraformDir} when given (and the file is under it), else absolute.
   */
  public static String terraformVars(Map<String, Path> schemaFiles, String terraformDir)
      throws IOException {
    Path base = isSet(terraformDir) ? Path.of(terraformDir).toAbsolutePath().normalize() : null;
    Map<String, Object> tables = new LinkedHashMap<>();
    for (Map.Entry<String, Path> entry : schemaFiles.entrySet()) {
      Path file = entry.getValue().toAbsolutePath().normalize();
      String path =
          base != null && file.startsWith(base)
              ? base.relativize(file).toString()
              : file.toString();
      tables.put(entry.getKey(), Map.of("schema_file", path));
    }
    return GsonFactory.getDefaultInstance().toPrettyString(Map.of("event_tables", tables)) + "\n";
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
            "Generated by io.thriftbq.ingest.schema.SchemaExporter: do not edit. Regenerate it",
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
