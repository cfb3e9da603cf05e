package io.thriftbq.datagen;

import static io.thriftbq.datagen.DatagenTemplate.CHANGES;
import static io.thriftbq.datagen.DatagenTemplate.KAFKA_OUTPUT;
import static io.thriftbq.datagen.DatagenTemplate.OUTPUT;
import static io.thriftbq.datagen.DatagenTemplate.RATE;
import static io.thriftbq.datagen.DatagenTemplate.SKEW;
import static io.thriftbq.datagen.DatagenTemplate.VALUES;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_TOPIC;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.kafka.KafkaConnectionOptions;
import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.schema.ThriftSources;
import io.thriftbq.template.KafkaParameters;
import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.PubsubNames;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateParameter.EnumLabel;
import java.util.List;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;

/**
 * Options of the data generator. The names are part of the template's interface (flex-template
 * metadata and launch scripts use them): rename nothing without updating those. Inherits {@code
 * --pubsubRootUrl} (point it at the Pub/Sub emulator), {@code --project} and {@code --streaming},
 * and the shared Kafka connection options ({@code --kafkaBootstrapServers}, {@code
 * --kafkaAuthentication}) of {@link KafkaConnectionOptions}.
 */
public interface DatagenOptions
    extends GcpOptions,
        PubsubOptions,
        StreamingOptions,
        ThriftSchemaOptions,
        KafkaConnectionOptions {
  String DEFAULT_CLASS_NAME = ThriftSources.SAMPLE_CLASS;
  long DEFAULT_RATE = 1000;
  long DEFAULT_SEED = 1;
  double DEFAULT_OPTIONAL_FIELD_PROBABILITY = 0.85;
  int DEFAULT_MIN_STRING_LENGTH = 4;
  int DEFAULT_MAX_STRING_LENGTH = 32;
  int DEFAULT_MAX_COLLECTION_SIZE = 5;
  long DEFAULT_SKEW_CARDINALITY = 1000;
  double DEFAULT_SKEW_EXPONENT = 1.0;

  @Description(
      "Fully qualified name of the Thrift-generated struct class to generate, for example"
          + " io.thriftbq.sample.Event. The class must be on the pipeline's classpath. Give either"
          + " this or --thriftIdl; with neither, the sample event io.thriftbq.sample.Event.")
  @TemplateParameter(
      label = "Thrift struct class",
      group = OUTPUT,
      order = 30,
      pattern = ParameterPatterns.JAVA_CLASS_NAME)
  String getClassName();

  void setClassName(String value);

  /** Where the generated messages go. */
  enum Sink {
    PUBSUB,
    KAFKA
  }

  @Description(
      "Where to publish: PUBSUB (to --outputTopic) or KAFKA (to --kafkaTopic on"
          + " --kafkaBootstrapServers). The messages are the same bytes and attributes either way;"
          + " on Kafka each is a record whose value is the payload, whose headers are the"
          + " attributes (UTF-8) and whose key is the event_id attribute.")
  @Default.Enum("PUBSUB")
  @TemplateParameter(
      label = "Publish to",
      group = OUTPUT,
      order = 10,
      enumLabels = {
        @EnumLabel(value = "PUBSUB", label = "Pub/Sub topic"),
        @EnumLabel(value = "KAFKA", label = "Kafka topic")
      })
  Sink getSink();

  void setSink(Sink value);

  @Description(
      "Pub/Sub topic to publish to, as projects/PROJECT/topics/TOPIC. Required with --sink=PUBSUB"
          + " (the default).")
  @TemplateParameter(
      label = "Pub/Sub output topic",
      group = OUTPUT,
      order = 20,
      type = PUBSUB_TOPIC,
      pattern = PubsubNames.TOPIC_REGEX)
  String getOutputTopic();

  void setOutputTopic(String value);

  @Description("Kafka topic to publish to. Required with --sink=KAFKA.")
  @TemplateParameter(
      label = "Kafka output topic",
      group = KAFKA_OUTPUT,
      order = 10,
      pattern = KafkaParameters.TOPIC_REGEX)
  String getKafkaTopic();

  void setKafkaTopic(String value);

  @Description(
      "A Kafka producer property as key=value, with --sink=KAFKA; repeat the flag for more, for"
          + " example --kafkaProducerProperty=linger.ms=20"
          + " --kafkaProducerProperty=batch.size=1048576. The pipeline sets bootstrap.servers and"
          + " the serializers, and --kafkaAuthentication=GOOGLE_OAUTH the security properties;"
          + " max.request.size also bounds the generated messages.")
  @TemplateParameter(
      label = "Kafka producer property (key=value)",
      group = KAFKA_OUTPUT,
      order = 20,
      pattern = KafkaParameters.PROPERTY_REGEX)
  List<String> getKafkaProducerProperty();

  void setKafkaProducerProperty(List<String> value);

  @Description(
      "Events per second to generate, summed over all workers (the rate is divided among the"
          + " source's splits). 0 means as fast as the workers can go.")
  @Default.Long(DEFAULT_RATE)
  @TemplateParameter(
      label = "Events per second",
      group = RATE,
      order = 10,
      pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
  long getGeneratorRatePerSec();

  void setGeneratorRatePerSec(long value);

  @Description(
      "Total number of events to generate, then stop. 0 means unbounded (run until drained).")
  @Default.Long(0)
  @TemplateParameter(
      label = "Event count",
      group = RATE,
      order = 20,
      pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
  long getMaxEvents();

  void setMaxEvents(long value);

  @Description(
      "Seed of the generator. Event number N is a pure function of (seed, N) and the value"
          + " options, so the same seed and options publish the same events, however many workers"
          + " run.")
  @Default.Long(DEFAULT_SEED)
  @TemplateParameter(label = "Seed", group = VALUES, order = 10, pattern = "^-?[0-9]+$")
  long getSeed();

  void setSeed(long value);

  @Description(
      "If true, every optional field is set in every event (--optionalFieldProbability is"
          + " ignored).")
  @Default.Boolean(false)
  @TemplateParameter(label = "Set every optional field", group = VALUES, order = 20)
  boolean getCompleteObjects();

  void setCompleteObjects(boolean value);

  @Description(
      "Probability (0 to 1) that each optional field is set, when --completeObjects is false."
          + " Required fields are always set.")
  @Default.Double(DEFAULT_OPTIONAL_FIELD_PROBABILITY)
  @TemplateParameter(
      label = "Optional field probability",
      group = VALUES,
      order = 30,
      pattern = ParameterPatterns.FRACTION)
  double getOptionalFieldProbability();

  void setOptionalFieldProbability(double value);

  @Description("Shortest generated string and binary value, in bytes.")
  @Default.Integer(DEFAULT_MIN_STRING_LENGTH)
  @TemplateParameter(
      label = "Shortest string (bytes)",
      group = VALUES,
      order = 40,
      pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
  int getMinStringLength();

  void setMinStringLength(int value);

  @Description("Longest generated string and binary value, in bytes (at most 1048576).")
  @Default.Integer(DEFAULT_MAX_STRING_LENGTH)
  @TemplateParameter(
      label = "Longest string (bytes)",
      group = VALUES,
      order = 50,
      pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
  int getMaxStringLength();

  void setMaxStringLength(int value);

  @Description(
      "Largest list, set or map; sizes are uniform from 0 to this. Sets and maps may come out"
          + " smaller because their elements and keys are distinct.")
  @Default.Integer(DEFAULT_MAX_COLLECTION_SIZE)
  @TemplateParameter(
      label = "Largest collection",
      group = VALUES,
      order = 60,
      pattern = ParameterPatterns.NON_NEGATIVE_INTEGER)
  int getMaxCollectionSize();

  void setMaxCollectionSize(int value);

  @Description(
      "Comma-separated field paths whose values are skewed, for example"
          + " user_id,session.device.model. A path names struct fields from the top-level struct"
          + " (with several event types, from each type's struct, and applies to every type that"
          + " has it); lists, sets and map values are transparent (products.sku). Each such field"
          + " takes one of --skewCardinality values with Zipf-like frequencies, to study hot keys"
          + " downstream.")
  @Default.String("")
  @TemplateParameter(label = "Skewed fields", group = SKEW, order = 10)
  String getFieldsWithSkew();

  void setFieldsWithSkew(String value);

  @Description("Number of distinct values each field in --fieldsWithSkew takes.")
  @Default.Long(DEFAULT_SKEW_CARDINALITY)
  @TemplateParameter(
      label = "Skewed values",
      group = SKEW,
      order = 20,
      pattern = ParameterPatterns.POSITIVE_INTEGER)
  long getSkewCardinality();

  void setSkewCardinality(long value);

  @Description(
      "Concentration of the skewed fields: value of rank k is drawn with probability"
          + " proportional to 1/k^exponent. 0 is uniform, 1 is Zipf (with 1000 values the top one"
          + " takes about 13%), 2 is very concentrated (the top one takes about 61%).")
  @Default.Double(DEFAULT_SKEW_EXPONENT)
  @TemplateParameter(
      label = "Skew exponent",
      group = SKEW,
      order = 30,
      pattern = "^[0-9]+(\\.[0-9]+)?$")
  double getSkewExponent();

  void setSkewExponent(double value);

  @Description(
      "Events per message (Pub/Sub message or Kafka record). 1 publishes each event as a plain message; more packs that"
          + " many events into one zlib-compressed envelope (attribute thriftbq_envelope=deflate-v1)."
          + " At most 10000.")
  @Default.Integer(1)
  @TemplateParameter(
      label = "Events per message",
      group = OUTPUT,
      order = 50,
      pattern = "^([1-9][0-9]{0,3}|10000)$")
  int getMaxRecordsPerBatch();

  void setMaxRecordsPerBatch(int value);

  @Description("Thrift protocol to serialize events with: BINARY or COMPACT.")
  @Default.Enum("BINARY")
  @TemplateParameter(
      label = "Thrift protocol",
      group = OUTPUT,
      order = 40,
      enumLabels = {
        @EnumLabel(value = "BINARY", label = "Binary protocol"),
        @EnumLabel(value = "COMPACT", label = "Compact protocol")
      })
  ThriftProtocol getThriftProtocol();

  void setThriftProtocol(ThriftProtocol value);

  @Description(
      "Change stream: the primary key of the generated changes, as top-level IDL fields,"
          + " comma-separated (for example id, or tenant_id,order_id), or one key per struct of a"
          + " many-types run as Struct=col[,col];Struct2=col: the same syntax as the ingestion"
          + " pipeline's --primaryKey. Turns the generator into a change stream: each message is an"
          + " insert, update, delete, duplicate or out-of-order change of one of --changeKeys keys"
          + " per struct, and with --expectedStateFile the final state BigQuery must end with is"
          + " written at launch. Key fields must be of a type that maps to INT64, STRING or BOOLEAN"
          + " (bool, i8 to i64, string, an enum). Needs --maxEvents and --maxRecordsPerBatch=1."
          + " Empty: random events, no changes.")
  @Default.String("")
  @TemplateParameter(label = "Primary key", group = CHANGES, order = 10)
  String getPrimaryKey();

  void setPrimaryKey(String value);

  @Description(
      "Change stream: where each event's change type goes, as the ingestion pipeline reads it."
          + " UPSERT (the default): every event is an upsert (then --changeDeleteRatio must be 0);"
          + " field:NAME: a top-level string or enum field; attribute:NAME: a Pub/Sub attribute or"
          + " Kafka header (header:NAME is the same). The generator writes UPSERT or DELETE if"
          + " --upsertValues or --deleteValues has it, else their first value in sorted order (for"
          + " an enum field, among its members).")
  @TemplateParameter(label = "Change type source", group = CHANGES, order = 20)
  String getChangeType();

  void setChangeType(String value);

  @Description(
      "Change stream: the values of --changeType that mean an upsert, comma-separated, as the"
          + " ingestion pipeline's flag. Default: UPSERT,INSERT,UPDATE.")
  @TemplateParameter(label = "Upsert values", group = CHANGES, order = 30)
  List<String> getUpsertValues();

  void setUpsertValues(List<String> value);

  @Description(
      "Change stream: the values of --changeType that mean a delete, comma-separated, as the"
          + " ingestion pipeline's flag. Default: DELETE.")
  @TemplateParameter(label = "Delete values", group = CHANGES, order = 40)
  List<String> getDeleteValues();

  void setDeleteValues(List<String> value);

  @Description(
      "Change stream: what orders the changes of one key, as the ingestion pipeline reads it."
          + " NONE (the default), PUBLISH_TIME or KAFKA_OFFSET: the order of publication (then"
          + " --changeReorderRatio must be 0, and the expected state assumes the messages of a key"
          + " are published and ingested in stream order); field:NAME: a top-level integer field"
          + " (i8 to i64; the changes of a key are numbered 2, 4, 6, ..., or 2024-01-01 plus that"
          + " many milliseconds for a field named like a timestamp) or a string field (the number"
          + " as a BigQuery sequence number).")
  @TemplateParameter(label = "Change sequence source", group = CHANGES, order = 50)
  String getChangeSequence();

  void setChangeSequence(String value);

  @Description("Change stream: distinct keys per struct.")
  @Default.Long(ChangeStreamConfig.DEFAULT_KEYS)
  @TemplateParameter(
      label = "Distinct keys per struct",
      group = CHANGES,
      order = 60,
      pattern = ParameterPatterns.POSITIVE_INTEGER)
  long getChangeKeys();

  void setChangeKeys(long value);

  @Description(
      "Change stream: share of messages (0 to 1) that give an existing key new content. What the"
          + " four ratios leave below 1 is the share of new keys (inserts); once every key exists,"
          + " inserts become updates.")
  @Default.Double(ChangeStreamConfig.DEFAULT_UPDATE_RATIO)
  @TemplateParameter(
      label = "Share of updates",
      group = CHANGES,
      order = 70,
      pattern = ParameterPatterns.FRACTION)
  double getChangeUpdateRatio();

  void setChangeUpdateRatio(double value);

  @Description(
      "Change stream: share of messages (0 to 1) that delete an existing key. Needs a"
          + " --changeType other than UPSERT.")
  @Default.Double(0)
  @TemplateParameter(
      label = "Share of deletes",
      group = CHANGES,
      order = 80,
      pattern = ParameterPatterns.FRACTION)
  double getChangeDeleteRatio();

  void setChangeDeleteRatio(double value);

  @Description(
      "Change stream: share of messages (0 to 1) that resend one of the last few messages exactly"
          + " (same bytes, same attributes), as a redelivery would.")
  @Default.Double(0)
  @TemplateParameter(
      label = "Share of duplicates",
      group = CHANGES,
      order = 90,
      pattern = ParameterPatterns.FRACTION)
  double getChangeDuplicateRatio();

  void setChangeDuplicateRatio(double value);

  @Description(
      "Change stream: share of messages (0 to 1) that carry a change older than the newest one"
          + " already sent for their key, which BigQuery must not apply over it. Needs"
          + " --changeSequence=field:NAME.")
  @Default.Double(0)
  @TemplateParameter(
      label = "Share of out-of-order changes",
      group = CHANGES,
      order = 100,
      pattern = ParameterPatterns.FRACTION)
  double getChangeReorderRatio();

  void setChangeReorderRatio(double value);

  @Description(
      "Change stream: a local file to write, at launch, the final state BigQuery must hold after"
          + " the --maxEvents messages: JSON lines, one per key, with the struct, the key values,"
          + " the winning change type (UPSERT, or DELETE for a key without a row), its sequence and"
          + " its Thrift bytes in base64 (see docs/DATAGEN.md). Empty: not written.")
  @Default.String("")
  @TemplateParameter(label = "Expected state file (launcher-local)", group = CHANGES, order = 110)
  String getExpectedStateFile();

  void setExpectedStateFile(String value);
}
