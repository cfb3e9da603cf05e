package io.thriftbq.change;

import java.util.regex.Pattern;

/**
 * BigQuery's change sequence numbers ({@code _CHANGE_SEQUENCE_NUMBER}): up to four sections of 1-16
 * hexadecimal digits separated by {@code /}, compared section by section, left to right, as
 * unsigned integers (https://cloud.google.com/bigquery/docs/change-data-capture, "Manage custom
 * ordering"). The one place the format is written and compared, for the ingestion pipeline, the
 * generator's expected state and local mode's checks.
 */
public final class ChangeSequence {
  /**
   * The format BigQuery accepts (the same as Beam's {@code StorageApiCDC.EXPECTED_SQN_PATTERN}).
   */
  public static final Pattern FORMAT =
      Pattern.compile("^[0-9A-Fa-f]{1,16}(/[0-9A-Fa-f]{1,16}){0,3}$");

  public static final int MAX_SECTIONS = 4;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private ChangeSequence() {}

  /** Whether {@code sequence} is a sequence number BigQuery accepts. */
  public static boolean isValid(String sequence) {
    return sequence != null && FORMAT.matcher(sequence).matches();
  }

  /**
   * A signed 64-bit value as one section whose order is the value's: the sign bit flipped, so that
   * -1 sorts before 0 (BigQuery compares sections as unsigned numbers, and negative numbers must
   * not be encoded as such). Sixteen digits, so the string also sorts as the number does.
   */
  public static String ofSigned(long value) {
    char[] digits = new char[16];
    writeSigned(value, digits, 0);
    return new String(digits);
  }

  /** {@link #ofSigned} into {@code out} at {@code at}, as 16 ASCII hex digits. */
  public static void writeSigned(long value, char[] out, int at) {
    long unsigned = value ^ Long.MIN_VALUE;
    for (int i = 15; i >= 0; i--) {
      out[at + i] = HEX[(int) (unsigned & 0xF)];
      unsigned >>>= 4;
    }
  }

  /** {@link #ofSigned} into {@code out} at {@code at}, as 16 ASCII hex bytes. */
  public static void writeSigned(long value, byte[] out, int at) {
    long unsigned = value ^ Long.MIN_VALUE;
    for (int i = 15; i >= 0; i--) {
      out[at + i] = (byte) HEX[(int) (unsigned & 0xF)];
      unsigned >>>= 4;
    }
  }

  /** A non-negative value (a Kafka offset) as one section, without leading zeros. */
  public static String ofUnsigned(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("a sequence section must not be negative: " + value);
    }
    return Long.toHexString(value).toUpperCase(java.util.Locale.ROOT);
  }

  /**
   * BigQuery's order of two valid sequence numbers: negative when {@code a} is older. Sections are
   * compared left to right as unsigned numbers; when one is a prefix of the other, the one with
   * more sections is the newer (so {@code FFF/ABC} is newer than {@code FFF}). Equal numbers
   * compare 0: BigQuery then applies the change it ingested last.
   *
   * @throws IllegalArgumentException if either is not {@link #isValid valid}
   */
  public static int compare(String a, String b) {
    long[] left = sections(a);
    long[] right = sections(b);
    for (int i = 0; i < Math.min(left.length, right.length); i++) {
      int c = Long.compareUnsigned(left[i], right[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(left.length, right.length);
  }

  private static long[] sections(String sequence) {
    if (!isValid(sequence)) {
      throw new IllegalArgumentException(
          "not a BigQuery change sequence number (up to 4 sections of 1-16 hex digits separated"
              + " by /): "
              + sequence);
    }
    String[] parts = sequence.split("/");
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = Long.parseUnsignedLong(parts[i], 16);
    }
    return values;
  }
}
