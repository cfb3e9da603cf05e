package io.thriftbq.ingest.origin;

import static org.junit.Assert.assertArrayEquals;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.Test;

/** The one metadata coder round-trips every field, and writes equal metadata to equal bytes. */
public class EventMetadataCoderTest {
  private static final EventMetadataCoder CODER = EventMetadataCoder.of();

  private static Map<String, String> attributes() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("zz", "last");
    attributes.put("event_id", "e-1");
    attributes.put("aa", "");
    return attributes;
  }

  @Test
  public void roundTripsPubsubMetadata() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(
        CODER, new EventMetadata("m-1", 1_700_000_000_123L, attributes()));
  }

  @Test
  public void roundTripsKafkaMetadataWithUnknownTime() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(
        CODER,
        new EventMetadata(
            null,
            EventMetadata.UNKNOWN_TIME,
            Map.of("h", "v"),
            new KafkaOrigin("orders", 3, 1234567890123L, new byte[] {9, 8})));
    CoderProperties.coderDecodeEncodeEqual(
        CODER, new EventMetadata(null, 0L, Map.of(), new KafkaOrigin("t", 0, 0, null)));
    CoderProperties.coderDecodeEncodeEqual(CODER, EventMetadata.EMPTY);
  }

  @Test
  public void encodesAttributesInKeyOrderWhateverTheMapsOrder() throws Exception {
    CODER.verifyDeterministic();
    byte[] insertionOrder =
        CoderUtils.encodeToByteArray(CODER, new EventMetadata("m", 1L, attributes()));
    byte[] hashOrder =
        CoderUtils.encodeToByteArray(
            CODER, new EventMetadata("m", 1L, new HashMap<>(attributes())));
    byte[] sorted =
        CoderUtils.encodeToByteArray(
            CODER, new EventMetadata("m", 1L, new TreeMap<>(attributes())));
    assertArrayEquals(sorted, insertionOrder);
    assertArrayEquals(sorted, hashOrder);
    CoderProperties.coderDeterministic(
        CODER,
        new EventMetadata("m", 1L, attributes()),
        new EventMetadata("m", 1L, new TreeMap<>(attributes())));
  }
}
