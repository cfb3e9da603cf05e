package io.thriftbq.ingest.schema;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftSources;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class SchemaExporter {

  /** Options of the exporter; the metadata switches mean what they mean to the pipeline. */
  public interface Options extends ThriftSchemaOptions {
    @Description(
        "Fully qualified name of the Thrift-generated event class; give either this or"
            + " --thriftIdl (default: io.thriftbq.sample.Event when neither is given).")
    String getThriftClassName();

    void setThriftClassName(String value);

    @Description("Include the _unknown_fields column, as --keepUnknownFields does.")
    @Default.Boolean(false)
    Boolean getKeepUnknownFields();

    void setKeepUnknownFields(Boolean value);

    @Description("Include the _message_id column, as --includePubsubMessageId does.")
    @Default.Boolean(false)
    Boolean getIncludePubsubMessageId();

    void setIncludePubsubMessageId(Boolean value);

    @Description("Include the _publish_time column, as --includePublishTime does.")
    @Default.Boolean(false)
    Boolean getIncludePublishTime();

    void setIncludePublishTime(Boolean value);

    @Description("Include the _attributes column, as --includeAttributes does.")
    @Default.Boolean(false)
    Boolean getIncludeAttributes();

    void setIncludeAttributes(Boolean value);

    @Description("File to write the event table's JSON schema to; omit to skip it.")
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
  }

  private SchemaExporter() {}

  public static void main(String[] args) throws IOException {
    PipelineOptionsFactory.register(Options.class);
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    MetadataColumns metadata =
        new MetadataColumns(
            options.getIncludePubsubMessageId(),
            options.getIncludePublishTime(),
            options.getIncludeAttributes(),
            options.getKeepUnknownFields());
    if (!isSet(options.getOutput())
        && !isSet(options.getProtoOutput())
        && !isSet(options.getDeadLetterOutput())) {
      throw new IllegalArgumentException(
          "Nothing to export: set --output, --protoOutput or --deadLetterOutput");
    }
    ThriftSource source =
        ThriftSources.choose(options, "--thriftClassName", options.getThriftClassName());
    EventSchemas schemas = EventSchemas.of(source, metadata);
    if (isSet(options.getOutput())) {
      writeText(toJson(schemas.tableSchema().getFields()), Path.of(options.getOutput()));
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
              : defaultJavaPackage(schemas);
      writeText(
          protoSource(schemas, javaPackage, options.getProtoMessageName()),
          Path.of(options.getProtoOutput()));
    }
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
    if (metadata.messageId()) {
      columns.add(MetadataColumns.MESSAGE_ID);
    }
    if (metadata.publishTime()) {
      columns.add(MetadataColumns.PUBLISH_TIME);
    }
    if (metadata.attributes()) {
      columns.add(MetadataColumns.ATTRIBUTES);
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
