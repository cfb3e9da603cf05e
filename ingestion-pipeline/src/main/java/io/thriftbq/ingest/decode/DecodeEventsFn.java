package io.thriftbq.ingest.decode;

import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.convert.UnknownFields;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.format.EventSink;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.udf.EventTransform;
import io.thriftbq.ingest.udf.EventTransforms;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
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
 * The hot path: one Pub/Sub message in, one element (or one dead letter, or nothing if the user
 * function filters the event) out. The converter and the user function are built once per DoFn
 * instance in {@link #setup()}; nothing is allocated per element beyond the row itself (and, when
 * the sink keeps payloads, the {@code RowWithPayload} around it).
 *
 * @param <R> the row type of the format
 * @param <E> the element type (see {@link EventSink})
 */
final class DecodeEventsFn<R, E> extends DoFn<PubsubMessage, TimestampedValue<E>> {
  private final EventSink<R, E> sink;
  private static final Logger LOG = LoggerFactory.getLogger(DecodeEventsFn.class);

  private final ConverterConfig converterConfig;
  private final @Nullable String udfClassName;
  private final @Nullable String eventTimeAttribute;
  private final TupleTag<TimestampedValue<E>> rowsTag;
  private final TupleTag<DeadLetter> deadLettersTag;

  private final Counter decoded = IngestionMetrics.counter(IngestionMetrics.DECODED);
  private final Counter filtered = IngestionMetrics.counter(IngestionMetrics.FILTERED);
  private final Counter failedDecode = IngestionMetrics.failed(Stage.DECODE);
  private final Counter failedTransform = IngestionMetrics.failed(Stage.TRANSFORM);
  private final Counter failedConvert = IngestionMetrics.failed(Stage.CONVERT);
  private final Counter unknownEnumValues =
      IngestionMetrics.counter(IngestionMetrics.UNKNOWN_ENUM_VALUES);
  private final Counter invalidUtf8Replaced =
      IngestionMetrics.counter(IngestionMetrics.INVALID_UTF8_REPLACED);
  private final Counter unknownFields = IngestionMetrics.counter(IngestionMetrics.UNKNOWN_FIELDS);

  /** Unknown fields are named in the log at most once per this interval per DoFn instance. */
  private static final long UNKNOWN_FIELDS_LOG_INTERVAL_MILLIS = 60_000;

  private transient long lastUnknownFieldsLogMillis;
  private transient java.util.@Nullable Map<String, Long> unknownFieldsSinceLog;

  private transient EventConverter<R> converter;
  private transient @Nullable EventTransform udf;
  private transient Class<?> eventClass;

  DecodeEventsFn(
      EventSink<R, E> sink,
      ConverterConfig converterConfig,
      @Nullable String udfClassName,
      @Nullable String eventTimeAttribute,
      TupleTag<TimestampedValue<E>> rowsTag,
      TupleTag<DeadLetter> deadLettersTag) {
    this.sink = sink;
    this.converterConfig = converterConfig;
    this.udfClassName = udfClassName;
    this.eventTimeAttribute = eventTimeAttribute;
    this.rowsTag = rowsTag;
    this.deadLettersTag = deadLettersTag;
  }

  @Setup
  public void setup() {
    converter = sink.format().newConverter(converterConfig);
    // Loaded here too (validated at launch as well): a class that vanished from a worker's
    // classpath must fail the bundle loudly, never fall back to "no function".
    udf = udfClassName == null ? null : EventTransforms.load(udfClassName);
    eventClass = udf == null ? null : converterConfig.schemas().struct().structClass();
  }

  /** The converter counts what its decoding rules kept or replaced; reported once per bundle. */
  @FinishBundle
  public void finishBundle() {
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
      @Element PubsubMessage message, @Timestamp Instant timestamp, MultiOutputReceiver out) {
    byte[] payload = message.getPayload();
    Map<String, String> attributes = message.getAttributeMap();
    // Pub/Sub sources stamp elements with the publish time; a test source may leave them at the
    // minimum, which means "unknown".
    long publishTimeMillis =
        timestamp.isAfter(BoundedWindow.TIMESTAMP_MIN_VALUE)
            ? timestamp.getMillis()
            : EventMetadata.UNKNOWN_TIME;
    EventMetadata metadata =
        new EventMetadata(message.getMessageId(), publishTimeMillis, attributes);

    R row;
    if (udf == null) {
      try {
        row = converter.fromBytes(payload, metadata);
      } catch (ThriftDecodeException e) {
        failedDecode.inc();
        deadLetter(out, message, metadata, Stage.DECODE, e);
        return;
      } catch (RuntimeException e) {
        failedConvert.inc();
        deadLetter(out, message, metadata, Stage.CONVERT, e);
        return;
      }
    } else {
      TBase<?, ?> event;
      try {
        event = converter.decode(payload);
      } catch (ThriftDecodeException | RuntimeException e) {
        failedDecode.inc();
        deadLetter(out, message, metadata, Stage.DECODE, e);
        return;
      }
      TBase<?, ?> transformed;
      try {
        transformed = udf.apply(event);
      } catch (Exception e) {
        failedTransform.inc();
        deadLetter(out, message, metadata, Stage.TRANSFORM, e);
        return;
      }
      if (transformed == null) {
        filtered.inc();
        return;
      }
      if (!eventClass.isInstance(transformed)) {
        failedTransform.inc();
        deadLetter(
            out,
            message,
            metadata,
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
        failedConvert.inc();
        deadLetter(out, message, metadata, Stage.CONVERT, e);
        return;
      }
    }
    decoded.inc();
    out.get(rowsTag)
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

  private void deadLetter(
      MultiOutputReceiver out,
      PubsubMessage message,
      EventMetadata metadata,
      Stage stage,
      Throwable error) {
    out.get(deadLettersTag)
        .output(
            DeadLetter.ofEvent(
                stage,
                message.getPayload(),
                message.getMessageId(),
                metadata.hasPublishTime() ? new Instant(metadata.publishTimeMillis()) : null,
                metadata.attributes(),
                DeadLetter.describe(error)));
  }
}
