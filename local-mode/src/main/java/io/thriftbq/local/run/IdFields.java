package io.thriftbq.local.run;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/** {@code --id-field}: a field of the struct whose generated values the report checks. */
final class IdFields {
  private IdFields() {}

  /**
   * The value of {@code path} (dotted) in generated event {@code n}, as the event table holds it:
   * decoded by the pipeline's own TABLE_ROW converter.
   *
   * @throws IllegalArgumentException when the path names no non-repeated field of the struct
   */
  static LongFunction<String> of(RandomEventGenerator generator, String path) {
    ConverterConfig config =
        ConverterConfig.of(
                generator.config().source(), generator.config().protocol(), MetadataColumns.NONE)
            .withRules(
                io.thriftbq.ingest.options.UnknownEnumValues.KEEP,
                io.thriftbq.ingest.options.InvalidUtf8.REPLACE);
    String[] parts = path.split("\\.");
    checkIdPath(config.schemas().tableSchema().getFields(), parts, 0, path);
    EventConverter<TableRow> rows = Converters.tableRows(config);
    // Its own generator: the publisher's is not to be shared between threads.
    RandomEventGenerator events = new RandomEventGenerator(generator.config());
    return n -> {
      try {
        Object value = rows.fromBytes(events.serialize(n), EventMetadata.EMPTY);
        for (String part : parts) {
          value = value == null ? null : ((Map<?, ?>) value).get(part);
        }
        return String.valueOf(value);
      } catch (ThriftDecodeException e) {
        throw new IllegalStateException("generated event " + n + " does not decode", e);
      }
    };
  }

  private static void checkIdPath(
      List<TableFieldSchema> fields, String[] parts, int index, String path) {
    TableFieldSchema field =
        fields.stream()
            .filter(f -> f.getName().equals(parts[index]))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--id-field=" + path + ": the struct has no field " + parts[index]));
    if ("REPEATED".equals(field.getMode())) {
      throw new IllegalArgumentException(
          "--id-field=" + path + ": " + parts[index] + " is repeated; name a single value");
    }
    boolean record = "RECORD".equals(field.getType());
    if (index == parts.length - 1 && record) {
      throw new IllegalArgumentException(
          "--id-field=" + path + " is a struct; name one of its scalar fields");
    }
    if (index < parts.length - 1) {
      if (!record) {
        throw new IllegalArgumentException(
            "--id-field=" + path + ": " + parts[index] + " has no fields");
      }
      checkIdPath(field.getFields(), parts, index + 1, path);
    }
  }
}
