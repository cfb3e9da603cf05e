package io.thriftbq.local.run;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.ingest.schema.EventSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.CoderUtils;

/**
 * The mean encoded size of the elements a run hands to BigQueryIO: the generated events converted
 * by the run's own plan (its format, metadata columns and payload keeping) and encoded with the
 * coder the pipeline gives that collection, which is what crosses a shuffle on any runner.
 */
final class ElementSizes {
  private ElementSizes() {}

  static double meanEncodedBytes(
      List<String> ingestionArgs, RandomEventGenerator generator, int events) {
    IngestionOptions options =
        PipelineOptionsFactory.fromArgs(ingestionArgs.toArray(new String[0]))
            .as(IngestionOptions.class);
    IngestionPlan plan = IngestionPlan.of(options, IngestionPlan.Input.SOURCE);
    try {
      return mean(plan.sink(), plan.decoding(), plan.schemas(), generator, events);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot measure the encoded elements: " + e, e);
    }
  }

  /**
   * With many event types: each of the first {@code events} generated events converted by the plan
   * of its own struct (a single-struct plan with the run's other flags) and encoded; the mean over
   * all of them, so each struct weighs by its share of the events.
   */
  static double meanEncodedBytes(List<String> ingestionArgs, EventMix mix, int events) {
    long total = 0;
    for (int type = 0; type < mix.size(); type++) {
      List<String> args = new ArrayList<>();
      for (String arg : ingestionArgs) {
        if (arg.startsWith(PRIMARY_KEY)) {
          // Change mode: the struct's own key, as the single-struct plan takes it.
          args.add(PRIMARY_KEY + keyOf(arg.substring(PRIMARY_KEY.length()), mix.name(type)));
        } else if (!arg.startsWith("--thriftStructs=")
            && !arg.startsWith("--thriftUnion=")
            && !arg.startsWith("--structAttribute=")
            && !arg.startsWith("--outputTable=")) {
          args.add(arg);
        }
      }
      args.add("--thriftStruct=" + mix.type(type).qualifiedName());
      args.add("--outputTable=local-project:local_dataset.measure_" + mix.type(type).tableName());
      IngestionOptions options =
          PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(IngestionOptions.class);
      // The bare struct: a union-wrapped event decodes as the union, not as its member.
      RandomEventGenerator generator = new RandomEventGenerator(mix.generator(type).config());
      int chosen = type;
      IngestionPlan plan = IngestionPlan.of(options, IngestionPlan.Input.SOURCE);
      try {
        total +=
            Math.round(
                mean(
                        plan.sink(),
                        plan.decoding(),
                        plan.schemas(),
                        generator,
                        events,
                        n -> mix.chooseType(n) == chosen)
                    * events);
      } catch (Exception e) {
        throw new IllegalStateException("Cannot measure the encoded elements: " + e, e);
      }
    }
    return total / (double) events;
  }

  private static final String PRIMARY_KEY = "--primaryKey=";

  /** {@code struct}'s key columns in a {@code --primaryKey} value, comma-separated. */
  private static String keyOf(String primaryKey, String struct) {
    List<String> problems = new ArrayList<>();
    io.thriftbq.change.ChangeSpec spec =
        io.thriftbq.change.ChangeSpec.parse(primaryKey, null, null, null, null, problems);
    if (spec == null) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return String.join(",", spec.keyOf(struct));
  }

  private static <R, E> double mean(
      EventSink<R, E> sink,
      ConverterConfig decoding,
      EventSchemas schemas,
      RandomEventGenerator generator,
      int events)
      throws Exception {
    return mean(sink, decoding, schemas, generator, events, n -> true);
  }

  /** The summed size of the included events among the first {@code events}, over {@code events}. */
  private static <R, E> double mean(
      EventSink<R, E> sink,
      ConverterConfig decoding,
      EventSchemas schemas,
      RandomEventGenerator generator,
      int events,
      LongPredicate included)
      throws Exception {
    EventConverter<R> converter = sink.format().newConverter(decoding);
    Coder<E> coder = sink.coder(schemas);
    long total = 0;
    long now = System.currentTimeMillis();
    for (int i = 0; i < events; i++) {
      if (!included.test(i)) {
        continue;
      }
      byte[] payload = generator.serialize(i);
      EventMetadata metadata =
          new EventMetadata(
              Long.toString(1_000_000_000L + i),
              now,
              Map.of(
                  EventAttributes.EVENT_ID,
                  Long.toString(i),
                  EventAttributes.EVENT_TIME_MS,
                  Long.toString(now)));
      E element = sink.element(converter.fromBytes(payload, metadata), payload, metadata);
      total += encodedLength(coder, element);
    }
    return total / (double) events;
  }

  private static <E> int encodedLength(Coder<E> coder, E element) throws CoderException {
    return CoderUtils.encodeToByteArray(coder, element).length;
  }
}
