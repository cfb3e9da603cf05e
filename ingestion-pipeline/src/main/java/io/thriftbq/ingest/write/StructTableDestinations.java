package io.thriftbq.ingest.write;

import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.ingest.format.ToTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.DynamicDestinations;
import org.apache.beam.sdk.io.gcp.bigquery.TableDestination;
import org.apache.beam.sdk.values.ValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The destinations of a write to several tables: an element's destination is the table at the index
 * it carries ({@link ToTable}); each table has its schema, partitioning and clustering, fixed at
 * launch. Holds the schemas as JSON (BigQuery's model classes are not serializable) and parses each
 * once per deserialized instance.
 *
 * <p>The destination is the table's name, not its index: BigQueryIO caches each destination's
 * Storage API message converter JVM-wide, by step name and destination, so an index would let two
 * pipelines run in one JVM (tests, local mode) with different tables share a converter.
 *
 * @param <E> the element type
 */
final class StructTableDestinations<E> extends DynamicDestinations<ToTable<E>, String> {
  private static final long serialVersionUID = 1L;

  private final List<String> tables;
  private final List<String> schemasJson;
  private final List<@Nullable String> partitioningJson;
  private final List<@Nullable String> clusteringJson;
  private transient @Nullable List<TableSchema> schemas;

  private StructTableDestinations(
      List<String> tables,
      List<String> schemasJson,
      List<@Nullable String> partitioningJson,
      List<@Nullable String> clusteringJson) {
    this.tables = tables;
    this.schemasJson = schemasJson;
    this.partitioningJson = partitioningJson;
    this.clusteringJson = clusteringJson;
  }

  /**
   * @param settings each table's settings (its table and layout are used), by index
   * @param schemas each table's schema, by index
   */
  static <E> StructTableDestinations<E> of(
      List<WriteSettings> settings, List<TableSchema> schemas) {
    List<String> tables = new ArrayList<>();
    List<String> schemasJson = new ArrayList<>();
    List<@Nullable String> partitioning = new ArrayList<>();
    List<@Nullable String> clustering = new ArrayList<>();
    for (int i = 0; i < settings.size(); i++) {
      TableLayout layout = settings.get(i).layout();
      tables.add(settings.get(i).table());
      schemasJson.add(BigQueryHelpers.toJsonString(schemas.get(i)));
      partitioning.add(
          layout.timePartitioning() == null
              ? null
              : BigQueryHelpers.toJsonString(layout.timePartitioning()));
      clustering.add(
          layout.clustering() == null ? null : BigQueryHelpers.toJsonString(layout.clustering()));
    }
    return new StructTableDestinations<>(tables, schemasJson, partitioning, clustering);
  }

  @Override
  public String getDestination(@Nullable ValueInSingleWindow<ToTable<E>> element) {
    if (element == null) {
      throw new IllegalArgumentException("no element to find the table of");
    }
    return tables.get(element.getValue().table());
  }

  @Override
  public Coder<String> getDestinationCoder() {
    return StringUtf8Coder.of();
  }

  @Override
  public TableDestination getTable(String table) {
    int index = indexOf(table);
    return new TableDestination(
        table, null, partitioningJson.get(index), clusteringJson.get(index));
  }

  @Override
  public TableSchema getSchema(String table) {
    if (schemas == null) {
      List<TableSchema> parsed = new ArrayList<>();
      for (String json : schemasJson) {
        parsed.add(BigQueryHelpers.fromJsonString(json, TableSchema.class));
      }
      schemas = parsed;
    }
    return schemas.get(indexOf(table));
  }

  private int indexOf(String table) {
    int index = tables.indexOf(table);
    if (index < 0) {
      throw new IllegalArgumentException(table + " is not one of this write's tables " + tables);
    }
    return index;
  }
}
