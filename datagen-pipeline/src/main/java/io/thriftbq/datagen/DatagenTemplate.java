package io.thriftbq.datagen;

import static io.thriftbq.template.TemplateParameter.ParamType.BOOLEAN;
import static io.thriftbq.template.TemplateParameter.ParamType.ENUM;
import static io.thriftbq.template.TemplateParameter.ParamType.NUMBER;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_TOPIC;
import static io.thriftbq.template.TemplateParameter.ParamType.TEXT;

import io.thriftbq.template.IdlParameters;
import io.thriftbq.template.KafkaParameters;
import io.thriftbq.template.PubsubNames;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The data generator's flex template: the console details of each option. Help texts, defaults and
 * enum values are the options' own ({@link DatagenOptions}); {@code
 * src/main/flex-template/metadata.json} is generated from both ({@code scripts/generate-docs.sh}).
 */
public final class DatagenTemplate {
  private static final String OUTPUT = "Output";
  private static final String KAFKA = "Kafka output";
  private static final String RATE = "Rate";
  private static final String VALUES = "Values";
  private static final String SKEW = "Skew";
  private static final String CHANGES = "Change stream";
  private static final String SHARE = "^(0(\\.[0-9]+)?|1(\\.0+)?)$";
  private static final String COUNT = "^[0-9]+$";

  public static final TemplateSpec SPEC =
      new TemplateSpec(
          "Thrift event generator to Pub/Sub or Kafka",
          "Generates random but realistic instances of a Thrift struct by walking its metadata,"
              + " serializes them with the binary or compact protocol, and publishes them to a"
              + " Pub/Sub topic or a Kafka topic at a given rate, one event per message or many per"
              + " compressed envelope. Each message carries its event-creation time for latency"
              + " measurement.",
          DatagenOptions.class,
          parameters());

  private DatagenTemplate() {}

  /** Output (with the IDL options after the class), Kafka output, rate, values, skew. */
  private static List<TemplateParameter> parameters() {
    List<TemplateParameter> all = new ArrayList<>();
    all.addAll(
        IdlParameters.insertAfter(
            "className",
            OUTPUT,
            List.of(
                TemplateParameter.of("sink", "Publish to", OUTPUT, ENUM)
                    .withEnumLabels(Map.of("PUBSUB", "Pub/Sub topic", "KAFKA", "Kafka topic")),
                TemplateParameter.of("outputTopic", "Pub/Sub output topic", OUTPUT, PUBSUB_TOPIC)
                    .withRegex(PubsubNames.TOPIC_REGEX),
                TemplateParameter.of("className", "Thrift struct class", OUTPUT, TEXT)
                    .withRegex("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_$]*)+$"),
                TemplateParameter.of("thriftProtocol", "Thrift protocol", OUTPUT, ENUM)
                    .withEnumLabels(
                        Map.of("BINARY", "Binary protocol", "COMPACT", "Compact protocol")),
                TemplateParameter.of("maxRecordsPerBatch", "Events per message", OUTPUT, NUMBER)
                    .withRegex("^([1-9][0-9]{0,3}|10000)$"))));
    all.add(
        TemplateParameter.of("kafkaTopic", "Kafka output topic", KAFKA, TEXT)
            .withRegex(KafkaParameters.TOPIC_REGEX));
    all.addAll(KafkaParameters.connection(KAFKA));
    all.add(
        KafkaParameters.clientProperty(
            "kafkaProducerProperty", "Kafka producer property (key=value)", KAFKA));
    all.addAll(
        List.of(
            TemplateParameter.of("generatorRatePerSec", "Events per second", RATE, NUMBER)
                .withRegex(COUNT),
            TemplateParameter.of("maxEvents", "Event count", RATE, NUMBER).withRegex(COUNT),
            TemplateParameter.of("seed", "Seed", VALUES, NUMBER).withRegex("^-?[0-9]+$"),
            TemplateParameter.of("completeObjects", "Set every optional field", VALUES, BOOLEAN),
            TemplateParameter.of(
                    "optionalFieldProbability", "Optional field probability", VALUES, NUMBER)
                .withRegex("^(0(\\.[0-9]+)?|1(\\.0+)?)$"),
            TemplateParameter.of("minStringLength", "Shortest string (bytes)", VALUES, NUMBER)
                .withRegex(COUNT),
            TemplateParameter.of("maxStringLength", "Longest string (bytes)", VALUES, NUMBER)
                .withRegex(COUNT),
            TemplateParameter.of("maxCollectionSize", "Largest collection", VALUES, NUMBER)
                .withRegex(COUNT),
            TemplateParameter.of("fieldsWithSkew", "Skewed fields", SKEW, TEXT),
            TemplateParameter.of("skewCardinality", "Skewed values", SKEW, NUMBER)
                .withRegex("^[1-9][0-9]*$"),
            TemplateParameter.of("skewExponent", "Skew exponent", SKEW, NUMBER)
                .withRegex("^[0-9]+(\\.[0-9]+)?$"),
            TemplateParameter.of("primaryKey", "Primary key", CHANGES, TEXT),
            TemplateParameter.of("changeType", "Change type source", CHANGES, TEXT),
            TemplateParameter.of("upsertValues", "Upsert values", CHANGES, TEXT),
            TemplateParameter.of("deleteValues", "Delete values", CHANGES, TEXT),
            TemplateParameter.of("changeSequence", "Change sequence source", CHANGES, TEXT),
            TemplateParameter.of("changeKeys", "Distinct keys per struct", CHANGES, NUMBER)
                .withRegex("^[1-9][0-9]*$"),
            TemplateParameter.of("changeUpdateRatio", "Share of updates", CHANGES, NUMBER)
                .withRegex(SHARE),
            TemplateParameter.of("changeDeleteRatio", "Share of deletes", CHANGES, NUMBER)
                .withRegex(SHARE),
            TemplateParameter.of("changeDuplicateRatio", "Share of duplicates", CHANGES, NUMBER)
                .withRegex(SHARE),
            TemplateParameter.of(
                    "changeReorderRatio", "Share of out-of-order changes", CHANGES, NUMBER)
                .withRegex(SHARE),
            TemplateParameter.of(
                "expectedStateFile", "Expected state file (launcher-local)", CHANGES, TEXT)));
    return List.copyOf(all);
  }
}
