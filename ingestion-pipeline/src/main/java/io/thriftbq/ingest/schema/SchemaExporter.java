package io.thriftbq.ingest.schema;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableFieldSchema;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.Validation;

/**
 * Writes the BigQuery table schemas the ingestion pipeline derives from a Thrift class, as the JSON
 * schema files {@code bq mk --schema} and Terraform's {@code google_bigquery_table.schema} read, so
 * tables created outside the pipeline match what it writes.
 *
 * <pre>
 * java -cp ingestion-pipeline/target/ingestion-pipeline-bundled.jar \
 *   io.thriftbq.ingest.schema.SchemaExporter --thriftClassName=io.thriftbq.sample.Event \
 *   --includePublishTime=true --output=event_table.json --deadLetterOutput=dead_letter_table.json
 * </pre>
 */
public final class SchemaExporter {

  /** Options of the exporter; the metadata switches mean what they mean to the pipeline. */
  public interface Options extends PipelineOptions {
    @Description("Fully qualified name of the Thrift-generated event class.")
    @Default.String("io.thriftbq.sample.Event")
    String getThriftClassName();

    void setThriftClassName(String value);

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

    @Description("File to write the event table's JSON schema to.")
    @Validation.Required
    String getOutput();

    void setOutput(String value);

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
            options.getIncludeAttributes());
    EventSchemas schemas = EventSchemas.of(options.getThriftClassName(), metadata);
    write(schemas.tableSchema().getFields(), Path.of(options.getOutput()));
    if (options.getDeadLetterOutput() != null && !options.getDeadLetterOutput().isBlank()) {
      write(DeadLetterSchema.tableSchema().getFields(), Path.of(options.getDeadLetterOutput()));
    }
  }

  /** The JSON array of fields that BigQuery tools call a schema file. */
  public static String toJson(List<TableFieldSchema> fields) throws IOException {
    return GsonFactory.getDefaultInstance().toPrettyString(fields) + "\n";
  }

  private static void write(List<TableFieldSchema> fields, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writer.write(toJson(fields));
    }
  }
}
