package io.thriftbq.ingest.template;

import static io.thriftbq.template.TemplateParameter.ParamType.BIGQUERY_TABLE;
import static io.thriftbq.template.TemplateParameter.ParamType.BOOLEAN;
import static io.thriftbq.template.TemplateParameter.ParamType.ENUM;
import static io.thriftbq.template.TemplateParameter.ParamType.NUMBER;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_SUBSCRIPTION;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_TOPIC;
import static io.thriftbq.template.TemplateParameter.ParamType.TEXT;

import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.template.BigQueryNames;
import io.thriftbq.template.IdlParameters;
import io.thriftbq.template.KafkaParameters;
import io.thriftbq.template.PubsubNames;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateSpec;
import java.util.List;
import java.util.Map;

/**
 * The ingestion pipeline's flex template: the console details of each option. Help texts, defaults
 * and enum values are the options' own ({@link IngestionOptions}); {@code
 * src/main/flex-template/metadata.json} is generated from both ({@code scripts/generate-docs.sh}).
 */
public final class IngestionTemplate {
  private static final String SOURCE = "Source";
  private static final String DECODING = "Decoding";
  private static final String OUTPUT = "Output";
  private static final String TUNING = "Tuning";
  private static final String JAVA_CLASS = "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_$]*)+$";
  private static final String POSITIVE = "^[1-9][0-9]*$";

  /** Beam's own options that the tuning steps set; they are template parameters too. */
  public static final List<String> BEAM_TUNING_OPTIONS =
      List.of(
          "numStreamingKeys",
          "storageWriteApiTriggeringFrequencySec",
          "numStorageWriteApiStreams",
          "useStorageApiConnectionPool");

  public static final TemplateSpec SPEC =
      new TemplateSpec(
          "Thrift events from Pub/Sub or Kafka to BigQuery",
          "Reads Apache Thrift events from a Pub/Sub subscription or topic or from Kafka topics,"
              + " decodes them with the"
              + " given Thrift class, converts them to TableRow, Beam Row, Avro GenericRecord or a"
              + " protocol buffer message, and writes them to BigQuery with streaming inserts or the"
              + " Storage Write API (exactly-once or at-least-once). Events that cannot be decoded,"
              + " transformed, converted or written go to a dead-letter table.",
          IngestionOptions.class,
          IdlParameters.insertAfter(
              "thriftClassName",
              DECODING,
              List.of(
                  TemplateParameter.of(
                          "subscription", "Pub/Sub input subscription", SOURCE, PUBSUB_SUBSCRIPTION)
                      .withRegex(PubsubNames.SUBSCRIPTION_REGEX),
                  TemplateParameter.of("inputTopic", "Pub/Sub input topic", SOURCE, PUBSUB_TOPIC)
                      .withRegex(PubsubNames.TOPIC_REGEX),
                  TemplateParameter.of("idAttribute", "Publisher id attribute", SOURCE, TEXT),
                  TemplateParameter.of("source", "Where events come from", SOURCE, ENUM)
                      .withEnumLabels(Map.of("PUBSUB", "Pub/Sub", "KAFKA", "Kafka")),
                  KafkaParameters.connection(SOURCE).get(0),
                  KafkaParameters.connection(SOURCE).get(1),
                  TemplateParameter.of("kafkaTopics", "Kafka topics", SOURCE, TEXT)
                      .withRegex(KafkaParameters.TOPIC_LIST_REGEX),
                  TemplateParameter.of("kafkaConsumerGroup", "Kafka consumer group", SOURCE, TEXT),
                  TemplateParameter.of("kafkaStartOffset", "Kafka start offset", SOURCE, TEXT)
                      .withRegex("^(EARLIEST|LATEST|[0-9]{1,19}|[0-9]{4}-[0-9]{2}-[0-9]{2}T.+)$"),
                  KafkaParameters.clientProperty(
                      "kafkaConsumerProperty", "Other Kafka consumer properties", SOURCE),
                  TemplateParameter.of("thriftClassName", "Thrift event class", DECODING, TEXT)
                      .withRegex(JAVA_CLASS),
                  TemplateParameter.of("thriftProtocol", "Thrift protocol", DECODING, ENUM)
                      .withEnumLabels(
                          Map.of("BINARY", "Binary protocol", "COMPACT", "Compact protocol")),
                  TemplateParameter.of(
                          "maxThriftStringBytes", "Largest Thrift string (bytes)", DECODING, NUMBER)
                      .withRegex(POSITIVE),
                  TemplateParameter.of(
                          "maxThriftContainerElements",
                          "Largest Thrift container (elements)",
                          DECODING,
                          NUMBER)
                      .withRegex(POSITIVE),
                  TemplateParameter.of("maxRowBytes", "Largest row (bytes)", DECODING, NUMBER)
                      .withRegex(POSITIVE),
                  TemplateParameter.of(
                          "unknownEnumValues", "Enum values the IDL does not name", DECODING, ENUM)
                      .withEnumLabels(
                          Map.of(
                              "KEEP", "Keep as UNKNOWN_<number>",
                              "DEAD_LETTER", "Dead-letter the event")),
                  TemplateParameter.of("invalidUtf8", "Strings that are not UTF-8", DECODING, ENUM)
                      .withEnumLabels(
                          Map.of(
                              "DEAD_LETTER", "Dead-letter the event",
                              "REPLACE", "Replace with U+FFFD and count")),
                  TemplateParameter.of("schemaUpdate", "Existing table's schema", DECODING, ENUM)
                      .withEnumLabels(
                          Map.of(
                              "ADD_COLUMNS", "Add the IDL's new optional columns",
                              "FAIL", "Fail on any difference",
                              "NONE", "Do not compare")),
                  TemplateParameter.of(
                      "keepUnknownFields",
                      "Keep events' bytes when fields are unknown",
                      DECODING,
                      BOOLEAN),
                  TemplateParameter.of("udfClassName", "Event transform class", DECODING, TEXT)
                      .withRegex(JAVA_CLASS),
                  TemplateParameter.of(
                          "outputTable", "BigQuery output table", OUTPUT, BIGQUERY_TABLE)
                      .withRegex(BigQueryNames.TABLE_SPEC_REGEX),
                  TemplateParameter.of("tableForStruct", "BigQuery table per struct", OUTPUT, TEXT)
                      .withRegex(BigQueryNames.TABLE_FOR_STRUCT_REGEX),
                  TemplateParameter.of(
                          "deadLetterTable", "BigQuery dead-letter table", OUTPUT, BIGQUERY_TABLE)
                      .withRegex(BigQueryNames.TABLE_SPEC_REGEX),
                  TemplateParameter.of("primaryKey", "Primary key (change mode)", OUTPUT, TEXT)
                      .withRegex(
                          "^([A-Za-z_][A-Za-z0-9_.]*=)?[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*"
                              + "(;[A-Za-z_][A-Za-z0-9_.]*=[A-Za-z_][A-Za-z0-9_]*"
                              + "(,[A-Za-z_][A-Za-z0-9_]*)*)*$"),
                  TemplateParameter.of("changeType", "Change type (change mode)", OUTPUT, TEXT)
                      .withRegex("^(UPSERT|(field|attribute|header):.+)$"),
                  TemplateParameter.of(
                      "upsertValues", "Change type values meaning upsert", OUTPUT, TEXT),
                  TemplateParameter.of(
                      "deleteValues", "Change type values meaning delete", OUTPUT, TEXT),
                  TemplateParameter.of(
                          "changeSequence", "Change sequence (change mode)", OUTPUT, TEXT)
                      .withRegex("^(NONE|PUBLISH_TIME|KAFKA_OFFSET|field:.+)$"),
                  TemplateParameter.of(
                          "maxStaleness", "Table max_staleness (change mode)", OUTPUT, TEXT)
                      .withRegex("^P.+$"),
                  TemplateParameter.of(
                      "keepPayloadForWriteFailures",
                      "Keep the Thrift bytes of rows BigQuery rejects",
                      OUTPUT,
                      BOOLEAN),
                  TemplateParameter.of("formatToStore", "Format handed to BigQueryIO", OUTPUT, ENUM)
                      .withEnumLabels(
                          Map.of(
                              "TABLE_ROW", "TableRow",
                              "BEAM_ROW", "Beam Row",
                              "AVRO_GENERIC_RECORD", "Avro GenericRecord",
                              "PROTO_MESSAGE", "Protocol buffer bytes, written directly")),
                  TemplateParameter.of("bigQueryWriteMethod", "BigQuery write method", OUTPUT, ENUM)
                      .withEnumLabels(
                          Map.of(
                              "STREAMING_INSERTS", "Streaming inserts",
                              "STORAGE_WRITE_API", "Storage Write API, exactly-once",
                              "STORAGE_API_AT_LEAST_ONCE", "Storage Write API, at-least-once")),
                  TemplateParameter.of("createTable", "Create the tables", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                          "partitionType", "Partitioning of a created table", OUTPUT, TEXT)
                      .withRegex("^(DAY|HOUR|MONTH|YEAR)?$"),
                  TemplateParameter.of("partitionField", "Partitioning column", OUTPUT, TEXT),
                  TemplateParameter.of("clusteringFields", "Clustering columns", OUTPUT, TEXT),
                  TemplateParameter.of(
                      "includePubsubMessageId", "Add the message id column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includePublishTime", "Add the publish time column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeAttributes", "Add the attributes column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaTopic", "Add the Kafka topic column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaPartition", "Add the Kafka partition column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaOffset", "Add the Kafka offset column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaKey", "Add the Kafka key column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaTimestamp", "Add the Kafka timestamp column", OUTPUT, BOOLEAN),
                  TemplateParameter.of(
                      "includeKafkaHeaders", "Add the Kafka headers column", OUTPUT, BOOLEAN),
                  TemplateParameter.of("eventTimeAttribute", "Event-time attribute", OUTPUT, TEXT),
                  TemplateParameter.of("enableBigQueryAutoshard", "Auto-sharding", TUNING, BOOLEAN),
                  TemplateParameter.of("numStreamingKeys", "Streaming insert keys", TUNING, NUMBER)
                      .withRegex(POSITIVE),
                  TemplateParameter.of(
                          "storageWriteApiTriggeringFrequencySec",
                          "Storage Write API triggering frequency (s)",
                          TUNING,
                          NUMBER)
                      .withRegex(POSITIVE),
                  TemplateParameter.of(
                          "numStorageWriteApiStreams", "Storage Write API streams", TUNING, NUMBER)
                      .withRegex("^[0-9]+$"),
                  TemplateParameter.of(
                      "useStorageApiConnectionPool",
                      "Storage Write API connection pool",
                      TUNING,
                      BOOLEAN))));

  private IngestionTemplate() {}
}
