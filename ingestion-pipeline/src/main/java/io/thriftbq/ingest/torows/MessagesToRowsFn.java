package io.thriftbq.ingest.torows;

import io.thriftbq.ingest.change.Change;
import io.thriftbq.ingest.change.ChangeException;
import io.thriftbq.ingest.change.ChangeRule;
import io.thriftbq.ingest.change.ColumnReader;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.convert.UnknownFields;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.read.EventMessage;
import io.thriftbq.ingest.route.EventRouter;
import io.thriftbq.ingest.route.UnroutableException;
import io.thriftbq.ingest.udf.EventTransform;
import io.thriftbq.ingest.udf.EventTransforms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.thrift.TBase;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hot path: one message (Pub/Sub or Kafka) in, one element (or one dead letter, or nothing if
 * the user function filters the event) out. In a many-types job the message is routed first, to the
 * output of its type. The converters and the user function are built once per DoFn instance in
 * {@link #setup()}; nothing is allocated per element beyond the row itself (and, when the sink
 * keeps payloads, the {@code RowWithPayload} around it; for a union, the member's bytes).
 *
 * @param <R> the row type of the format
 * @param <E> the element type (see {@link EventSink})
 */
final class MessagesToRowsFn<R, E> extends DoFn<EventMessage, TimestampedValue<E>> {
  private static final Logger LOG = LoggerFactory.getLogger(MessagesToRowsFn.class);

  private final EventSink<R, E> sink;
  private final List<RowTarget> targets;
  private final EventRouter router;
  private final @Nullable String udfClassName;
  private final @Nullable String eventTimeAttribute;
  private final List<TupleTag<TimestampedValue<E>>> rowsTags;
  private final TupleTag<DeadLetter> deadLettersTag;

  private final Counter decoded = IngestionMetrics.counter(IngestionMetrics.DECODED);
  private final Counter filtered = IngestionMetrics.counter(IngestionMetrics.FILTERED);
  private final Counter failedRoute = IngestionMetrics.failed(Stage.ROUTE);
  private final Counter failedDecode = IngestionMetrics.failed(Stage.DECODE);
  private final Counter failedTransform = IngestionMetrics.failed(Stage.TRANSFORM);
  private final Counter failedConvert = IngestionMetrics.failed(Stage.CONVERT);
  private final Counter failedChange = IngestionMetrics.failed(Stage.CHANGE);
  private final Counter unknownEnumValues =
      IngestionMetrics.counter(IngestionMetrics.UNKNOWN_ENUM_VALUES);
  private final Counter invalidUtf8Replaced =
      IngestionMetrics.counter(IngestionMetrics.INVALID_UTF8_REPLACED);
  private final Counter unknownFields = IngestionMetrics.counter(IngestionMetrics.UNKNOWN_FIELDS);

  /** Per-struct counters of a many-types job, by type index; null in a single-type job. */
  private final @Nullable StructCounters[] byType;

  /** Unknown fields are named in the log at most once per this interval per DoFn instance. */
  private static final long UNKNOWN_FIELDS_LOG_INTERVAL_MILLIS = 60_000;

  private transient long lastUnknownFieldsLogMillis;
  private transient java.util.@Nullable Map<String, Long> unknownFieldsSinceLog;

  private transient List<EventConverter<R>> converters;
  private transient @Nullable ColumnReader<R> columns;
  private transient @Nullable EventTransform udf;
  private transient List<Class<?>> eventClasses;

  MessagesToRowsFn(
      EventSink<R, E> sink,
      List<RowTarget> targets,
      EventRouter router,
      @Nullable String udfClassName,
      @Nullable String eventTimeAttribute,
      List<TupleTag<TimestampedValue<E>>> rowsTags,
      TupleTag<DeadLetter> deadLettersTag) {
    this.sink = sink;
    this.targets = List.copyOf(targets);
    this.router = router;
    this.udfClassName = udfClassName;
    this.eventTimeAttribute = eventTimeAttribute;
    this.rowsTags = List.copyOf(rowsTags);
    this.deadLettersTag = deadLettersTag;
    if (router.routes()) {
      byType = new StructCounters[targets.size()];
      for (int i = 0; i < byType.length; i++) {
        byType[i] = new StructCounters(targets.get(i).struct());
      }
    } else {
      byType = null;
    }
  }

  /** The counters a many-types job keeps per struct. */
  private static final class StructCounters implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final Counter decoded;
    final Counter filtered;
    final Counter failedDecode;
    final Counter failedTransform;
    final Counter failedConvert;
    final Counter failedChange;

    StructCounters(String struct) {
      decoded =
          IngestionMetrics.counter(IngestionMetrics.ofStruct(IngestionMetrics.DECODED, struct));
      filtered =
          IngestionMetrics.counter(IngestionMetrics.ofStruct(IngestionMetrics.FILTERED, struct));
      failedDecode =
          IngestionMetrics.counter(
              IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.DECODE), struct));
      failedTransform =
          IngestionMetrics.counter(
              IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.TRANSFORM), struct));
      failedConvert =
          IngestionMetrics.counter(
              IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.CONVERT), struct));
      failedChange =
          IngestionMetrics.counter(
              IngestionMetrics.ofStruct(IngestionMetrics.failedName(Stage.CHANGE), struct));
    }
  }

  @Setup
  public void setup() {
    converters = new ArrayList<>();
    for (RowTarget target : targets) {
      converters.add(sink.format().newConverter(target.config(), target.change()));
      if (target.change() != null) {
        columns = sink.format().columnReader();
      }
    }
    // Loaded here too (validated at launch as well): a class that vanished from a worker's
    // classpath must fail the bundle loudly, never fall back to "no function".
    udf = udfClassName == null ? null : EventTransforms.load(udfClassName);
    eventClasses = new ArrayList<>();
    if (udf != null) {
      for (RowTarget target : targets) {
        eventClasses.add(target.config().schemas().struct().structClass());
      }
    }
  }

  /** The converter counts what its decoding rules kept or replaced; reported once per bundle. */
  @FinishBundle
  public void finishBundle() {
    for (EventConverter<R> converter : converters) {
      long unknown = converter.takeUnknownEnumValues();
      if (unknown != 0) {
        unknownEnumValues.inc(unknown);
      }
      long replaced = converter.takeInvalidUtf8Replaced();
      if (replaced != 0) {
        invalidUtf8Replaced.inc(replaced);
      }
      UnknownFields skipped = converter.takeUnknownFields();
      if (skipped.count() != 0) {
        unknownFields.inc(skipped.count());
        logUnknownFields(skipped);
      }
    }
  }

  /** Names the skipped fields, by id, at a bounded rate: they mean the IDL is behind a producer. */
  private void logUnknownFields(UnknownFields skipped) {
    if (unknownFieldsSinceLog == null) {
      unknownFieldsSinceLog = new java.util.LinkedHashMap<>();
    }
    skipped.byField().forEach((field, n) -> unknownFieldsSinceLog.merge(field, n, Long::sum));
    long now = System.currentTimeMillis();
    if (now - lastUnknownFieldsLogMillis >= UNKNOWN_FIELDS_LOG_INTERVAL_MILLIS) {
      LOG.warn(
          "Skipped fields the IDL does not know (Struct.fieldId: count since the last report): {}."
              + " A producer is on a newer IDL: update the IDL, and use --keepUnknownFields to keep"
              + " such events' bytes until then.",
          unknownFieldsSinceLog);
      unknownFieldsSinceLog.clear();
      lastUnknownFieldsLogMillis = now;
    }
  }

  @ProcessElement
  public void process(
      @Element EventMessage message, @Timestamp Instant timestamp, MultiOutputReceiver out) {
    byte[] payload = message.payload();
    Map<String, String> attributes = message.attributes();
    // The sources stamp elements with the publish time (Pub/Sub) or the record's timestamp
    // (Kafka); a test source may leave them at the minimum, which means "unknown".
    long publishTimeMillis =
        timestamp.isAfter(BoundedWindow.TIMESTAMP_MIN_VALUE)
            ? timestamp.getMillis()
            : EventMetadata.UNKNOWN_TIME;
    EventMetadata metadata =
        new EventMetadata(message.messageId(), publishTimeMillis, attributes, message.kafka());

    int type = 0;
    int offset = 0;
    int length = payload.length;
    if (byType != null) {
      try {
        type = router.route(payload, attributes);
        offset = router.eventOffset();
        length = router.eventLength();
      } catch (UnroutableException e) {
        failedRoute.inc();
        out.get(deadLettersTag).output(DeadLetter.ofUnrouted(payload, metadata, e.getMessage()));
        return;
      }
    }
    EventConverter<R> converter = converters.get(type);
    @Nullable StructCounters counters = byType == null ? null : byType[type];

    R row;
    if (udf == null) {
      try {
        row = converter.fromBytes(payload, offset, length, metadata);
      } catch (ThriftDecodeException e) {
        fail(out, message, metadata, type, Stage.DECODE, e);
        return;
      } catch (ChangeException e) {
        fail(out, message, metadata, type, Stage.CHANGE, e);
        return;
      } catch (RuntimeException e) {
        fail(out, message, metadata, type, Stage.CONVERT, e);
        return;
      }
    } else {
      TBase<?, ?> decodedEvent;
      try {
        decodedEvent =
            converter.decode(
                offset == 0 && length == payload.length
                    ? payload
                    : java.util.Arrays.copyOfRange(payload, offset, offset + length));
      } catch (ThriftDecodeException | RuntimeException e) {
        fail(out, message, metadata, type, Stage.DECODE, e);
        return;
      }
      TBase<?, ?> transformed;
      try {
        transformed = udf.apply(decodedEvent);
      } catch (Exception e) {
        fail(out, message, metadata, type, Stage.TRANSFORM, e);
        return;
      }
      if (transformed == null) {
        filtered.inc();
        if (counters != null) {
          counters.filtered.inc();
        }
        return;
      }
      Class<?> eventClass = eventClasses.get(type);
      if (!eventClass.isInstance(transformed)) {
        fail(
            out,
            message,
            metadata,
            type,
            Stage.TRANSFORM,
            new IllegalStateException(
                "user function "
                    + udfClassName
                    + " returned a "
                    + transformed.getClass().getName()
                    + ", expected a "
                    + eventClass.getName()));
        return;
      }
      try {
        row = converter.fromEvent(transformed, metadata);
      } catch (RuntimeException e) {
        fail(out, message, metadata, type, Stage.CONVERT, e);
        return;
      }
    }
    RowTarget target = targets.get(type);
    ChangeRule changeRule = target.change();
    if (changeRule != null && !sink.format().hasChange(row)) {
      try {
        Change change = changeRule.decide(row, java.util.Objects.requireNonNull(columns), metadata);
        row = sink.format().withChange(row, change, target.config().schemas());
      } catch (ChangeException e) {
        fail(out, message, metadata, type, Stage.CHANGE, e);
        return;
      }
    }
    decoded.inc();
    if (counters != null) {
      counters.decoded.inc();
    }
    // The payload kept for a rejected row is the message's own, a union included.
    out.get(rowsTags.get(type))
        .output(
            TimestampedValue.of(
                sink.element(row, payload, metadata), eventCreationTime(attributes, timestamp)));
  }

  /** The event-time attribute if present and numeric, else the publish time. */
  private Instant eventCreationTime(@Nullable Map<String, String> attributes, Instant publishTime) {
    if (eventTimeAttribute != null && attributes != null) {
      String value = attributes.get(eventTimeAttribute);
      if (value != null) {
        try {
          return new Instant(Long.parseLong(value.trim()));
        } catch (NumberFormatException ignored) {
          // A malformed attribute only costs the latency sample its precision.
        }
      }
    }
    return publishTime;
  }

  private void fail(
      MultiOutputReceiver out,
      EventMessage message,
      EventMetadata metadata,
      int type,
      Stage stage,
      Throwable error) {
    Counter total =
        switch (stage) {
          case DECODE -> failedDecode;
          case TRANSFORM -> failedTransform;
          case CHANGE -> failedChange;
          default -> failedConvert;
        };
    total.inc();
    DeadLetter deadLetter =
        DeadLetter.ofEvent(stage, message.payload(), metadata, DeadLetter.describe(error));
    if (byType != null) {
      StructCounters counters = byType[type];
      (switch (stage) {
            case DECODE -> counters.failedDecode;
            case TRANSFORM -> counters.failedTransform;
            case CHANGE -> counters.failedChange;
            default -> counters.failedConvert;
          })
          .inc();
      RowTarget target = targets.get(type);
      deadLetter = deadLetter.withEvent(target.table(), target.struct());
    }
    out.get(deadLettersTag).output(deadLetter);
  }
}
