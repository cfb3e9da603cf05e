package io.thriftbq.ingest.options;

import static io.thriftbq.ingest.options.TemplateGroups.DECODING;
import static io.thriftbq.ingest.options.TemplateGroups.OUTPUT;
import static io.thriftbq.ingest.options.TemplateGroups.SOURCE;
import static io.thriftbq.ingest.options.TemplateGroups.TUNING;
import static io.thriftbq.template.TemplateParameter.ParamType.BIGQUERY_TABLE;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_SUBSCRIPTION;
import static io.thriftbq.template.TemplateParameter.ParamType.PUBSUB_TOPIC;

import io.thriftbq.schema.ThriftSchemaOptions;
import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.PubsubNames;
import io.thriftbq.template.TemplateParameter;
import io.thriftbq.template.TemplateParameter.EnumLabel;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;
import org.apache.beam.sdk.options.Validation;

/**
 * Options of the ingestion pipeline.
 *
 * <p>Beam's own BigQuery tuning options are inherited from {@link BigQueryOptions} and take effect
 * unchanged: {@code --numStreamingKeys}, {@code --storageWriteApiTriggeringFrequencySec}, {@code
 * --numStorageWriteApiStreams}, {@code --useStorageApiConnectionPool}. All combinations are checked
 * at launch, when the options become an {@code IngestionPlan}; nothing after that reads them.
 *
 * <p>Each option's description is the one text about it, and its {@link TemplateParameter} says how
 * the flex template shows it (label, group, place, input pattern): the flex-template metadata and
 * the README's option table are generated from the two (see {@code docs/ARCHITECTURE.md}).
 */
public interface IngestionOptions
    extends GcpOptions,
        StreamingOptions,
        BigQueryOptions,
        PubsubOptions,
        KafkaSourceOptions,
        MetadataOptions,
        ChangeCaptureOptions,
        ThriftSchemaOptions {

  // Defaults that code outside the options needs too (converters built without options, launch
  // checks); the annotations below use them, so each is written once.

  /** Default of {@code --maxThriftStringBytes}. */
  int DEFAULT_MAX_THRIFT_STRING_BYTES = 10 * 1024 * 1024;

  /** Default of {@code --maxThriftContainerElements}. */
  int DEFAULT_MAX_THRIFT_CONTAINER_ELEMENTS = 1_000_000;

  /** BigQuery's limit on one row, for streaming inserts and the Storage Write API alike. */
  long BIGQUERY_MAX_ROW_BYTES = 10_000_000L;

  /** Default of {@code --maxRowBytes}: below BigQuery's limit by a margin for the estimate. */
  long DEFAULT_MAX_ROW_BYTES = 9_000_000L;

  @Description(
      "Pub/Sub subscription to read from, as projects/PROJECT/subscriptions/NAME. Set exactly one"
          + " of --subscription and --inputTopic.")
  @TemplateParameter(
      label = "Pub/Sub input subscription",
      group = SOURCE,
      order = 10,
      type = PUBSUB_SUBSCRIPTION,
      pattern = PubsubNames.SUBSCRIPTION_REGEX)
  String getSubscription();

  void setSubscription(String value);

  @Description(
      "Pub/Sub topic to read from, as projects/PROJECT/topics/NAME; the runner creates a temporary"
          + " subscription, which is deleted when the job ends, so prefer --subscription in"
          + " production. Set exactly one of --subscription and --inputTopic.")
  @TemplateParameter(
      label = "Pub/Sub input topic",
      group = SOURCE,
      order = 20,
      type = PUBSUB_TOPIC,
      pattern = PubsubNames.TOPIC_REGEX)
  String getInputTopic();

  void setInputTopic(String value);

  @Description(
      "Pub/Sub attribute holding a publisher-assigned id, for de-duplication by publisher id"
          + " (PubsubIO's withIdAttribute): messages with the same value of this attribute are"
          + " delivered once, where the runner honours it. On Dataflow's exactly-once streaming"
          + " mode, messages whose ids repeat within about 10 minutes are dropped (a publisher's"
          + " retry, for example); it removes nothing on the at-least-once streaming mode, nor"
          + " duplicates further apart, nor two messages that carry one event under two ids. The"
          + " embedded Flink runner of local mode de-duplicates source records by this id too."
          + " Pub/Sub only. For exact tables whatever the delivery, use change mode (--primaryKey).")
  @TemplateParameter(label = "Publisher id attribute", group = SOURCE, order = 30)
  String getIdAttribute();

  void setIdAttribute(String value);

  @Description(
      "Fully qualified name of the Thrift-generated Java class of the event struct, for example"
          + " io.thriftbq.sample.Event. It must be on the classpath and implement TBase. Give either"
          + " this or --thriftIdl (a user function needs this one); with neither, the sample event"
          + " io.thriftbq.sample.Event.")
  @TemplateParameter(
      label = "Thrift event class",
      group = DECODING,
      order = 10,
      pattern = ParameterPatterns.JAVA_CLASS_NAME)
  String getThriftClassName();

  void setThriftClassName(String value);

  @Description("Thrift protocol the events are serialized with: BINARY or COMPACT.")
  @Default.Enum("BINARY")
  @TemplateParameter(
      label = "Thrift protocol",
      group = DECODING,
      order = 20,
      enumLabels = {
        @EnumLabel(value = "BINARY", label = "Binary protocol"),
        @EnumLabel(value = "COMPACT", label = "Compact protocol")
      })
  WireProtocol getThriftProtocol();

  void setThriftProtocol(WireProtocol value);

  @Description(
      "Largest string or binary field, in bytes, that the decoder accepts; a larger declared length"
          + " is a dead letter rather than an allocation.")
  @Default.Integer(DEFAULT_MAX_THRIFT_STRING_BYTES)
  @TemplateParameter(
      label = "Largest Thrift string (bytes)",
      group = DECODING,
      order = 30,
      pattern = ParameterPatterns.POSITIVE_INTEGER)
  Integer getMaxThriftStringBytes();

  void setMaxThriftStringBytes(Integer value);

  @Description(
      "Largest row, in bytes, that the decoder lets through: its estimate of the row as sent"
          + " (values, column names, binary as base64, metadata columns) above this is a DECODE"
          + " dead letter with the event's bytes, because BigQuery refuses rows over 10 MB and"
          + " would otherwise fail or retry them. At most 10000000.")
  @Default.Long(DEFAULT_MAX_ROW_BYTES)
  @TemplateParameter(
      label = "Largest row (bytes)",
      group = DECODING,
      order = 50,
      pattern = ParameterPatterns.POSITIVE_INTEGER)
  Long getMaxRowBytes();

  void setMaxRowBytes(Long value);

  @Description(
      "Largest list, set or map, in elements, that the decoder accepts; a larger declared size is a"
          + " dead letter rather than an allocation.")
  @Default.Integer(DEFAULT_MAX_THRIFT_CONTAINER_ELEMENTS)
  @TemplateParameter(
      label = "Largest Thrift container (elements)",
      group = DECODING,
      order = 40,
      pattern = ParameterPatterns.POSITIVE_INTEGER)
  Integer getMaxThriftContainerElements();

  void setMaxThriftContainerElements(Integer value);

  @Description(
      "What to do with an enum value the IDL does not name (a producer on a newer IDL): KEEP"
          + " stores it as the string UNKNOWN_<number>; DEAD_LETTER sends the event to the"
          + " dead-letter table. Counted in the unknown_enum_values metric either way. With"
          + " --udfClassName the generated class cannot hold such a value, so it is a dead letter.")
  @Default.Enum("KEEP")
  @TemplateParameter(
      label = "Enum values the IDL does not name",
      group = DECODING,
      order = 60,
      enumLabels = {
        @EnumLabel(value = "KEEP", label = "Keep as UNKNOWN_<number>"),
        @EnumLabel(value = "DEAD_LETTER", label = "Dead-letter the event")
      })
  UnknownEnumValues getUnknownEnumValues();

  void setUnknownEnumValues(UnknownEnumValues value);

  @Description(
      "What to do with a string field that is not valid UTF-8 (BigQuery strings must be):"
          + " DEAD_LETTER sends the event, with its raw bytes, to the dead-letter table; REPLACE"
          + " stores each malformed sequence as U+FFFD and counts the field in the"
          + " invalid_utf8_replaced metric.")
  @Default.Enum("DEAD_LETTER")
  @TemplateParameter(
      label = "Strings that are not UTF-8",
      group = DECODING,
      order = 70,
      enumLabels = {
        @EnumLabel(value = "DEAD_LETTER", label = "Dead-letter the event"),
        @EnumLabel(value = "REPLACE", label = "Replace with U+FFFD and count")
      })
  InvalidUtf8 getInvalidUtf8();

  void setInvalidUtf8(InvalidUtf8 value);

  @Description(
      "Format the rows are handed to BigQueryIO in: TABLE_ROW, BEAM_ROW, AVRO_GENERIC_RECORD or"
          + " PROTO_MESSAGE. All produce the same rows; they differ in cost (see the tuning"
          + " guide). PROTO_MESSAGE is the fastest with the Storage Write API: the decoder writes"
          + " the row's protocol buffer bytes straight from the Thrift bytes (the message is"
          + " derived from the table schema at launch, no generated class) and they are sent as"
          + " they are.")
  @Default.Enum("PROTO_MESSAGE")
  @TemplateParameter(
      label = "Format handed to BigQueryIO",
      group = OUTPUT,
      order = 110,
      enumLabels = {
        @EnumLabel(value = "TABLE_ROW", label = "TableRow"),
        @EnumLabel(value = "BEAM_ROW", label = "Beam Row"),
        @EnumLabel(value = "AVRO_GENERIC_RECORD", label = "Avro GenericRecord"),
        @EnumLabel(value = "PROTO_MESSAGE", label = "Protocol buffer bytes, written directly")
      })
  StorageFormat getFormatToStore();

  void setFormatToStore(StorageFormat value);

  @Description(
      "BigQuery write method: STREAMING_INSERTS, STORAGE_WRITE_API (exactly-once) or"
          + " STORAGE_API_AT_LEAST_ONCE.")
  @Default.Enum("STORAGE_API_AT_LEAST_ONCE")
  @TemplateParameter(
      label = "BigQuery write method",
      group = OUTPUT,
      order = 120,
      enumLabels = {
        @EnumLabel(value = "STREAMING_INSERTS", label = "Streaming inserts"),
        @EnumLabel(value = "STORAGE_WRITE_API", label = "Storage Write API, exactly-once"),
        @EnumLabel(value = "STORAGE_API_AT_LEAST_ONCE", label = "Storage Write API, at-least-once")
      })
  WriteMethod getBigQueryWriteMethod();

  void setBigQueryWriteMethod(WriteMethod value);

  @Description(
      "BigQuery table to write events to, as PROJECT:DATASET.TABLE or DATASET.TABLE. With several"
          + " structs (--thriftStructs, --thriftUnion) it holds {struct}, replaced by each struct's"
          + " name in snake_case: PROJECT:DATASET.events_{struct} writes Order to events_order.")
  @Validation.Required
  @TemplateParameter(
      label = "BigQuery output table",
      group = OUTPUT,
      order = 10,
      type = BIGQUERY_TABLE,
      pattern = ParameterPatterns.BIGQUERY_TABLE_SPEC)
  String getOutputTable();

  void setOutputTable(String value);

  @Description(
      "Tables for some or all structs of a many-types job, overriding --outputTable's {struct}:"
          + " comma-separated STRUCT=TABLE pairs, for example"
          + " Order=my-project:shop.orders,Refund=my-project:shop.refunds.")
  @TemplateParameter(
      label = "BigQuery table per struct",
      group = OUTPUT,
      order = 20,
      pattern = ParameterPatterns.TABLE_FOR_STRUCT)
  String getTableForStruct();

  void setTableForStruct(String value);

  @Description(
      "BigQuery table for dead letters (events that could not be decoded, transformed, converted"
          + " or written). Defaults to the output table's name with the suffix _dead_letter.")
  @TemplateParameter(
      label = "BigQuery dead-letter table",
      group = OUTPUT,
      order = 30,
      type = BIGQUERY_TABLE,
      pattern = ParameterPatterns.BIGQUERY_TABLE_SPEC)
  String getDeadLetterTable();

  void setDeadLetterTable(String value);

  @Description(
      "Let the runner choose the number of write shards (BigQueryIO withAutoSharding()). Applies"
          + " to STREAMING_INSERTS and STORAGE_WRITE_API on unbounded input.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Auto-sharding", group = TUNING, order = 10)
  Boolean getEnableBigQueryAutoshard();

  void setEnableBigQueryAutoshard(Boolean value);

  @Description(
      "Hand the rows to the BigQuery write through a Reshuffle, so that the write runs in a thread"
          + " of its own on a runner that would run the read, the decode and the write in one"
          + " (Flink): the read and the decode go on while the at-least-once writer waits for its"
          + " append. Applies only to STORAGE_API_AT_LEAST_ONCE without --primaryKey (a Reshuffle"
          + " may reorder one key's changes). A setting for local mode at saturation, where it"
          + " raised step 8's rate by a few percent and cost about 7% more CPU at a light load. On"
          + " Dataflow it adds a shuffle before the write, which the at-least-once steps are chosen"
          + " to avoid: leave it off there.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Hand-off before the write", group = TUNING, order = 60)
  Boolean getHandOffBeforeWrite();

  void setHandOffBeforeWrite(Boolean value);

  @Description(
      "With --handOffBeforeWrite: how many writers the hand-off deals the rows out to, each behind"
          + " a Reshuffle of its own. BigQueryIO's at-least-once writer keeps one append in flight"
          + " per table and waits for it when a bundle ends; a runner that runs a stage in one"
          + " thread (Flink with parallelism 1, as local mode runs it) runs each writer in a thread"
          + " of its own, so each table then has this many appends in flight while the read and"
          + " the decode still run once. A setting for local mode at saturation, which uses 4"
          + " there: step 8 from Kafka then kept 0.84-0.92 of what a bare client appends on the"
          + " same machine, against 0.59-0.80 with one writer (benchmarks/RESULTS.md section 32)."
          + " Dataflow runs many bundles of a stage at once already: leave it at 1 there.")
  @Default.Integer(1)
  @TemplateParameter(label = "Writers after the hand-off", group = TUNING, order = 61)
  Integer getHandOffWriters();

  void setHandOffWriters(Integer value);

  @Description(
      "Create the output and dead-letter tables from the schema derived from the Thrift class if"
          + " they do not exist. When false, both tables must already exist.")
  @Default.Boolean(true)
  @TemplateParameter(label = "Create the tables", group = OUTPUT, order = 130)
  Boolean getCreateTable();

  void setCreateTable(Boolean value);

  @Description(
      "Time-partition a created output table: DAY, HOUR, MONTH or YEAR. Empty means no"
          + " partitioning.")
  @TemplateParameter(
      label = "Partitioning of a created table",
      group = OUTPUT,
      order = 140,
      pattern = "^(DAY|HOUR|MONTH|YEAR)?$")
  String getPartitionType();

  void setPartitionType(String value);

  @Description(
      "Column to partition a created output table by (a top-level TIMESTAMP column such as"
          + " _publish_time). Empty partitions by ingestion time when --partitionType is set.")
  @TemplateParameter(label = "Partitioning column", group = OUTPUT, order = 150)
  String getPartitionField();

  void setPartitionField(String value);

  @Description(
      "Comma-separated top-level columns (at most 4) to cluster a created output table by.")
  @TemplateParameter(label = "Clustering columns", group = OUTPUT, order = 160)
  String getClusteringFields();

  void setClusteringFields(String value);

  @Description(
      "What launch does when the output table exists with another schema than the IDL's:"
          + " ADD_COLUMNS adds the IDL's new optional fields as NULLABLE (or REPEATED) columns and"
          + " relaxes REQUIRED columns the IDL made optional, logging each change; FAIL refuses any"
          + " difference; NONE does not look. An incompatible change (a type change, a new REQUIRED"
          + " field, a REQUIRED column the IDL dropped) fails the launch with the column-by-column"
          + " difference under ADD_COLUMNS and FAIL.")
  @Default.Enum("ADD_COLUMNS")
  @TemplateParameter(
      label = "Existing table's schema",
      group = DECODING,
      order = 80,
      enumLabels = {
        @EnumLabel(value = "ADD_COLUMNS", label = "Add the IDL's new optional columns"),
        @EnumLabel(value = "FAIL", label = "Fail on any difference"),
        @EnumLabel(value = "NONE", label = "Do not compare")
      })
  SchemaUpdate getSchemaUpdate();

  void setSchemaUpdate(SchemaUpdate value);

  @Description(
      "Keep events that hold fields the IDL does not know (a producer on a newer IDL): their bytes,"
          + " as received, go to a _unknown_fields BYTES column (NULL for other events), so the"
          + " fields can be recovered once the IDL knows them. Skipped fields are counted in the"
          + " unknown_fields metric and named in the log either way.")
  @Default.Boolean(false)
  @TemplateParameter(
      label = "Keep events' bytes when fields are unknown",
      group = DECODING,
      order = 90)
  Boolean getKeepUnknownFields();

  void setKeepUnknownFields(Boolean value);

  @Description(
      "Fully qualified name of a class implementing io.thriftbq.ingest.udf.EventTransform, applied"
          + " to every decoded event before conversion. A class that cannot be loaded fails the"
          + " launch.")
  @TemplateParameter(
      label = "Event transform class",
      group = DECODING,
      order = 100,
      pattern = ParameterPatterns.JAVA_CLASS_NAME)
  String getUdfClassName();

  void setUdfClassName(String value);

  @Description(
      "Dead-letter rows that BigQuery rejects with the original Thrift bytes and the message id,"
          + " publish time and attributes (whatever metadata columns are enabled), instead of the"
          + " rejected row as JSON. Costs every element, failing or not: BigQueryIO builds a"
          + " fail-safe row holding the payload (base64) for each, the Storage API methods"
          + " JSON-encode and decode it, and the payload travels through the write shuffle of"
          + " STORAGE_WRITE_API and STREAMING_INSERTS. Works with every format and every write"
          + " method. With several structs and a Storage API method, it also lets TABLE_ROW and"
          + " AVRO_GENERIC_RECORD write every table with one BigQuery write instead of one per"
          + " struct (a Storage API rejection names no table; the fail-safe row names the struct),"
          + " so an at-least-once bundle waits for its appends once, not once per struct.")
  @Default.Boolean(false)
  @TemplateParameter(
      label = "Keep the Thrift bytes of rows BigQuery rejects",
      group = OUTPUT,
      order = 100)
  Boolean getKeepPayloadForWriteFailures();

  void setKeepPayloadForWriteFailures(Boolean value);

  @Description(
      "Message attribute that holds the event-creation time in epoch milliseconds, used for the"
          + " end-to-end latency metric. Messages without it fall back to the publish time.")
  @Default.String("event_time_ms")
  @TemplateParameter(label = "Event-time attribute", group = OUTPUT, order = 260)
  String getEventTimeAttribute();

  void setEventTimeAttribute(String value);
}
