package io.thriftbq.ingest.convert;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.options.InvalidUtf8;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.UnknownEnumValues;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TBase;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TException;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.junit.Test;

/**
 * {@code decode()} reads into the generated object in one pass ({@link CheckingProtocol}) and must
 * give exactly what the two-pass decode (codec tree, then the generated reader) gives: the same
 * object, or a dead letter with the same reason, and the same counts of unknown fields, unknown
 * enum values and repaired strings. Valid events must take the one pass; a regression that sends
 * them all to the two-pass path fails {@link #validEventsTakeOnePass}.
 */
public class ObjectDecodeTest {
  private static final String ALL_TYPES = "io.thriftbq.testing.AllTypes";
  private static final String EVENT = Event.class.getName();

  private static List<byte[]> events(String className, ThriftProtocol protocol, int count) {
    List<byte[]> payloads = new ArrayList<>();
    RandomEventGenerator complete =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .className(className)
                .protocol(protocol)
                .seed(7)
                .completeObjects(true)
                .maxCollectionSize(4)
                .build());
    RandomEventGenerator sparse =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .className(className)
                .protocol(protocol)
                .seed(8)
                .optionalFieldProbability(0.3)
                .minStringLength(0)
                .maxStringLength(5)
                .maxCollectionSize(3)
                .build());
    for (long i = 0; i < count; i++) {
      payloads.add(complete.serialize(i));
      payloads.add(sparse.serialize(i));
    }
    return payloads;
  }

  private static ThriftRowConverter<?, ?> converter(ConverterConfig config, StorageFormat format) {
    return (ThriftRowConverter<?, ?>) TestConverters.create(config, format);
  }

  private static ConverterConfig config(String className, ThriftProtocol protocol) {
    return ConverterConfig.of(className, protocol, MetadataColumns.NONE);
  }

  @Test
  public void validEventsTakeOnePass() throws Exception {
    for (String className : List.of(EVENT, ALL_TYPES)) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        // PROTO_MESSAGE's codec tree keeps strings as UTF-8 bytes; the others as Strings.
        for (StorageFormat format : List.of(StorageFormat.TABLE_ROW, StorageFormat.PROTO_MESSAGE)) {
          ThriftRowConverter<?, ?> converter = converter(config(className, protocol), format);
          TDeserializer libthrift =
              new TDeserializer(
                  protocol == ThriftProtocol.BINARY
                      ? new TBinaryProtocol.Factory()
                      : new TCompactProtocol.Factory());
          List<byte[]> payloads = events(className, protocol, 50);
          for (byte[] payload : payloads) {
            TBase<?, ?> expected = converter.decodeInTwoPasses(payload, newInstance(className));
            TBase<?, ?> bare = newInstance(className);
            libthrift.deserialize(bare, payload);
            assertEquals(bytes(expected), bytes(bare));
            assertEquals(bytes(expected), bytes(converter.decode(payload)));
          }
          // decodeInTwoPasses does not count; every decode() above took the one pass.
          assertEquals(
              className + " " + protocol + " " + format,
              payloads.size(),
              converter.onePassDecodes());
        }
      }
    }
  }

  /**
   * The one pass computes the row-size estimate itself: it must be the codec tree's to the byte, or
   * a row at the limit would be a dead letter on one path and a row on the other.
   */
  @Test
  public void rowSizeEstimateIsTheCodecTreesToTheByte() throws Exception {
    Pattern estimate = Pattern.compile("the row would be about (\\d+) bytes");
    for (String className : List.of(EVENT, ALL_TYPES)) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        ConverterConfig base =
            ConverterConfig.of(className, protocol, MetadataColumns.ALL.withUnknownFields(true));
        ThriftRowConverter<?, ?> tiny =
            converter(base.withMaxRowBytes(1), StorageFormat.AVRO_GENERIC_RECORD);
        for (byte[] payload : events(className, protocol, 10)) {
          String reason = outcome(() -> tiny.decodeInTwoPasses(payload, newInstance(className)));
          Matcher matcher = estimate.matcher(reason);
          assertTrue(reason, matcher.find());
          long bytes = Long.parseLong(matcher.group(1));
          ThriftRowConverter<?, ?> exact =
              converter(base.withMaxRowBytes(bytes), StorageFormat.AVRO_GENERIC_RECORD);
          assertNotNull(exact.decode(payload));
          assertEquals(1, exact.onePassDecodes());
          ThriftRowConverter<?, ?> below =
              converter(base.withMaxRowBytes(bytes - 1), StorageFormat.AVRO_GENERIC_RECORD);
          assertThat(
              outcome(() -> below.decode(payload)),
              containsString("about " + bytes + " bytes, more than --maxRowBytes=" + (bytes - 1)));
        }
      }
    }
  }

  /** Unknown fields are counted once, by field, and the payload kept for the row. */
  @Test
  public void unknownFieldsCountedOnceAndKept() throws Exception {
    ConverterConfig config =
        ConverterConfig.of(
            EVENT, ThriftProtocol.BINARY, MetadataColumns.NONE.withUnknownFields(true));
    ThriftRowConverter<?, ?> onePass = converter(config, StorageFormat.TABLE_ROW);
    ThriftRowConverter<?, ?> twoPass = converter(config, StorageFormat.TABLE_ROW);
    for (byte[] event : events(EVENT, ThriftProtocol.BINARY, 5)) {
      // Two fields of a newer IDL before the STOP: a string (id 900) and a struct (id 901).
      byte[] extra = {
        11, 3, (byte) 0x84, 0, 0, 0, 2, 'h', 'i', 12, 3, (byte) 0x85, 8, 0, 1, 0, 0, 0, 5, 0
      };
      byte[] payload = Arrays.copyOf(event, event.length - 1 + extra.length + 1);
      System.arraycopy(extra, 0, payload, event.length - 1, extra.length);
      payload[payload.length - 1] = 0;
      TBase<?, ?> decoded = onePass.decode(payload);
      TableRow viaOnePass = (TableRow) onePass.fromEvent(decoded, EventMetadata.EMPTY);
      TBase<?, ?> reference = twoPass.decodeInTwoPasses(payload, new Event());
      TableRow viaTwoPasses = (TableRow) twoPass.fromEvent(reference, EventMetadata.EMPTY);
      assertEquals(bytes(reference), bytes(decoded));
      assertEquals(viaTwoPasses, viaOnePass);
      assertNotNull(viaOnePass.get(MetadataColumns.UNKNOWN_FIELDS));
    }
    assertEquals(10, onePass.onePassDecodes());
    UnknownFields counted = onePass.takeUnknownFields();
    assertEquals(twoPass.takeUnknownFields(), counted);
    assertEquals(20, counted.count());
  }

  /**
   * Hostile payloads (valid events with bytes flipped, cut, repeated or inserted, of two structs
   * and both protocols, under every rule): the one pass and the two-pass decode agree on each.
   */
  @Test
  public void mutatedPayloadsAgreeWithTheTwoPassDecode() throws Exception {
    Random random = new Random(20261125L);
    int onePassTotal = 0;
    int payloadsTotal = 0;
    for (String className : List.of(EVENT, ALL_TYPES)) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        for (UnknownEnumValues enums : UnknownEnumValues.values()) {
          for (InvalidUtf8 utf8 : InvalidUtf8.values()) {
            ConverterConfig config =
                ConverterConfig.of(
                        className, protocol, MetadataColumns.NONE.withUnknownFields(true))
                    .withRules(enums, utf8)
                    .withLimits(64, 16);
            ThriftRowConverter<?, ?> onePass = converter(config, StorageFormat.TABLE_ROW);
            ThriftRowConverter<?, ?> twoPass = converter(config, StorageFormat.TABLE_ROW);
            for (byte[] event : events(className, protocol, 20)) {
              for (int m = 0; m < 6; m++) {
                byte[] payload = mutate(event, random);
                assertSameOutcome(className, onePass, twoPass, payload);
                payloadsTotal++;
              }
            }
            onePassTotal += (int) onePass.onePassDecodes();
          }
        }
      }
    }
    // Most mutations break the payload; the rest must still mostly take the one pass.
    assertTrue(onePassTotal + " of " + payloadsTotal, onePassTotal > payloadsTotal / 20);
  }

  /**
   * Asserts that {@code onePass.decode(payload)} gives what {@code twoPass.decodeInTwoPasses}
   * gives: the object or the dead-letter reason, the unknown-field, unknown-enum and
   * repaired-string counts, and the kept payload of the row. The fuzz tests call it on their
   * corpora too.
   */
  static void assertSameOutcome(
      String className,
      ThriftRowConverter<?, ?> onePass,
      ThriftRowConverter<?, ?> twoPass,
      byte[] payload) {
    Object[] expected = new Object[1];
    Object[] actual = new Object[1];
    String expectedReason =
        outcome(() -> expected[0] = twoPass.decodeInTwoPasses(payload, newInstance(className)));
    String actualReason = outcome(() -> actual[0] = onePass.decode(payload));
    assertEquals("dead-letter reason", expectedReason, actualReason);
    // Compared as bytes: a NaN double makes a generated object unequal to itself.
    assertEquals(
        "decoded object", bytes((TBase<?, ?>) expected[0]), bytes((TBase<?, ?>) actual[0]));
    assertEquals(twoPass.takeUnknownFields(), onePass.takeUnknownFields());
    assertEquals(twoPass.takeUnknownEnumValues(), onePass.takeUnknownEnumValues());
    assertEquals(twoPass.takeInvalidUtf8Replaced(), onePass.takeInvalidUtf8Replaced());
    if (actual[0] != null) {
      // The row keeps the payload when it had unknown fields (fromEvent takes what decode left).
      assertEquals(
          Objects.toString(
              outcomeOrRow(
                  () -> twoPass.fromEvent((TBase<?, ?>) expected[0], EventMetadata.EMPTY))),
          Objects.toString(
              outcomeOrRow(() -> onePass.fromEvent((TBase<?, ?>) actual[0], EventMetadata.EMPTY))));
    }
  }

  private static byte[] mutate(byte[] event, Random random) {
    byte[] payload = event.clone();
    switch (random.nextInt(5)) {
      case 0 -> payload[random.nextInt(payload.length)] = (byte) random.nextInt(256);
      case 1 -> {
        int at = random.nextInt(payload.length);
        payload[at] = (byte) (payload[at] ^ (1 << random.nextInt(8)));
      }
      case 2 -> payload = Arrays.copyOf(payload, random.nextInt(payload.length));
      case 3 -> {
        int at = random.nextInt(payload.length);
        byte[] longer = new byte[payload.length + 1];
        System.arraycopy(payload, 0, longer, 0, at);
        longer[at] = (byte) random.nextInt(256);
        System.arraycopy(payload, at, longer, at + 1, payload.length - at);
        payload = longer;
      }
      default -> {
        // A run of bytes copied over another place: repeated headers, lengths and values.
        int from = random.nextInt(payload.length);
        int to = random.nextInt(payload.length);
        int length =
            Math.min(1 + random.nextInt(8), Math.min(payload.length - from, payload.length - to));
        System.arraycopy(event, from, payload, to, length);
      }
    }
    return payload;
  }

  private interface Decode {
    Object call() throws Exception;
  }

  /** The dead letter's class and reason, or "" when there is none. */
  private static String outcome(Decode decode) {
    try {
      decode.call();
      return "";
    } catch (ThriftDecodeException | ConversionException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static Object outcomeOrRow(Decode decode) {
    try {
      return decode.call();
    } catch (ConversionException e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The object written with the binary protocol (as a list, so that assertEquals compares it). */
  private static List<Byte> bytes(TBase<?, ?> event) {
    if (event == null) {
      return null;
    }
    try {
      byte[] written = new TSerializer(new TBinaryProtocol.Factory()).serialize(event);
      List<Byte> list = new ArrayList<>(written.length);
      for (byte b : written) {
        list.add(b);
      }
      return list;
    } catch (TException e) {
      throw new AssertionError(e);
    }
  }

  private static TBase<?, ?> newInstance(String className) {
    try {
      return (TBase<?, ?>) Class.forName(className).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
