package io.thriftbq.ingest.convert;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Descriptors.Descriptor;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import io.thriftbq.testing.AllTypes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.thrift.TBase;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * {@code --maxRowBytes}: the decoder's estimate of a row is never below what the sinks send (the
 * TableRow's JSON, the Storage Write API's proto), never far above it, and a row over the limit is
 * the same DECODE dead letter in every format and on the object path.
 */
@RunWith(Parameterized.class)
public class RowSizeLimitTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("event_id", "7", "source", "test"));

  @Parameters(name = "{0} {1}")
  public static List<Object[]> parameters() {
    List<Object[]> parameters = new ArrayList<>();
    for (String className : List.of(Event.class.getName(), AllTypes.class.getName())) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        parameters.add(new Object[] {className, protocol});
      }
    }
    return parameters;
  }

  private final String className;
  private final ThriftProtocol protocol;

  public RowSizeLimitTest(String className, ThriftProtocol protocol) {
    this.className = className;
    this.protocol = protocol;
  }

  private TBase<?, ?> event(Random random) {
    return className.equals(Event.class.getName())
        ? TestEvents.sampleEvent(random)
        : TestEvents.allTypes(random);
  }

  private ConverterConfig config(long maxRowBytes) {
    return ConverterConfig.of(className, protocol, MetadataColumns.ALL)
        .withMaxRowBytes(maxRowBytes);
  }

  @Test
  public void theEstimateBoundsWhatTheSinksSendAndIsNotFarAboveIt() throws Exception {
    EventSchemas schemas = EventSchemas.of(className, MetadataColumns.ALL);
    Descriptor descriptor =
        TableRowToStorageApiProto.getDescriptorFromTableSchema(schemas.tableSchema(), true, false);
    TableRowToStorageApiProto.SchemaInformation info =
        TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
            TableRowToStorageApiProto.schemaToProtoTableSchema(schemas.tableSchema()));
    EventConverter<TableRow> unlimited =
        TestConverters.create(
            config(IngestionOptions.BIGQUERY_MAX_ROW_BYTES), StorageFormat.TABLE_ROW);
    Random random = new Random(5);
    for (int i = 0; i < 100; i++) {
      byte[] payload = TestEvents.serialize(event(random), protocol);
      TableRow row = unlimited.fromBytes(payload, METADATA);
      int json = BigQueryHelpers.toJsonString(row).getBytes(StandardCharsets.UTF_8).length;
      int proto =
          TableRowToStorageApiProto.messageFromTableRow(
                  info, descriptor, row, false, false, null, null, -1)
              .getSerializedSize();
      int largest = Math.max(json, proto);
      EventConverter<TableRow> justBelow =
          TestConverters.create(config(largest - 1), StorageFormat.TABLE_ROW);
      assertThrows(
          "event " + i + ": the estimate is below the " + largest + " bytes sent",
          ThriftDecodeException.class,
          () -> justBelow.fromBytes(payload, METADATA));
      EventConverter<TableRow> roomy =
          TestConverters.create(config(2L * largest + 64), StorageFormat.TABLE_ROW);
      assertEquals(row, roomy.fromBytes(payload, METADATA));
    }
  }

  @Test
  public void aRowOverTheLimitIsTheSameDeadLetterEverywhere() throws Exception {
    Random random = new Random(9);
    byte[] payload = TestEvents.serialize(event(random), protocol);
    int json =
        BigQueryHelpers.toJsonString(
                TestConverters.<TableRow>create(
                        config(IngestionOptions.BIGQUERY_MAX_ROW_BYTES), StorageFormat.TABLE_ROW)
                    .fromBytes(payload, METADATA))
            .getBytes(StandardCharsets.UTF_8)
            .length;
    ConverterConfig small = config(json / 2);
    String expected = null;
    for (StorageFormat format :
        List.of(
            StorageFormat.TABLE_ROW, StorageFormat.BEAM_ROW, StorageFormat.AVRO_GENERIC_RECORD)) {
      EventConverter<?> converter = TestConverters.create(small, format);
      ThriftDecodeException error =
          assertThrows(ThriftDecodeException.class, () -> converter.fromBytes(payload, METADATA));
      assertThat(error.getMessage(), containsString("--maxRowBytes=" + json / 2));
      assertThat(error.getMessage(), containsString("BigQuery refuses rows over 10 MB"));
      if (expected == null) {
        expected = error.getMessage();
      }
      assertEquals(format.toString(), expected, error.getMessage());
      // The object path (a user function) refuses the event too.
      assertThrows(ThriftDecodeException.class, () -> converter.decode(payload));
    }
  }
}
