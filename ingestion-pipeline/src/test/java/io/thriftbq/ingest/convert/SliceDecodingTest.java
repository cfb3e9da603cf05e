package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.protobuf.ByteString;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.util.Arrays;
import java.util.Map;
import org.junit.Test;

/**
 * An event read where it lies inside a larger message (a union's member) gives exactly the row, or
 * the dead letter, of the same bytes on their own, in every format and both protocols: the
 * many-types decoder reads union members in place instead of copying them.
 */
public class SliceDecodingTest {
  private static final String EVENT = "io.thriftbq.sample.Event";
  private static final EventMetadata METADATA =
      new EventMetadata("m-1", 1_763_000_000_000L, Map.of("k", "v"));

  /** {@code event} with junk before and after it. */
  private static byte[] embedded(byte[] event, int before, int after) {
    byte[] buffer = new byte[before + event.length + after];
    Arrays.fill(buffer, (byte) 0x7f);
    System.arraycopy(event, 0, buffer, before, event.length);
    return buffer;
  }

  @Test
  public void aSliceGivesTheRowOfTheBytesAlone() throws Exception {
    for (ThriftProtocol protocol : ThriftProtocol.values()) {
      ConverterConfig config = ConverterConfig.of(EVENT, protocol, MetadataColumns.ALL);
      StorageWriteBytes storage =
          StorageWriteBytes.forTable(EventSchemas.of(EVENT, MetadataColumns.ALL));
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder().className(EVENT).seed(7).protocol(protocol).build());
      for (StorageFormat format : StorageFormat.values()) {
        EventConverter<Object> converter = TestConverters.create(config, format);
        for (int i = 0; i < 20; i++) {
          byte[] event = generator.serialize(i);
          ByteString alone = storage.of(converter.fromBytes(event, METADATA));
          byte[] buffer = embedded(event, 3 + i, 1 + i % 4);
          ByteString inPlace =
              storage.of(converter.fromBytes(buffer, 3 + i, event.length, METADATA));
          assertEquals(protocol + " " + format + " event " + i, alone, inPlace);
        }
        // A slice cut short fails as the short bytes alone fail, with the same reason.
        byte[] event = generator.serialize(99);
        byte[] cut = Arrays.copyOf(event, event.length / 2);
        String alone =
            assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(cut, METADATA))
                .getMessage();
        String inPlace =
            assertThrows(
                    ThriftDecodeException.class,
                    () -> converter.fromBytes(embedded(event, 5, 0), 5, event.length / 2, METADATA))
                .getMessage();
        assertEquals(protocol + " " + format, alone, inPlace);
      }
    }
  }

  @Test
  public void unknownFieldsKeepTheEventsOwnBytes() throws Exception {
    // A newer producer's event: the sample Event with an extra field id 999 (a string) before the
    // stop byte; with --keepUnknownFields its bytes, not the surrounding message, are kept.
    ConverterConfig config =
        ConverterConfig.of(
            EVENT, ThriftProtocol.BINARY, new MetadataColumns(false, false, false, true));
    RandomEventGenerator generator =
        new RandomEventGenerator(
            GeneratorConfig.builder()
                .className(EVENT)
                .seed(3)
                .protocol(ThriftProtocol.BINARY)
                .build());
    byte[] known = generator.serialize(0);
    byte[] extra = {11, 0x03, (byte) 0xe7, 0, 0, 0, 1, 'x'};
    byte[] event = new byte[known.length + extra.length];
    System.arraycopy(known, 0, event, 0, known.length - 1);
    System.arraycopy(extra, 0, event, known.length - 1, extra.length);
    event[event.length - 1] = 0;
    EventConverter<com.google.api.services.bigquery.model.TableRow> rows =
        TestConverters.create(config, StorageFormat.TABLE_ROW);
    var row = rows.fromBytes(embedded(event, 4, 2), 4, event.length, METADATA);
    assertArrayEquals(
        event,
        java.util.Base64.getDecoder()
            .decode((String) row.get(io.thriftbq.ingest.schema.MetadataColumns.UNKNOWN_FIELDS)));
  }

  @Test
  public void aSliceOutsideTheBufferIsRefusedLoudly() {
    EventConverter<Object> converter =
        TestConverters.create(
            ConverterConfig.of(EVENT, ThriftProtocol.BINARY, MetadataColumns.NONE),
            StorageFormat.PROTO_MESSAGE);
    assertThrows(
        IndexOutOfBoundsException.class, () -> converter.fromBytes(new byte[10], 8, 4, METADATA));
  }
}
