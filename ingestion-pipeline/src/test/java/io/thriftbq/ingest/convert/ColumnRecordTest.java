package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.Test;

public class ColumnRecordTest {
  private static final Schema SCHEMA =
      SchemaBuilder.record("Row").fields().requiredString("name").optionalLong("count").endRecord();

  private static GenericData.Record plain(String name, Long count) {
    GenericData.Record record = new GenericData.Record(SCHEMA);
    record.put("name", name);
    record.put("count", count);
    return record;
  }

  @Test
  public void readsAndWritesByPositionAndByName() {
    Object[] values = {"a", 3L};
    ColumnRecord record = new ColumnRecord(SCHEMA, values);
    assertEquals("a", record.get(0));
    assertEquals(3L, record.get("count"));
    assertNull("an unknown name reads as null, as in GenericData.Record", record.get("other"));
    record.put("count", 4L);
    record.put(0, "b");
    assertEquals("the record is a view of the array", "b", values[0]);
    assertEquals(4L, values[1]);
    assertThrows(AvroRuntimeException.class, () -> record.put("other", 1));
  }

  @Test
  public void behavesLikeGenericDataRecord() throws Exception {
    ColumnRecord record = new ColumnRecord(SCHEMA, new Object[] {"a", null});
    GenericData.Record same = plain("a", null);
    assertEquals(record, same);
    assertEquals("equality is symmetric with plain records", same, record);
    assertEquals(same.hashCode(), record.hashCode());
    assertEquals(same.toString(), record.toString());
    assertEquals(0, record.compareTo(same));
    assertNotEquals(record, new ColumnRecord(SCHEMA, new Object[] {"a", 1L}));
    assertTrue(record.compareTo(plain("b", null)) < 0);
    assertTrue(GenericData.get().validate(SCHEMA, record));
    assertEquals(same, GenericData.get().deepCopy(SCHEMA, record));
    assertArrayEquals("Avro's writer reads it like a plain record", encode(same), encode(record));
  }

  @Test
  public void convertedRecordsSurviveAvroCoder() throws Exception {
    EventSchemas schemas = EventSchemas.of(Event.class.getName(), MetadataColumns.ALL);
    EventConverter<GenericRecord> converter =
        TestConverters.create(
            ConverterConfig.of(Event.class.getName(), ThriftProtocol.BINARY, MetadataColumns.ALL),
            StorageFormat.AVRO_GENERIC_RECORD);
    Coder<GenericRecord> coder = AvroCoder.of(schemas.avroSchema());
    Random random = new Random(9);
    for (int i = 0; i < 20; i++) {
      GenericRecord record =
          converter.fromBytes(
              TestEvents.serialize(TestEvents.sampleEvent(random), ThriftProtocol.BINARY),
              EventMetadata.EMPTY);
      assertTrue(record instanceof ColumnRecord);
      GenericRecord decoded = CoderUtils.clone(coder, record);
      assertEquals(record, decoded);
      assertEquals(decoded, record);
      assertEquals(decoded.toString(), record.toString());
    }
  }

  private static byte[] encode(GenericRecord record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(SCHEMA).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
