package io.thriftbq.ingest.options;

import static io.thriftbq.ingest.options.TemplateGroups.OUTPUT;

import io.thriftbq.template.TemplateParameter;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The switches for the optional metadata columns: what the source said about each message. Shared
 * by the pipeline and the schema exporter, so that an exported schema matches the job's table.
 */
public interface MetadataOptions extends PipelineOptions {
  @Description("Add the Pub/Sub message id as the STRING column _message_id. Pub/Sub only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the message id column", group = OUTPUT, order = 170)
  Boolean getIncludePubsubMessageId();

  void setIncludePubsubMessageId(Boolean value);

  @Description("Add the Pub/Sub publish time as the TIMESTAMP column _publish_time. Pub/Sub only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the publish time column", group = OUTPUT, order = 180)
  Boolean getIncludePublishTime();

  void setIncludePublishTime(Boolean value);

  @Description(
      "Add the Pub/Sub message attributes as the column _attributes (REPEATED RECORD of key,"
          + " value). Pub/Sub only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the attributes column", group = OUTPUT, order = 190)
  Boolean getIncludeAttributes();

  void setIncludeAttributes(Boolean value);

  @Description("Add the Kafka record's topic as the STRING column _kafka_topic. Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka topic column", group = OUTPUT, order = 200)
  Boolean getIncludeKafkaTopic();

  void setIncludeKafkaTopic(Boolean value);

  @Description("Add the Kafka record's partition as the INT64 column _kafka_partition. Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka partition column", group = OUTPUT, order = 210)
  Boolean getIncludeKafkaPartition();

  void setIncludeKafkaPartition(Boolean value);

  @Description(
      "Add the Kafka record's offset as the INT64 column _kafka_offset; with topic and partition"
          + " it names the record. Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka offset column", group = OUTPUT, order = 220)
  Boolean getIncludeKafkaOffset();

  void setIncludeKafkaOffset(Boolean value);

  @Description(
      "Add the Kafka record's key as the BYTES column _kafka_key (NULL for a record without one)."
          + " Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka key column", group = OUTPUT, order = 230)
  Boolean getIncludeKafkaKey();

  void setIncludeKafkaKey(Boolean value);

  @Description(
      "Add the Kafka record's timestamp (its CreateTime or LogAppendTime, as the topic keeps it)"
          + " as the TIMESTAMP column _kafka_timestamp. Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka timestamp column", group = OUTPUT, order = 240)
  Boolean getIncludeKafkaTimestamp();

  void setIncludeKafkaTimestamp(Boolean value);

  @Description(
      "Add the Kafka record's headers as the column _kafka_headers (REPEATED RECORD of key, value;"
          + " values read as UTF-8, a repeated key keeps its last value). Kafka only.")
  @Default.Boolean(false)
  @TemplateParameter(label = "Add the Kafka headers column", group = OUTPUT, order = 250)
  Boolean getIncludeKafkaHeaders();

  void setIncludeKafkaHeaders(Boolean value);
}
