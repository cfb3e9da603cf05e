package io.thriftbq.local.source;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.Test;

public class KafkaSourceTest {
  @Test
  public void attributesBecomeUtf8HeadersAndTheEventIdTheKey() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("event_id", "42");
    attributes.put("event_time_ms", "1700000000000");
    attributes.put("thrift_struct", "Order");
    attributes.put("note", "\u00e9\u4e2d");
    byte[] payload = {1, 2, 3};
    ProducerRecord<byte[], byte[]> record =
        KafkaSource.record("t", new SourceMessage(payload, attributes));
    assertEquals("t", record.topic());
    assertNull("the partitioner picks by key", record.partition());
    assertArrayEquals("42".getBytes(StandardCharsets.UTF_8), record.key());
    assertArrayEquals(payload, record.value());
    List<String> names = new ArrayList<>();
    for (Header header : record.headers()) {
      names.add(header.key());
      assertArrayEquals(
          attributes.get(header.key()).getBytes(StandardCharsets.UTF_8), header.value());
    }
    assertEquals("every attribute, in order", List.copyOf(attributes.keySet()), names);
  }

  @Test
  public void aMessageWithoutEventIdHasNoKey() {
    ProducerRecord<byte[], byte[]> record =
        KafkaSource.record(
            "t", new SourceMessage(new byte[0], Map.of("malformed_kind", "RANDOM_BYTES")));
    assertNull(record.key());
    assertArrayEquals(new byte[0], record.value());
  }

  @Test
  public void theProducerWaitsForEveryReplicaAndWritesOnce() {
    Map<String, Object> config = KafkaSource.producerConfig("127.0.0.1:1");
    assertEquals("all", config.get(ProducerConfig.ACKS_CONFIG));
    assertEquals(true, config.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
    assertEquals("127.0.0.1:1", config.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
  }
}
