package io.thriftbq.ingest.read;

import static org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.Preconditions.checkArgument;

import io.thriftbq.codec.EnvelopeException;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.ingest.deadletter.DeadLetter;
import io.thriftbq.ingest.deadletter.DeadLetterCoder;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.ingest.metrics.IngestionMetrics;
import io.thriftbq.ingest.origin.EventMetadata;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Instant;

/**
 * Counts what was read and turns every message into one message per event: a plain message passes
 * through untouched, an {@link EventEnvelope} becomes one message per event it holds. An envelope
 * that cannot be unpacked becomes one dead letter (stage UNPACK) with the whole message body, never
 * a silent drop.
 *
 * <p>An unpacked event keeps the envelope's attributes, minus the envelope markers (its payload is
 * plain Thrift now), with {@code event_id} set to its own id; its message id is the envelope's
 * followed by {@code #index}, so every row's {@code _message_id} is unique and still leads back to
 * the Pub/Sub message (from Kafka, every member keeps the record's topic, partition and offset).
 */
public final class UnpackMessages extends PTransform<PCollection<EventMessage>, UnpackResult> {
  private final int maxEventsPerEnvelope;
  private final int maxEnvelopeBytes;

  private UnpackMessages(int maxEventsPerEnvelope, int maxEnvelopeBytes) {
    this.maxEventsPerEnvelope = maxEventsPerEnvelope;
    this.maxEnvelopeBytes = maxEnvelopeBytes;
  }

  public static UnpackMessages create() {
    return new UnpackMessages(
        EventEnvelope.DEFAULT_MAX_EVENTS, EventEnvelope.DEFAULT_MAX_TOTAL_BYTES);
  }

  /** Limits that bound what one envelope may make the worker allocate. */
  public UnpackMessages withLimits(int maxEventsPerEnvelope, int maxEnvelopeBytes) {
    checkArgument(maxEventsPerEnvelope > 0, "maxEventsPerEnvelope must be positive");
    checkArgument(maxEnvelopeBytes > 0, "maxEnvelopeBytes must be positive");
    return new UnpackMessages(maxEventsPerEnvelope, maxEnvelopeBytes);
  }

  @Override
  public UnpackResult expand(PCollection<EventMessage> messages) {
    TupleTag<EventMessage> eventsTag = new TupleTag<>("events") {};
    TupleTag<DeadLetter> deadLettersTag = new TupleTag<>("deadLetters") {};
    PCollectionTuple outputs =
        messages.apply(
            "CountAndUnpack",
            ParDo.of(
                    new UnpackFn(maxEventsPerEnvelope, maxEnvelopeBytes, eventsTag, deadLettersTag))
                .withOutputTags(eventsTag, TupleTagList.of(deadLettersTag)));
    return new UnpackResult(
        messages.getPipeline(),
        eventsTag,
        outputs.get(eventsTag).setCoder(EventMessageCoder.of()),
        deadLettersTag,
        outputs.get(deadLettersTag).setCoder(DeadLetterCoder.of()));
  }

  private static final class UnpackFn extends DoFn<EventMessage, EventMessage> {
    private final int maxEvents;
    private final int maxBytes;
    private final TupleTag<EventMessage> eventsTag;
    private final TupleTag<DeadLetter> deadLettersTag;

    private final Counter messagesRead = IngestionMetrics.counter(IngestionMetrics.MESSAGES_READ);
    private final Counter bytesRead = IngestionMetrics.counter(IngestionMetrics.BYTES_READ);
    private final Counter eventsRead = IngestionMetrics.counter(IngestionMetrics.EVENTS_READ);
    private final Counter envelopesUnpacked =
        IngestionMetrics.counter(IngestionMetrics.ENVELOPES_UNPACKED);
    private final Counter failedUnpack = IngestionMetrics.failed(Stage.UNPACK);

    UnpackFn(
        int maxEvents,
        int maxBytes,
        TupleTag<EventMessage> eventsTag,
        TupleTag<DeadLetter> deadLettersTag) {
      this.maxEvents = maxEvents;
      this.maxBytes = maxBytes;
      this.eventsTag = eventsTag;
      this.deadLettersTag = deadLettersTag;
    }

    @ProcessElement
    public void process(
        @Element EventMessage message, @Timestamp Instant timestamp, MultiOutputReceiver out) {
      byte[] payload = message.payload();
      messagesRead.inc();
      bytesRead.inc(payload.length);
      Map<String, String> attributes = message.attributes();
      if (!EventEnvelope.isEnvelope(attributes)) {
        eventsRead.inc();
        out.get(eventsTag).output(message);
        return;
      }
      List<byte[]> events;
      try {
        events = EventEnvelope.unpack(payload, attributes, maxEvents, maxBytes);
      } catch (EnvelopeException | RuntimeException e) {
        eventsRead.inc();
        failedUnpack.inc();
        out.get(deadLettersTag)
            .output(
                DeadLetter.ofEnvelope(
                    payload,
                    EventMetadata.of(
                        message.messageId(),
                        timestamp.isAfter(BoundedWindow.TIMESTAMP_MIN_VALUE) ? timestamp : null,
                        attributes,
                        message.kafka()),
                    e));
        return;
      }
      envelopesUnpacked.inc();
      eventsRead.inc(events.size());
      for (int i = 0; i < events.size(); i++) {
        Map<String, String> eventAttributes = new HashMap<>(attributes);
        eventAttributes.remove(EventEnvelope.ENVELOPE_ATTRIBUTE);
        eventAttributes.remove(EventEnvelope.RECORD_COUNT_ATTRIBUTE);
        String eventId = eventIdAt(attributes, i);
        if (eventId != null) {
          eventAttributes.put(EventAttributes.EVENT_ID, eventId);
        }
        out.get(eventsTag).output(message.withEvent(events.get(i), eventAttributes, i));
      }
    }

    private static String eventIdAt(Map<String, String> attributes, int index) {
      try {
        return EventAttributes.eventIdAt(attributes, index);
      } catch (IllegalArgumentException e) {
        // A non-numeric event_id cannot be offset; the member keeps the envelope's id.
        return null;
      }
    }
  }
}
