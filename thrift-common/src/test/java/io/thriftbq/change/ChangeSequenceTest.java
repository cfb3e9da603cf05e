package io.thriftbq.change;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import org.junit.Test;

public class ChangeSequenceTest {

  @Test
  public void formatIsBigQuerys() {
    assertTrue(ChangeSequence.isValid("0"));
    assertTrue(ChangeSequence.isValid("FFFFFFFFFFFFFFFF/ffffffffffffffff/0/1"));
    assertFalse(ChangeSequence.isValid(""));
    assertFalse(ChangeSequence.isValid("1/2/3/4/5"));
    assertFalse(ChangeSequence.isValid("12345678901234567"));
    assertFalse(ChangeSequence.isValid("-1"));
    assertFalse(ChangeSequence.isValid("G"));
    assertFalse(ChangeSequence.isValid("1//2"));
  }

  @Test
  public void comparesAsBeamsDocumentedExamples() {
    // The examples of Beam's RowMutationInformation.of(MutationType, String), after BigQuery's
    // page.
    assertTrue(ChangeSequence.compare("B", "ABC") < 0);
    assertTrue(ChangeSequence.compare("FFF/B", "FFF/ABC") < 0);
    assertTrue(ChangeSequence.compare("BA/FFFFFFFF", "ABC") < 0);
    assertTrue(ChangeSequence.compare("FFF/ABC", "ABC") > 0);
    assertEquals(0, ChangeSequence.compare("FFF", "fff"));
    assertEquals(0, ChangeSequence.compare("00F", "F"));
    assertTrue(ChangeSequence.compare("FFF", "FFF/0") < 0);
  }

  @Test
  public void signedValuesKeepTheirOrderAndTheFormat() {
    long[] edges = {Long.MIN_VALUE, -1_000_000L, -1, 0, 1, 1_704_067_200_000L, Long.MAX_VALUE};
    for (int i = 0; i + 1 < edges.length; i++) {
      String a = ChangeSequence.ofSigned(edges[i]);
      String b = ChangeSequence.ofSigned(edges[i + 1]);
      assertTrue(a + " valid", ChangeSequence.isValid(a));
      assertTrue(edges[i] + " < " + edges[i + 1], ChangeSequence.compare(a, b) < 0);
    }
    Random random = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      long x = random.nextLong();
      long y = random.nextLong();
      assertEquals(
          Long.signum(Long.compare(x, y)),
          Integer.signum(
              ChangeSequence.compare(ChangeSequence.ofSigned(x), ChangeSequence.ofSigned(y))));
    }
    byte[] bytes = new byte[16];
    ChangeSequence.writeSigned(-5, bytes, 0);
    assertEquals(
        ChangeSequence.ofSigned(-5), new String(bytes, java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Test
  public void unsignedOffsetsKeepTheirOrder() {
    assertEquals("0", ChangeSequence.ofUnsigned(0));
    assertEquals("FF", ChangeSequence.ofUnsigned(255));
    assertTrue(
        ChangeSequence.compare(ChangeSequence.ofUnsigned(255), ChangeSequence.ofUnsigned(4096))
            < 0);
    assertThrows(IllegalArgumentException.class, () -> ChangeSequence.ofUnsigned(-1));
    assertThrows(IllegalArgumentException.class, () -> ChangeSequence.compare("x", "1"));
  }
}
