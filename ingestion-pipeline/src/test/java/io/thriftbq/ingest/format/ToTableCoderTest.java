package io.thriftbq.ingest.format;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.Test;

public class ToTableCoderTest {
  /** Two tables whose elements need different coders: a string's and a varint's. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private final ToTableCoder<Object> coder =
      ToTableCoder.of(List.of((Coder) StringUtf8Coder.of(), (Coder) VarIntCoder.of()));

  @Test
  public void encodesEachElementWithItsTablesCoder() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(coder, new ToTable<>(0, "order-1"));
    CoderProperties.coderDecodeEncodeEqual(coder, new ToTable<>(1, 300));
    byte[] bytes = CoderUtils.encodeToByteArray(coder, new ToTable<>(1, 300));
    // The index, then the element in the varint coder's two bytes.
    assertEquals(3, bytes.length);
    coder.verifyDeterministic();
  }

  @Test
  public void refusesATableIndexItHasNoCoderFor() {
    CoderException e =
        assertThrows(
            CoderException.class, () -> CoderUtils.encodeToByteArray(coder, new ToTable<>(2, "x")));
    assertTrue(e.getMessage(), e.getMessage().contains("not one of the 2 tables"));
    assertThrows(IllegalArgumentException.class, () -> new ToTable<>(-1, "x"));
  }
}
