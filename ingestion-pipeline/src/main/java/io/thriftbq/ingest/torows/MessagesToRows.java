package io.thriftbq.ingest.torows;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.udf.EventTransforms;
import io.thriftbq.schema.EventTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
 * Turns messages (Pub/Sub or Kafka) holding one serialized Thrift event each into the sink's
 * elements: routes each to its type ({@link EventRouter}), has the type's converter ({@code
 * convert}, where Thrift is decoded) make its row, applying the optional user function and, in
 * change mode, the type's change rule. Failures go to the dead-letter output with stage ROUTE,
 * DECODE, TRANSFORM, CONVERT or CHANGE and the original bytes; one output per type. Routing and
 * conversion are one step, so the message is looked at once.
 *
 * <p>The {@link EventSink} fixes the element type once: the format's rows, or each row with its
 * message for {@code --keepPayloadForWriteFailures}; the write takes the same sink, so both sides
 * agree on the type, and the default path builds no wrapper.
 *
 * @param <R> the row type of the format
 * @param <E> the element type (see {@link EventSink})
 */
public final class MessagesToRows<R, E>
    extends PTransform<PCollection<EventMessage>, RowsAndDeadLetters<E>> {
  private final EventSink<R, E> sink;
  private final List<RowTarget> targets;
  private final EventRouter router;
  private final @Nullable String udfClassName;
  private final @Nullable String eventTimeAttribute;

  private MessagesToRows(
      EventSink<R, E> sink,
      List<RowTarget> targets,
      EventRouter router,
      @Nullable String udfClassName,
      @Nullable String eventTimeAttribute) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.targets = List.copyOf(targets);
    this.router = Objects.requireNonNull(router, "router");
    this.udfClassName = udfClassName;
    this.eventTimeAttribute = eventTimeAttribute;
  }

  /**
   * Turns messages of one type, converted with {@code converterConfig}, into {@code sink}'s
   * elements.
   */
  public static <R, E> MessagesToRows<R, E> into(
      EventSink<R, E> sink, ConverterConfig converterConfig) {
    EventTypes single = EventTypes.single(converterConfig.source());
    return new MessagesToRows<>(
        sink,
        List.of(new RowTarget(single.types().get(0).name(), "", converterConfig)),
        EventRouter.of(single, converterConfig.protocol()),
        null,
        null);
  }

  /**
   * Routes with {@code router} and converts into the elements of {@code sink}, one output per
   * target, in the router's type order.
   */
  public static <R, E> MessagesToRows<R, E> routing(
      EventSink<R, E> sink, EventRouter router, List<RowTarget> targets) {
    return new MessagesToRows<>(sink, targets, router, null, null);
  }

  /** Applies the {@code EventTransform} class {@code className}; null or empty means none. */
  public MessagesToRows<R, E> withUdfClassName(@Nullable String className) {
    String udf = className == null || className.isBlank() ? null : className.trim();
    return new MessagesToRows<>(sink, targets, router, udf, eventTimeAttribute);
  }

  /** Attribute holding the event-creation time in epoch milliseconds; null uses publish time. */
  public MessagesToRows<R, E> withEventTimeAttribute(@Nullable String attribute) {
    String name = attribute == null || attribute.isBlank() ? null : attribute;
    return new MessagesToRows<>(sink, targets, router, udfClassName, name);
  }

  @Override
  public void validate(@Nullable PipelineOptions options) {
    if (udfClassName != null) {
      // Fail construction, not the first bundle on a worker, when the function cannot be loaded.
      EventTransforms.load(udfClassName);
    }
  }

  @Override
  public RowsAndDeadLetters<E> expand(PCollection<EventMessage> messages) {
    checkArgument(!targets.isEmpty(), "MessagesToRows needs at least one target");
    checkArgument(
        router.routes() || targets.size() == 1,
        "%s targets but a router that does not route",
        targets.size());
    List<TupleTag<TimestampedValue<E>>> rowsTags = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      rowsTags.add(new TupleTag<>("rows" + (i == 0 ? "" : "_" + i)) {});
    }
    TupleTag<DeadLetter> deadLettersTag = new TupleTag<>("deadLetters") {};
    TupleTagList others = TupleTagList.of(deadLettersTag);
    for (int i = 1; i < rowsTags.size(); i++) {
      others = others.and(rowsTags.get(i));
    }
    PCollectionTuple outputs =
        messages.apply(
            "DecodeThrift",
            ParDo.of(
                    new MessagesToRowsFn<>(
                        sink,
                        targets,
                        router,
                        udfClassName,
                        eventTimeAttribute,
                        rowsTags,
                        deadLettersTag))
                .withOutputTags(rowsTags.get(0), others));
    List<PCollection<TimestampedValue<E>>> rows = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      rows.add(
          outputs
              .get(rowsTags.get(i))
              .setCoder(
                  TimestampedValue.TimestampedValueCoder.of(
                      sink.coder(targets.get(i).config().schemas()))));
    }
    PCollection<DeadLetter> deadLetters =
        outputs.get(deadLettersTag).setCoder(DeadLetterCoder.of());
    return new RowsAndDeadLetters<>(
        messages.getPipeline(), rowsTags, rows, deadLettersTag, deadLetters);
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    ConverterConfig first = targets.get(0).config();
    builder
        .add(
            DisplayData.item(
                "thriftStruct",
                targets.size() == 1
                    ? first.source().describe()
                    : String.join(",", targets.stream().map(RowTarget::struct).toList())))
        .add(DisplayData.item("thriftProtocol", first.protocol().name()))
        .add(DisplayData.item("formatToStore", sink.format().id().name()))
        .add(DisplayData.item("keepPayloadForWriteFailures", sink.keepsPayload()))
        .addIfNotNull(DisplayData.item("udfClassName", udfClassName));
  }
}
