package io.thriftbq.ingest.change;

import io.thriftbq.change.ChangeSequence;
import io.thriftbq.change.ChangeSpec.ChangeTypeSource;
import io.thriftbq.change.ChangeSpec.SequenceSource;
import io.thriftbq.ingest.convert.RowSuffix;
import io.thriftbq.ingest.origin.EventMetadata;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.io.gcp.bigquery.RowMutationInformation.MutationType;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PROTO_MESSAGE's change pseudo-columns written where the one-pass writer writes the row, before
 * the row is cut to size, so that change mode adds no array and no object per event: one scan of
 * the row's top-level fields in the writer's buffer finds the key, change type and sequence fields;
 * the change type is matched against the values' UTF-8 bytes; the sequence's hex digits are written
 * straight into the row. Whatever that path cannot decide (a missing key, an unknown change type, a
 * missing or malformed sequence) is decided by the {@link ChangeRule} itself, which gives the
 * refusal and its reason; the bytes are those of {@link ChangeColumns#stamp} (the differential fuzz
 * target and {@code ChangeColumnsTest} compare them).
 */
final class ChangeStamp implements RowSuffix {
  private static final byte[] UPSERT = "UPSERT".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DELETE = "DELETE".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private enum Sequence {
    NONE,
    PUBLISH_TIME,
    KAFKA_OFFSET,
    INTEGER_FIELD,
    STRING_FIELD
  }

  private final ChangeRule rule;
  private final int changeTypeNumber;

  // The plan, from the rule.
  private final int[] keyNumbers;
  private final boolean allUpserts;
  private final @Nullable String typeAttribute;
  private final int typeNumber;
  private final byte[][] upsertValues;
  private final byte[][] deleteValues;
  private final Set<String> upsertStrings;
  private final Set<String> deleteStrings;
  private final Sequence sequence;
  private final int sequenceNumber;

  // What the scan of one row found (reused for every row).
  private final boolean[] keyFound;
  private int typeOffset;
  private int typeLength;
  private boolean sequenceFound;
  private long sequenceValue;
  private int sequenceOffset;
  private int sequenceLength;

  // The decision for the row being written.
  private byte[] typeBytes;
  private int digits; // sequence characters, 0 for none
  private long digitsValue; // the value whose hex digits are written
  private boolean signedDigits; // 16 digits, sign bit flipped; else unsigned without leading zeros
  private byte @Nullable [] sequenceSource; // a sequence field's own bytes, copied as they are
  private @Nullable Change slowChange; // set when the rule itself decided

  private final ColumnReader<ColumnReaders.ProtoBytes> reader = ColumnReaders.protoBytes();
  private final ColumnReaders.ProtoBytes view = new ColumnReaders.ProtoBytes();

  private ChangeStamp(ChangeRule rule, int changeTypeNumber) {
    this.rule = rule;
    this.changeTypeNumber = changeTypeNumber;
    List<ChangeColumn> key = rule.key();
    keyNumbers = new int[key.size()];
    for (int i = 0; i < keyNumbers.length; i++) {
      keyNumbers[i] = key.get(i).protoNumber();
    }
    keyFound = new boolean[keyNumbers.length];
    ChangeTypeSource type = rule.typeSource();
    allUpserts = type instanceof ChangeTypeSource.AllUpserts;
    typeAttribute = type instanceof ChangeTypeSource.Attribute a ? a.name() : null;
    typeNumber = rule.typeColumn() == null ? -1 : rule.typeColumn().protoNumber();
    upsertStrings = rule.upsertValues();
    deleteStrings = rule.deleteValues();
    upsertValues = utf8(upsertStrings);
    deleteValues = utf8(deleteStrings);
    SequenceSource source = rule.sequenceSource();
    ChangeColumn column = rule.sequenceColumn();
    if (source instanceof SequenceSource.PublishTime) {
      sequence = Sequence.PUBLISH_TIME;
    } else if (source instanceof SequenceSource.KafkaOffset) {
      sequence = Sequence.KAFKA_OFFSET;
    } else if (column != null) {
      sequence = column.isInteger() ? Sequence.INTEGER_FIELD : Sequence.STRING_FIELD;
    } else {
      sequence = Sequence.NONE;
    }
    sequenceNumber = column == null ? -1 : column.protoNumber();
  }

  /** The factory for rows of {@code columns} top-level columns changed by {@code rule}. */
  static RowSuffix.Factory factory(ChangeRule rule, int columns) {
    int number = ChangeColumns.changeTypeNumber(columns);
    return () -> new ChangeStamp(rule, number);
  }

  private static byte[][] utf8(Set<String> values) {
    byte[][] bytes = new byte[values.size()][];
    int i = 0;
    for (String value : values) {
      bytes[i++] = value.getBytes(StandardCharsets.UTF_8);
    }
    return bytes;
  }

  @Override
  public int prepare(byte[] row, int length, EventMetadata metadata) {
    slowChange = null;
    sequenceSource = null;
    if (!scan(row, length) || !decide(row, metadata)) {
      // The rule decides what this path could not: it refuses the event, with the reason.
      view.bytes = row;
      view.length = length;
      try {
        slowChange = rule.decide(view, reader, metadata);
      } finally {
        view.bytes = null;
      }
      return ChangeColumns.size(slowChange, changeTypeNumber);
    }
    int size = fieldSize(changeTypeNumber, typeBytes.length);
    if (digits > 0) {
      size += fieldSize(changeTypeNumber + 1, digits);
    }
    return size;
  }

  @Override
  public int write(byte[] out, int at) {
    if (slowChange != null) {
      return ChangeColumns.write(slowChange, changeTypeNumber, out, at);
    }
    at = header(out, at, changeTypeNumber, typeBytes.length);
    System.arraycopy(typeBytes, 0, out, at, typeBytes.length);
    at += typeBytes.length;
    if (digits == 0) {
      return at;
    }
    at = header(out, at, changeTypeNumber + 1, digits);
    if (sequenceSource != null) {
      System.arraycopy(sequenceSource, sequenceOffset, out, at, digits);
    } else if (signedDigits) {
      ChangeSequence.writeSigned(digitsValue, out, at);
    } else {
      long value = digitsValue;
      for (int i = digits - 1; i >= 0; i--) {
        out[at + i] = HEX[(int) (value & 0xF)];
        value >>>= 4;
      }
    }
    return at + digits;
  }

  /** Finds the fields the rule reads among the row's top-level fields; false on anything odd. */
  private boolean scan(byte[] row, int length) {
    java.util.Arrays.fill(keyFound, false);
    typeOffset = -1;
    sequenceFound = false;
    int pos = 0;
    while (pos < length) {
      long tag = 0;
      int shift = 0;
      while (true) {
        if (pos >= length || shift > 28) {
          return false;
        }
        byte b = row[pos++];
        tag |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          break;
        }
        shift += 7;
      }
      int number = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      long value = 0;
      int valueOffset = pos;
      int valueLength = 0;
      switch (wireType) {
        case 0 -> {
          shift = 0;
          while (true) {
            if (pos >= length || shift > 63) {
              return false;
            }
            byte b = row[pos++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
              break;
            }
            shift += 7;
          }
        }
        case 1 -> pos += 8;
        case 5 -> pos += 4;
        case 2 -> {
          int len = 0;
          shift = 0;
          while (true) {
            if (pos >= length || shift > 28) {
              return false;
            }
            byte b = row[pos++];
            len |= (b & 0x7F) << shift;
            if (b >= 0) {
              break;
            }
            shift += 7;
          }
          if (len < 0 || len > length - pos) {
            return false;
          }
          valueOffset = pos;
          valueLength = len;
          pos += len;
        }
        default -> {
          return false;
        }
      }
      // The first occurrence counts, as for the general path's reader (each is written once).
      boolean all = true;
      for (int i = 0; i < keyNumbers.length; i++) {
        if (keyNumbers[i] == number) {
          keyFound[i] = true;
        }
        all &= keyFound[i];
      }
      if (number == typeNumber && wireType == 2 && typeOffset < 0) {
        typeOffset = valueOffset;
        typeLength = valueLength;
      }
      if (number == sequenceNumber && !sequenceFound) {
        sequenceFound = true;
        sequenceValue = value;
        sequenceOffset = valueOffset;
        sequenceLength = valueLength;
      }
      if (all
          && (typeNumber < 0 || typeOffset >= 0)
          && (sequenceNumber < 0 || sequenceFound)
          && pos <= length) {
        return true; // everything the rule reads is found: the rest of the row is not looked at
      }
    }
    return pos == length;
  }

  /** Decides the change from what the scan found; false where only the rule can say. */
  private boolean decide(byte[] row, EventMetadata metadata) {
    for (boolean found : keyFound) {
      if (!found) {
        return false;
      }
    }
    MutationType type;
    if (allUpserts) {
      type = MutationType.UPSERT;
    } else if (typeAttribute != null) {
      String value = metadata.attributes().get(typeAttribute);
      if (value == null) {
        return false;
      }
      type =
          upsertStrings.contains(value)
              ? MutationType.UPSERT
              : deleteStrings.contains(value) ? MutationType.DELETE : null;
    } else {
      if (typeOffset < 0) {
        return false;
      }
      type =
          matches(row, upsertValues)
              ? MutationType.UPSERT
              : matches(row, deleteValues) ? MutationType.DELETE : null;
    }
    if (type == null) {
      return false;
    }
    typeBytes = type == MutationType.UPSERT ? UPSERT : DELETE;
    switch (sequence) {
      case NONE -> digits = 0;
      case PUBLISH_TIME -> {
        if (!metadata.hasPublishTime()) {
          return false;
        }
        signed(metadata.publishTimeMillis());
      }
      case KAFKA_OFFSET -> {
        if (metadata.kafka() == null || metadata.kafka().offset() < 0) {
          return false;
        }
        long offset = metadata.kafka().offset();
        signedDigits = false;
        digitsValue = offset;
        digits = Math.max(1, (64 - Long.numberOfLeadingZeros(offset) + 3) / 4);
      }
      case INTEGER_FIELD -> {
        if (!sequenceFound) {
          return false;
        }
        signed(sequenceValue);
      }
      case STRING_FIELD -> {
        if (!sequenceFound || !isSequence(row, sequenceOffset, sequenceLength)) {
          return false;
        }
        sequenceSource = row;
        digits = sequenceLength;
      }
    }
    return true;
  }

  private void signed(long value) {
    signedDigits = true;
    digitsValue = value;
    digits = 16;
  }

  private boolean matches(byte[] row, byte[][] values) {
    for (byte[] value : values) {
      if (value.length == typeLength
          && java.util.Arrays.equals(
              row, typeOffset, typeOffset + typeLength, value, 0, value.length)) {
        return true;
      }
    }
    return false;
  }

  /** BigQuery's sequence format, on ASCII bytes: 1-4 sections of 1-16 hex digits, '/' between. */
  private static boolean isSequence(byte[] bytes, int offset, int length) {
    int sections = 1;
    int run = 0;
    for (int i = offset; i < offset + length; i++) {
      byte b = bytes[i];
      if (b == '/') {
        if (run == 0 || ++sections > ChangeSequence.MAX_SECTIONS) {
          return false;
        }
        run = 0;
      } else if ((b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F')) {
        if (++run > 16) {
          return false;
        }
      } else {
        return false;
      }
    }
    return run > 0;
  }

  private static int fieldSize(int number, int length) {
    return varintSize(number << 3) + 1 + length;
  }

  private static int varintSize(int value) {
    int size = 1;
    while ((value & ~0x7F) != 0) {
      size++;
      value >>>= 7;
    }
    return size;
  }

  // Lengths are at most 67 (a four-section sequence), so one byte each.
  private static int header(byte[] out, int at, int number, int length) {
    int tag = (number << 3) | 2;
    while ((tag & ~0x7F) != 0) {
      out[at++] = (byte) ((tag & 0x7F) | 0x80);
      tag >>>= 7;
    }
    out[at++] = (byte) tag;
    out[at++] = (byte) length;
    return at;
  }
}
