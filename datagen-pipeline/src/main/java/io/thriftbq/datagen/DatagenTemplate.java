package io.thriftbq.datagen;

import io.thriftbq.kafka.KafkaConnectionOptions;
import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateSpec;
import java.util.List;

/**
 * The data generator's flex template. Each parameter's console details are on its option's getter
 * ({@link TemplateParameter} next to the {@code @Description}, in {@link DatagenOptions}); this
 * class names the template, its groups, and where the shared option groups go. {@code
 * src/main/flex-template/metadata.json} is generated from it ({@code scripts/generate-docs.sh}).
 */
public final class DatagenTemplate {
  public static final String OUTPUT = "Output";
  public static final String KAFKA_OUTPUT = "Kafka output";
  public static final String RATE = "Rate";
  public static final String VALUES = "Values";
  public static final String SKEW = "Skew";
  public static final String CHANGES = "Change stream";

  public static final TemplateSpec SPEC =
      TemplateSpec.of(
              "Thrift event generator to Pub/Sub or Kafka",
              "Generates random but realistic instances of a Thrift struct by walking its metadata,"
                  + " serializes them with the binary or compact protocol, and publishes them to a"
                  + " Pub/Sub topic or a Kafka topic at a given rate, one event per message or many"
                  + " per compressed envelope. Each message carries its event-creation time for"
                  + " latency measurement.",
              DatagenOptions.class,
              List.of(OUTPUT, KAFKA_OUTPUT, RATE, VALUES, SKEW, CHANGES))
          .placing(ThriftSchemaOptions.class, OUTPUT, 35)
          .placing(KafkaConnectionOptions.class, KAFKA_OUTPUT, 15);

  private DatagenTemplate() {}
}
