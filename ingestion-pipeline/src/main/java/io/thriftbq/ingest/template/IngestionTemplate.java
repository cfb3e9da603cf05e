package io.thriftbq.ingest.template;

import static io.thriftbq.ingest.options.TemplateGroups.DECODING;
import static io.thriftbq.ingest.options.TemplateGroups.SOURCE;
import static io.thriftbq.ingest.options.TemplateGroups.TUNING;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.TemplateGroups;
import io.thriftbq.kafka.KafkaConnectionOptions;
import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateSpec;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;

/**
 * The ingestion pipeline's flex template. Each parameter's console details are on its option's
 * getter ({@link TemplateParameter} next to the {@code @Description}); this class names the
 * template, places the shared option groups, and describes Beam's tuning options, whose getters are
 * not ours. {@code src/main/flex-template/metadata.json} is generated from it ({@code
 * scripts/generate-docs.sh}).
 */
public final class IngestionTemplate {
  public static final TemplateSpec SPEC =
      TemplateSpec.of(
              "Thrift events from Pub/Sub or Kafka to BigQuery",
              "Reads Apache Thrift events from a Pub/Sub subscription or topic or from Kafka topics,"
                  + " decodes them with the"
                  + " given Thrift class, converts them to TableRow, Beam Row, Avro GenericRecord or"
                  + " a protocol buffer message, and writes them to BigQuery with streaming inserts"
                  + " or the Storage Write API (exactly-once or at-least-once). Events that cannot be"
                  + " decoded, transformed, converted or written go to a dead-letter table.",
              IngestionOptions.class,
              TemplateGroups.IN_CONSOLE_ORDER)
          .placing(KafkaConnectionOptions.class, SOURCE, 50)
          .placing(ThriftSchemaOptions.class, DECODING, 15)
          .withInheritedParameters(BeamTuningParameters.class);

  /**
   * Beam's own options that the tuning steps set, which are template parameters too. Their getters
   * are Beam's ({@link BigQueryOptions}), so this interface redeclares them to carry their console
   * details; no pipeline uses it as options.
   */
  public interface BeamTuningParameters extends BigQueryOptions {
    @Override
    @TemplateParameter(
        label = "Streaming insert keys",
        group = TUNING,
        order = 20,
        pattern = ParameterPatterns.POSITIVE_INTEGER)
    Integer getNumStreamingKeys();

    @Override
    @TemplateParameter(
        label = "Storage Write API triggering frequency (s)",
        group = TUNING,
        order = 30,
        pattern = ParameterPatterns.POSITIVE_INTEGER)
    Integer getStorageWriteApiTriggeringFrequencySec();

    @Override
    @TemplateParameter(
        label = "Storage Write API streams",
        group = TUNING,
        order = 40,
        pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
    Integer getNumStorageWriteApiStreams();

    @Override
    @TemplateParameter(label = "Storage Write API connection pool", group = TUNING, order = 50)
    Boolean getUseStorageApiConnectionPool();
  }

  private IngestionTemplate() {}
}
