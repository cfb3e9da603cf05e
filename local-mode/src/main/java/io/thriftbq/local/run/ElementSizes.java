package io.thriftbq.local.run;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.ingest.schema.EventSchemas;
import java.util.List;
import java.util.Map;
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
    IngestionPlan plan = IngestionPlan.of(options, IngestionPlan.Input.PUBSUB);
    try {
      return mean(plan.sink(), plan.decoding(), plan.schemas(), generator, events);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot measure the encoded elements: " + e, e);
    }
  }

  private static <R, E> double mean(
      EventSink<R, E> sink,
      ConverterConfig decoding,
      EventSchemas schemas,
      RandomEventGenerator generator,
      int events)
      throws Exception {
    EventConverter<R> converter = sink.format().newConverter(decoding);
    Coder<E> coder = sink.coder(schemas);
    long total = 0;
    long now = System.currentTimeMillis();
    for (int i = 0; i < events; i++) {
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
