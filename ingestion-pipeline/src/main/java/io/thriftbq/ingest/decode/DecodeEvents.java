package io.thriftbq.ingest.decode;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.udf.EventTransforms;
import io.thriftbq.ingest.write.RowWithPayload;
import io.thriftbq.ingest.write.RowWithPayloadCoder;
import org.apache.beam.sdk.coders.Coder;
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
 * Decodes Pub/Sub messages holding one serialized Thrift event each into rows of the chosen format,
 * applying the optional user function; failures go to the dead-letter output with stage DECODE,
 * TRANSFORM or CONVERT and the original bytes.
 *
 * <p>{@link #of} emits the rows themselves; {@link #keepingPayload} emits each row with the payload
 * and metadata of its message ({@link RowWithPayload}), for {@code --keepPayloadForWriteFailures}.
 * The choice is made once, at construction, so the default path builds no wrapper.
 *
 * @param <T> the element type: the row (TableRow, Row or GenericRecord, matching the format), or
 *     {@link RowWithPayload} of it
 */
public final class DecodeEvents<T> extends PTransform<PCollection<PubsubMessage>, DecodeResult<T>> {
  private final ConverterConfig converterConfig;
  private final StorageFormat format;

  /** The coder of the emitted elements: the row coder, or a {@link RowWithPayloadCoder} of it. */
  private final Coder<T> elementCoder;

  private final boolean keepPayload;
  private final @Nullable String udfClassName;
  private final @Nullable String eventTimeAttribute;
  private final String eventTable;

  private DecodeEvents(
      ConverterConfig converterConfig,
      StorageFormat format,
      Coder<T> elementCoder,
      boolean keepPayload,
      @Nullable String udfClassName,
      @Nullable String eventTimeAttribute,
      String eventTable) {
    this.converterConfig = converterConfig;
    this.format = format;
    this.elementCoder = elementCoder;
    this.keepPayload = keepPayload;
    this.udfClassName = udfClassName;
    this.eventTimeAttribute = eventTimeAttribute;
    this.eventTable = eventTable;
  }

  /**
   * Decodes with {@code converterConfig} into {@code format}, whose row coder is {@code rowCoder}
   * (see {@code EventSchemas#coderFor}).
   */
  public static <T> DecodeEvents<T> of(
      ConverterConfig converterConfig, StorageFormat format, Coder<T> rowCoder) {
    return new DecodeEvents<>(converterConfig, format, rowCoder, false, null, null, "");
  }

  /**
   * Like {@link #of}, but each row travels with its message's payload and metadata, so that the
   * write can dead-letter a row BigQuery rejects with the original bytes. Costs one small object
   * per row here and more in the write (see {@code WriteEventsToBigQuery}).
   */
  public static <R> DecodeEvents<RowWithPayload<R>> keepingPayload(
      ConverterConfig converterConfig, StorageFormat format, Coder<R> rowCoder) {
    return new DecodeEvents<>(
        converterConfig, format, RowWithPayloadCoder.of(rowCoder), true, null, null, "");
  }

  /** Applies the {@code EventTransform} class {@code className}; null or empty means none. */
  public DecodeEvents<T> withUdfClassName(@Nullable String className) {
    String udf = className == null || className.isBlank() ? null : className.trim();
    return new DecodeEvents<>(
        converterConfig, format, elementCoder, keepPayload, udf, eventTimeAttribute, eventTable);
  }

  /** Attribute holding the event-creation time in epoch milliseconds; null uses publish time. */
  public DecodeEvents<T> withEventTimeAttribute(@Nullable String attribute) {
    String name = attribute == null || attribute.isBlank() ? null : attribute;
    return new DecodeEvents<>(
        converterConfig, format, elementCoder, keepPayload, udfClassName, name, eventTable);
  }

  /** The output table, recorded in each dead letter's event_table column. */
  public DecodeEvents<T> withEventTable(String table) {
    return new DecodeEvents<>(
        converterConfig,
        format,
        elementCoder,
        keepPayload,
        udfClassName,
        eventTimeAttribute,
        table);
  }

  @Override
  public void validate(@Nullable PipelineOptions options) {
    if (udfClassName != null) {
      // Fail construction, not the first bundle on a worker, when the function cannot be loaded.
      EventTransforms.load(udfClassName);
    }
  }

  @Override
  public DecodeResult<T> expand(PCollection<PubsubMessage> messages) {
    checkArgument(elementCoder != null, "DecodeEvents needs the row coder");
    TupleTag<TimestampedValue<T>> rowsTag = new TupleTag<>("rows") {};
    TupleTag<DeadLetter> deadLettersTag = new TupleTag<>("deadLetters") {};
    PCollectionTuple outputs =
        messages.apply(
            "DecodeThrift",
            ParDo.of(
                    new DecodeEventsFn<>(
                        converterConfig,
                        format,
                        keepPayload,
                        udfClassName,
                        eventTimeAttribute,
                        eventTable,
                        rowsTag,
                        deadLettersTag))
                .withOutputTags(rowsTag, TupleTagList.of(deadLettersTag)));
    PCollection<TimestampedValue<T>> rows =
        outputs.get(rowsTag).setCoder(TimestampedValue.TimestampedValueCoder.of(elementCoder));
    PCollection<DeadLetter> deadLetters =
        outputs.get(deadLettersTag).setCoder(DeadLetterCoder.of());
    return new DecodeResult<>(messages.getPipeline(), rowsTag, rows, deadLettersTag, deadLetters);
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder
        .add(DisplayData.item("thriftClassName", converterConfig.thriftClassName()))
        .add(DisplayData.item("thriftProtocol", converterConfig.protocol().name()))
        .add(DisplayData.item("formatToStore", format.name()))
        .add(DisplayData.item("keepPayloadForWriteFailures", keepPayload))
        .addIfNotNull(DisplayData.item("udfClassName", udfClassName));
  }
}
