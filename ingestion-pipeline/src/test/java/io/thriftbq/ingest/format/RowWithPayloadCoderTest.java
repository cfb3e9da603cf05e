package io.thriftbq.ingest.format;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.testing.TestData;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.Rule;
import org.junit.Test;

/**
 * The coders of elements that keep their payload round-trip the payload and metadata, for every row
 * format, also after being serialized the way a runner ships them.
 */
public class RowWithPayloadCoderTest {
  private static final EventSchemas SCHEMAS =
      EventSchemas.of(TestData.EVENT_CLASS, MetadataColumns.NONE);
  private static final int SEQUENCE = 3;

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static EventMetadata metadata() {
    Map<String, String> attributes = new LinkedHashMap<>(TestData.attributes(SEQUENCE));
    attributes.put("zz", "last");
    attributes.put("aa", "");
    return new EventMetadata(
        TestData.messageId(SEQUENCE), TestData.publishTime(SEQUENCE).getMillis(), attributes);
  }

  private static <T> RowWithPayload<T> element(StorageFormat format) {
    @SuppressWarnings("unchecked")
    EventConverter<T> converter =
        (EventConverter<T>)
            Format.of(format)
                .newConverter(
                    ConverterConfig.of(
                        TestData.EVENT_CLASS, ThriftProtocol.BINARY, MetadataColumns.NONE));
    try {
      return new RowWithPayload<>(
          converter.fromBytes(TestData.bytes(SEQUENCE), metadata()),
          TestData.bytes(SEQUENCE),
          metadata());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> Coder<T> rowCoder(StorageFormat format) {
    return (Coder<T>) Format.of(format).coder(SCHEMAS);
  }

  @Test
  public void roundTripsRowPayloadAndMetadataOfBeamRowsAndAvroRecords() throws Exception {
    RowWithPayload<Row> row = element(StorageFormat.BEAM_ROW);
    CoderProperties.coderDecodeEncodeEqual(
        RowWithPayloadCoder.of(RowWithPayloadCoderTest.<Row>rowCoder(StorageFormat.BEAM_ROW)), row);
    RowWithPayload<GenericRecord> record = element(StorageFormat.AVRO_GENERIC_RECORD);
    CoderProperties.coderDecodeEncodeEqual(
        RowWithPayloadCoder.of(
            RowWithPayloadCoderTest.<GenericRecord>rowCoder(StorageFormat.AVRO_GENERIC_RECORD)),
        record);
  }

  @Test
  public void roundTripsTableRowsAndUnknownMetadata() throws Exception {
    // TableRowJsonCoder gives back JSON types, so a TableRow of strings compares equal.
    TableRow row = new TableRow().set("event_id", "e-1").set("user_id", "u-1");
    CoderProperties.coderDecodeEncodeEqual(
        RowWithPayloadCoder.of(TableRowJsonCoder.of()),
        new RowWithPayload<>(row, new byte[] {0, 1, -1}, metadata()));
    CoderProperties.coderDecodeEncodeEqual(
        RowWithPayloadCoder.of(TableRowJsonCoder.of()),
        new RowWithPayload<>(row, new byte[0], EventMetadata.EMPTY));
    CoderProperties.coderSerializable(RowWithPayloadCoder.of(TableRowJsonCoder.of()));
  }

  @Test
  public void attributesEncodeInKeyOrder() throws Exception {
    RowWithPayloadCoder<Row> coder = RowWithPayloadCoder.of(rowCoder(StorageFormat.BEAM_ROW));
    RowWithPayload<Row> element = element(StorageFormat.BEAM_ROW);
    Map<String, String> reversed = new LinkedHashMap<>();
    element.metadata().attributes().entrySet().stream()
        .sorted(Map.Entry.<String, String>comparingByKey().reversed())
        .forEach(entry -> reversed.put(entry.getKey(), entry.getValue()));
    RowWithPayload<Row> sameInOtherOrder =
        new RowWithPayload<>(
            element.row(),
            element.payload(),
            new EventMetadata(
                element.metadata().messageId(), element.metadata().publishTimeMillis(), reversed));
    assertArrayEquals(
        CoderUtils.encodeToByteArray(coder, element),
        CoderUtils.encodeToByteArray(coder, sameInOtherOrder));
  }

  @Test
  public void schemaCoderKeepsThePayloadAndRefusesRowsWithoutIt() throws Exception {
    RowWithPayloadSchemaCoder coder = RowWithPayloadSchemaCoder.forSchema(SCHEMAS.beamSchema());
    RowWithPayload<Row> element = element(StorageFormat.BEAM_ROW);
    CoderProperties.coderDecodeEncodeEqual(coder, element);
    // As a runner ships it: serialized, then used on a worker.
    RowWithPayloadSchemaCoder shipped = SerializableUtils.clone(coder);
    RowWithPayload<Row> decoded =
        CoderUtils.decodeFromByteArray(shipped, CoderUtils.encodeToByteArray(coder, element));
    assertArrayEquals(element.payload(), decoded.payload());
    assertEquals(element.metadata(), decoded.metadata());
    assertEquals(coder, shipped);

    assertEquals(element.row(), coder.getToRowFunction().apply(element));
    assertThrows(
        UnsupportedOperationException.class, () -> coder.getFromRowFunction().apply(element.row()));
  }

  @Test
  public void schemaCoderGivesThePCollectionTheEventSchema() {
    RowWithPayloadSchemaCoder coder = RowWithPayloadSchemaCoder.forSchema(SCHEMAS.beamSchema());
    RowWithPayload<Row> element = element(StorageFormat.BEAM_ROW);
    PCollection<RowWithPayload<Row>> elements = pipeline.apply(Create.of(element).withCoder(coder));
    assertTrue(elements.hasSchema());
    assertEquals(SCHEMAS.beamSchema(), elements.getSchema());
    assertEquals(element.row(), elements.getToRowFunction().apply(element));
    pipeline.run().waitUntilFinish();
  }
}
