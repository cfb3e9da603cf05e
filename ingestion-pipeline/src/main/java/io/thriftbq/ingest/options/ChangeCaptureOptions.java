package io.thriftbq.ingest.options;

import static io.thriftbq.ingest.options.TemplateGroups.OUTPUT;

import io.thriftbq.template.TemplateParameter;
import java.util.List;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Change mode (BigQuery change data capture): the primary key, where each event's change type and
 * sequence come from, and the table's staleness. Shared by the pipeline and the schema exporter, so
 * that an exported table carries the job's key. The syntax is parsed by thrift-common's {@code
 * io.thriftbq.change.ChangeSpec}, which the generator uses too.
 */
public interface ChangeCaptureOptions extends PipelineOptions {
  @Description(
      "Change mode: the primary key that upserts and deletes apply to, as top-level IDL fields,"
          + " comma-separated (for example id, or tenant_id,order_id), or one key per struct of a"
          + " many-types job as Struct=col[,col];Struct2=col. Turns on BigQuery change data"
          + " capture: each event becomes an UPSERT or a DELETE of its key's row, so duplicates"
          + " collapse and change events update rows. Needs"
          + " --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE (BigQuery applies changes on the"
          + " default stream only). Key fields must be top-level, not repeated, of a type that maps"
          + " to INT64, STRING or BOOLEAN, at most 16; an event without a key value is a CHANGE dead"
          + " letter. Created tables declare the key (PRIMARY KEY NOT ENFORCED); an existing table"
          + " must already declare the same key. Empty: append-only rows.")
  @TemplateParameter(
      label = "Primary key (change mode)",
      group = OUTPUT,
      order = 40,
      pattern =
          "^([A-Za-z_][A-Za-z0-9_.]*=)?[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*"
              + "(;[A-Za-z_][A-Za-z0-9_.]*=[A-Za-z_][A-Za-z0-9_]*"
              + "(,[A-Za-z_][A-Za-z0-9_]*)*)*$")
  String getPrimaryKey();

  void setPrimaryKey(String value);

  @Description(
      "Change mode: where each event's change type comes from. UPSERT (the default) makes every"
          + " event an upsert; field:NAME reads a top-level string or enum field; attribute:NAME"
          + " reads a Pub/Sub attribute or a Kafka header (header:NAME is the same). The values are"
          + " mapped with --upsertValues and --deleteValues; an event whose value is missing or"
          + " neither is a CHANGE dead letter.")
  @TemplateParameter(
      label = "Change type (change mode)",
      group = OUTPUT,
      order = 50,
      pattern = "^(UPSERT|(field|attribute|header):.+)$")
  String getChangeType();

  void setChangeType(String value);

  @Description(
      "Change mode: the values of --changeType that mean an upsert, comma-separated, matched"
          + " exactly. Default: UPSERT,INSERT,UPDATE.")
  @TemplateParameter(label = "Change type values meaning upsert", group = OUTPUT, order = 60)
  List<String> getUpsertValues();

  void setUpsertValues(List<String> value);

  @Description(
      "Change mode: the values of --changeType that mean a delete, comma-separated, matched"
          + " exactly. Default: DELETE.")
  @TemplateParameter(label = "Change type values meaning delete", group = OUTPUT, order = 70)
  List<String> getDeleteValues();

  void setDeleteValues(List<String> value);

  @Description(
      "Change mode: what orders the changes to one key (BigQuery's _CHANGE_SEQUENCE_NUMBER; an"
          + " older change never replaces a newer one). NONE (the default): the order BigQuery"
          + " ingests them in. PUBLISH_TIME: the Pub/Sub publish time (milliseconds; Pub/Sub only)."
          + " KAFKA_OFFSET: the record's offset (Kafka only), which orders records within one"
          + " partition only, so the producer must partition by the primary key. field:NAME: a"
          + " top-level integer field (a version; negative values order before positive ones), a"
          + " timestamp field, or a string field holding a BigQuery sequence number (up to four"
          + " sections of hex digits separated by /); an event without it, or with a malformed"
          + " string, is a CHANGE dead letter.")
  @TemplateParameter(
      label = "Change sequence (change mode)",
      group = OUTPUT,
      order = 80,
      pattern = "^(NONE|PUBLISH_TIME|KAFKA_OFFSET|field:.+)$")
  String getChangeSequence();

  void setChangeSequence(String value);

  @Description(
      "Change mode: the max_staleness of a created table, as an ISO-8601 duration (PT15M, PT1H,"
          + " P1D). BigQuery applies queued changes in the background at most this often and"
          + " merges the rest at query time: a longer staleness costs less background work and"
          + " serves older, cheaper reads. Empty: BigQuery's default (changes merged at query"
          + " time, the most expensive reads).")
  @TemplateParameter(
      label = "Table max_staleness (change mode)",
      group = OUTPUT,
      order = 90,
      pattern = "^P.+$")
  String getMaxStaleness();

  void setMaxStaleness(String value);
}
