package io.thriftbq.ingest.plan;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.change.ChangeSpec;
import io.thriftbq.ingest.change.ChangeFlags;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.Source;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.schema.EventTypes;
import java.util.ArrayList;
import java.util.List;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Change mode's launch checks: the flags parsed (thrift-common's {@link ChangeSpec}), every
 * struct's rule checked against its table ({@link ChangeRule#of}), and the combinations BigQuery or
 * BigQueryIO refuse, each problem naming the flag to change.
 */
final class ChangePlanner {
  private ChangePlanner() {}

  /** The change rules, one per struct in {@code types}' order, or null when change mode is off. */
  static @Nullable List<ChangeRule> plan(
      IngestionOptions options,
      @Nullable EventTypes types,
      List<EventSchemas> schemas,
      @Nullable StorageFormat format,
      @Nullable WriteMethod method,
      List<String> problems) {
    if (!ChangeFlags.isOn(options)) {
      for (String flag : ChangeFlags.setWithoutKey(options)) {
        problems.add(flag + " applies in change mode only: set --primaryKey as well, or remove it");
      }
      return null;
    }
    ChangeSpec spec = ChangeFlags.spec(options, problems);
    if (method != null && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      problems.add(
          "--primaryKey (change mode) needs --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE:"
              + " BigQuery applies upserts and deletes only on the Storage Write API's default"
              + " stream, which "
              + method
              + " does not write to");
    }
    if (Boolean.TRUE.equals(options.getUseStorageApiConnectionPool())) {
      problems.add(
          "--useStorageApiConnectionPool=true cannot be used with --primaryKey (change mode):"
              + " the Storage Write API takes no inserts and changes on one connection, and the"
              + " pool shares connections between the event and dead-letter tables; remove it");
    }
    maxStaleness(options, problems);
    if (spec == null) {
      return null;
    }
    Source source = options.getSource();
    if (spec.sequence() instanceof ChangeSpec.SequenceSource.PublishTime
        && source == Source.KAFKA) {
      problems.add(
          "--changeSequence=PUBLISH_TIME is a Pub/Sub publish time; from Kafka use KAFKA_OFFSET"
              + " or field:NAME");
    }
    if (spec.sequence() instanceof ChangeSpec.SequenceSource.KafkaOffset
        && source != Source.KAFKA) {
      problems.add(
          "--changeSequence=KAFKA_OFFSET needs --source=KAFKA; from Pub/Sub use PUBLISH_TIME or"
              + " field:NAME");
    }
    if (spec.sequence() instanceof ChangeSpec.SequenceSource.None
        && format != null
        && format != StorageFormat.PROTO_MESSAGE) {
      problems.add(
          "--changeSequence=NONE works with --formatToStore=PROTO_MESSAGE only: BigQueryIO's row"
              + " mutations for "
              + format
              + " need a sequence; set --changeSequence (PUBLISH_TIME, KAFKA_OFFSET or"
              + " field:NAME) or use PROTO_MESSAGE");
    }
    if (types == null || schemas.contains(null) || schemas.size() != types.types().size()) {
      return null; // the struct problems are reported already
    }
    List<TableSchema> tables = new ArrayList<>();
    for (EventSchemas schema : schemas) {
      tables.add(schema.tableSchema());
    }
    return ChangeFlags.rules(spec, types, tables, problems);
  }

  /**
   * {@code --maxStaleness} as BigQuery's INTERVAL literal ({@code Y-M D H:M:S}), or null when not
   * set ({@link ChangeFlags#maxStaleness}, which the schema exporter uses too).
   */
  static @Nullable String maxStaleness(IngestionOptions options, List<String> problems) {
    return ChangeFlags.maxStaleness(options, problems);
  }
}
