package io.thriftbq.ingest.decode;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.udf.EventTransforms;
import java.util.Objects;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Decodes Pub/Sub messages holding one serialized Thrift event each into the sink's elements,
 * applying the optional user function; failures go to the dead-letter output with stage DECODE,
 * TRANSFORM or CONVERT and the original bytes.
 *
 * <p>The {@link EventSink} fixes the element type once: the format's rows, or each row with its
 * message for {@code --keepPayloadForWriteFailures}; the write takes the same sink, so both sides
 * agree on the type, and the default path builds no wrapper.
 *
 * @param <R> the row type of the format
 * @param <E> the element type (see {@link EventSink})
 */
public final class DecodeEvents<R, E>
    extends PTransform<PCollection<PubsubMessage>, DecodeResult<E>> {
  private final EventSink<R, E> sink;
  private final ConverterConfig converterConfig;
  private final @Nullable String udfClassName;
  private final @Nullable String eventTimeAttribute;

  private DecodeEvents(
      EventSink<R, E> sink,
      ConverterConfig converterConfig,
      @Nullable String udfClassName,
      @Nullable String eventTimeAttribute) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.converterConfig = Objects.requireNonNull(converterConfig, "converterConfig");
    this.udfClassName = udfClassName;
    this.eventTimeAttribute = eventTimeAttribute;
  }

  /** Decodes with {@code converterConfig} into the elements of {@code sink}. */
  public static <R, E> DecodeEvents<R, E> into(
      EventSink<R, E> sink, ConverterConfig converterConfig) {
    return new DecodeEvents<>(sink, converterConfig, null, null);
  }

  /** Applies the {@code EventTransform} class {@code className}; null or empty means none. */
  public DecodeEvents<R, E> withUdfClassName(@Nullable String className) {
    String udf = className == null || className.isBlank() ? null : className.trim();
    return new DecodeEvents<>(sink, converterConfig, udf, eventTimeAttribute);
  }

  /** Attribute holding the event-creation time in epoch milliseconds; null uses publish time. */
  public DecodeEvents<R, E> withEventTimeAttribute(@Nullable String attribute) {
    String name = attribute == null || attribute.isBlank() ? null : attribute;
    return new DecodeEvents<>(sink, converterConfig, udfClassName, name);
  }

  @Override
  public void validate(@Nullable PipelineOptions options) {
    if (udfClassName != null) {
      // Fail construction, not the first bundle on a worker, when the function cannot be loaded.
      EventTransforms.load(udfClassName);
    }
  }

  @Override
  public DecodeResult<E> expand(PCollection<PubsubMessage> messages) {
    TupleTag<TimestampedValue<E>> rowsTag = new TupleTag<>("rows") {};
    TupleTag<DeadLetter> deadLettersTag = new TupleTag<>("deadLetters") {};
    PCollectionTuple outputs =
        messages.apply(
            "DecodeThrift",
            ParDo.of(
                    new DecodeEventsFn<>(
                        sink,
                        converterConfig,
                        udfClassName,
                        eventTimeAttribute,
                        rowsTag,
                        deadLettersTag))
                .withOutputTags(rowsTag, TupleTagList.of(deadLettersTag)));
    PCollection<TimestampedValue<E>> rows =
        outputs
            .get(rowsTag)
            .setCoder(
                TimestampedValue.TimestampedValueCoder.of(sink.coder(converterConfig.schemas())));
    PCollection<DeadLetter> deadLetters =
        outputs.get(deadLettersTag).setCoder(DeadLetterCoder.of());
    return new DecodeResult<>(messages.getPipeline(), rowsTag, rows, deadLettersTag, deadLetters);
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder
        .add(DisplayData.item("thriftStruct", converterConfig.source().describe()))
        .add(DisplayData.item("thriftProtocol", converterConfig.protocol().name()))
        .add(DisplayData.item("formatToStore", sink.format().id().name()))
        .add(DisplayData.item("keepPayloadForWriteFailures", sink.keepsPayload()))
        .addIfNotNull(DisplayData.item("udfClassName", udfClassName));
  }
}
