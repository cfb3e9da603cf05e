package io.thriftbq.ingest.testing;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.sample.Event;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.transport.TMemoryBuffer;
import org.joda.time.Instant;

/** Sample events from the data generator's core, as Pub/Sub messages. */
public final class TestData {
  public static final String EVENT_CLASS = Event.class.getName();
  public static final long SEED = 20240501L;

  /** Publish time of message 0; message i is published i seconds later. */
  public static final Instant PUBLISH_BASE = Instant.parse("2024-05-01T12:00:00.123Z");

  private TestData() {}

  public static GeneratorConfig generatorConfig() {
    return GeneratorConfig.builder()
        .className(EVENT_CLASS)
        .seed(SEED)
        .maxStringLength(24)
        .maxCollectionSize(3)
        .protocol(ThriftProtocol.BINARY)
        .build();
  }

  public static RandomEventGenerator generator() {
    return new RandomEventGenerator(generatorConfig());
  }

  public static Event event(int sequence) {
    return (Event) generator().generate(sequence);
  }

  public static byte[] bytes(int sequence) {
    return generator().serialize(sequence);
  }

  public static String messageId(int sequence) {
    return "msg-" + sequence;
  }

  public static Instant publishTime(int sequence) {
    return PUBLISH_BASE.plus(org.joda.time.Duration.standardSeconds(sequence));
  }

  public static Map<String, String> attributes(int sequence) {
    Map<String, String> attributes = new HashMap<>();
    attributes.put(EventAttributes.EVENT_ID, Integer.toString(sequence));
    attributes.put(
        EventAttributes.EVENT_TIME_MS, Long.toString(publishTime(sequence).getMillis() - 50));
    return attributes;
  }

  /** Message {@code sequence}: one generated event with attributes and a message id. */
  public static PubsubMessage message(int sequence) {
    return new PubsubMessage(bytes(sequence), attributes(sequence), messageId(sequence));
  }

  /** Any payload as message {@code sequence} (same attributes and id scheme). */
  public static PubsubMessage message(int sequence, byte[] payload) {
    return new PubsubMessage(payload, attributes(sequence), messageId(sequence));
  }

  public static TimestampedValue<PubsubMessage> published(PubsubMessage message, int sequence) {
    return TimestampedValue.of(message, publishTime(sequence));
  }

  /** Messages 0..count-1, stamped with their publish times. */
  public static List<TimestampedValue<PubsubMessage>> publishedMessages(int count) {
    RandomEventGenerator generator = generator();
    List<TimestampedValue<PubsubMessage>> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(
          published(new PubsubMessage(generator.serialize(i), attributes(i), messageId(i)), i));
    }
    return messages;
  }

  public static byte[] serialize(TBase<?, ?> struct) {
    try {
      return new TSerializer(new TBinaryProtocol.Factory()).serialize(struct);
    } catch (TException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code event} serialized with the i32 at field path {@code path} (field ids from the top-level
   * struct down) replaced by {@code value}: for example an enum number no IDL version names.
   */
  public static byte[] serializeWithI32(
      TBase<?, ?> event, ThriftProtocol protocol, int value, int... path) {
    TMemoryBuffer buffer;
    try {
      buffer = new TMemoryBuffer(1024);
    } catch (TException e) {
      throw new IllegalStateException(e);
    }
    TProtocol writer = protocol.newWriter(buffer);
    Deque<Integer> fields = new ArrayDeque<>();
    int[] replaced = {0};
    TProtocol patching =
        new TProtocolDecorator(writer) {
          @Override
          public void writeFieldBegin(TField field) throws TException {
            fields.addLast((int) field.id);
            super.writeFieldBegin(field);
          }

          @Override
          public void writeFieldEnd() throws TException {
            fields.removeLast();
            super.writeFieldEnd();
          }

          @Override
          public void writeI32(int i32) throws TException {
            boolean match = fields.size() == path.length;
            int depth = 0;
            for (int id : fields) {
              match = match && id == path[depth++];
            }
            if (match) {
              replaced[0]++;
            }
            super.writeI32(match ? value : i32);
          }
        };
    try {
      event.write(patching);
    } catch (TException e) {
      throw new IllegalStateException(e);
    }
    if (replaced[0] != 1) {
      throw new IllegalArgumentException(
          "field path " + Arrays.toString(path) + " matched " + replaced[0] + " i32 values");
    }
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  /**
   * {@code messages} as a pipeline's input: bounded ({@code Create}), or unbounded (a TestStream in
   * two batches with a watermark step between them, so a write sees more than one bundle).
   */
  public static org.apache.beam.sdk.values.PCollection<PubsubMessage> input(
      org.apache.beam.sdk.Pipeline pipeline,
      List<TimestampedValue<PubsubMessage>> messages,
      boolean unbounded) {
    var coder = org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder.of();
    if (!unbounded) {
      return pipeline.apply(
          org.apache.beam.sdk.transforms.Create.timestamped(messages).withCoder(coder));
    }
    int half = messages.size() / 2;
    org.apache.beam.sdk.testing.TestStream.Builder<PubsubMessage> stream =
        org.apache.beam.sdk.testing.TestStream.create(coder)
            .advanceWatermarkTo(PUBLISH_BASE)
            .addElements(
                messages.get(0), messages.subList(1, half).toArray(new TimestampedValue[0]))
            .advanceWatermarkTo(messages.get(half).getTimestamp())
            .addElements(
                messages.get(half),
                messages.subList(half + 1, messages.size()).toArray(new TimestampedValue[0]));
    return pipeline.apply(stream.advanceWatermarkToInfinity());
  }
}
