package io.thriftbq.local.run;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import io.thriftbq.ingest.schema.MetadataColumn;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.PubsubSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The append ceilings append the rows a run of the compared source appends, so that a run is set
 * against a ceiling of rows of its own shape.
 */
@RunWith(JUnit4.class)
public class BareCeilingsRowsTest {
  private static final int EVENTS = 40;

  @Test
  public void kafkaRowsCarryTheColumnsAKafkaRunSwitchesOn() throws Exception {
    BareCeilings.RunRows rows = BareCeilings.RunRows.of(payloads(), SourceKind.KAFKA);
    assertEquals(
        EmulatorTables.metadataColumns(KafkaSource.ingestionArgs("127.0.0.1:9092", "t", "g")),
        rows.metadata());
    assertTrue(rows.metadata().columns().contains(MetadataColumn.KAFKA_HEADERS));
    assertTrue(rows.metadata().columns().contains(MetadataColumn.KAFKA_OFFSET));
    List<DynamicMessage> parsed = parse(rows);
    for (int i = 0; i < EVENTS; i++) {
      DynamicMessage row = parsed.get(i);
      assertEquals("ceiling", field(row, "_kafka_topic"));
      assertEquals((long) i / KafkaSource.DEFAULT_PARTITIONS, field(row, "_kafka_offset"));
      assertEquals(Long.toString(i), attributes(row, "_kafka_headers").get("event_id"));
      assertTrue(attributes(row, "_kafka_headers").containsKey("event_time_ms"));
    }
  }

  @Test
  public void pubsubRowsCarryTheColumnsAndAttributesOfAPubsubRun() throws Exception {
    BareCeilings.RunRows rows = BareCeilings.RunRows.of(payloads(), SourceKind.PUBSUB);
    assertEquals(
        EmulatorTables.metadataColumns(
            PubsubSource.ingestionArgs("http://127.0.0.1:8085", "projects/p/subscriptions/s")),
        rows.metadata());
    List<DynamicMessage> parsed = parse(rows);
    for (int i = 0; i < EVENTS; i++) {
      Map<String, String> attributes = attributes(parsed.get(i), "_attributes");
      assertEquals(Long.toString(i), attributes.get("event_id"));
      assertTrue(attributes.containsKey("event_time_ms"));
      assertEquals(2, attributes.size());
    }
  }

  @Test
  public void theTwoSourcesRowsDiffer() throws Exception {
    List<byte[]> payloads = payloads();
    BareCeilings.RunRows kafka = BareCeilings.RunRows.of(payloads, SourceKind.KAFKA);
    BareCeilings.RunRows pubsub = BareCeilings.RunRows.of(payloads, SourceKind.PUBSUB);
    assertNotEquals(kafka.metadata(), pubsub.metadata());
    assertNotEquals(kafka.meanBytes(), pubsub.meanBytes(), 0.0);
  }

  private static List<byte[]> payloads() {
    return GeneratorArgs.samplePayloads(EVENTS);
  }

  private static List<DynamicMessage> parse(BareCeilings.RunRows rows) throws Exception {
    DescriptorProtos.DescriptorProto proto = rows.descriptor();
    Descriptors.Descriptor descriptor =
        Descriptors.FileDescriptor.buildFrom(
                DescriptorProtos.FileDescriptorProto.newBuilder().addMessageType(proto).build(),
                new Descriptors.FileDescriptor[0])
            .findMessageTypeByName(proto.getName());
    List<DynamicMessage> parsed = new ArrayList<>();
    for (ByteString row : rows.rows()) {
      parsed.add(DynamicMessage.parseFrom(descriptor, row));
    }
    return parsed;
  }

  private static Object field(DynamicMessage row, String name) {
    return row.getField(row.getDescriptorForType().findFieldByName(name));
  }

  private static Map<String, String> attributes(DynamicMessage row, String column) {
    Descriptors.FieldDescriptor field = row.getDescriptorForType().findFieldByName(column);
    @SuppressWarnings("unchecked")
    List<DynamicMessage> entries = (List<DynamicMessage>) row.getField(field);
    return entries.stream()
        .collect(
            Collectors.toMap(
                e -> (String) field(e, "key"), e -> (String) field(e, "value"), (a, b) -> a));
  }
}
