package io.thriftbq.ingest.format;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import java.util.Map;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.Test;

/**
 * What {@code writeProtos(EncodedRow.class)} relies on: the descriptor only while the write is
 * applied (a Beam that reads it on workers fails this project's pipeline tests loudly), the bytes
 * as they are, a coder that moves the bytes and nothing else; and the payload carrier, which is the
 * encoded row when BigQueryIO sees it as a message.
 */
public class EncodedRowTest {
  private static final byte[] ROW = {0x0a, 0x03, 'a', 'b', 'c', 0x10, 0x07};

  @Test
  public void theDescriptorIsThereOnlyWhileTheWriteIsApplied() {
    var descriptor =
        EventSchemas.of("io.thriftbq.sample.Event", MetadataColumns.NONE).rowDescriptor();
    assertThat(
        assertThrows(IllegalStateException.class, EncodedRow::getDescriptor).getMessage(),
        containsString("only while its BigQueryIO write is applied"));
    assertSame(
        descriptor, EncodedRow.applyingWithDescriptor(descriptor, EncodedRow::getDescriptor));
    assertThrows(IllegalStateException.class, EncodedRow::getDescriptor);
  }

  @Test
  public void theBytesAreTheRowAsItIsAndStillReadableAsAMessage() {
    EncodedRow row = new EncodedRow(ROW);
    assertSame(ROW, row.toByteArray());
    assertEquals(ROW.length, row.getSerializedSize());
    assertArrayEquals(ROW, row.toByteString().toByteArray());
    assertEquals(new EncodedRow(ROW.clone()), row);
    // Without the table's descriptor every field is an unknown field: debuggable, not opaque.
    assertThat(row.toString(), containsString("1: \"abc\""));
    assertEquals(2, row.getUnknownFields().asMap().size());
  }

  @Test
  public void theCoderMovesTheBytesAndTheirLengthOnly() throws Exception {
    EncodedRow plain = new EncodedRow(ROW);
    EncodedRow decoded = CoderUtils.clone(EncodedRowCoder.of(), plain);
    assertArrayEquals(ROW, decoded.bytes());
    assertEquals(
        "length prefix, bytes",
        1 + ROW.length,
        CoderUtils.encodeToByteArray(EncodedRowCoder.of(), plain).length);
  }

  @Test
  public void theCoderKeepsWhetherTheRowAlreadyCarriesItsChangeColumns() throws Exception {
    EncodedRow stamped = new EncodedRow(ROW, true);
    EncodedRow decoded = CoderUtils.clone(EncodedRowCoder.of(), stamped);
    assertTrue("a row that crossed a coder is not stamped again", decoded.hasChangeColumns());
    assertArrayEquals(ROW, decoded.bytes());
    assertFalse(CoderUtils.clone(EncodedRowCoder.of(), new EncodedRow(ROW)).hasChangeColumns());
    assertNotEquals(new EncodedRow(ROW), stamped);
    assertEquals(
        "the flag rides in the length prefix",
        1 + ROW.length,
        CoderUtils.encodeToByteArray(EncodedRowCoder.of(), stamped).length);
  }

  @Test
  public void aRowWithPayloadIsItsEncodedRowAsAMessage() throws Exception {
    EventMetadata metadata = new EventMetadata("m-1", 1_700_000_000_000L, Map.of("k", "v"));
    RowWithPayload<EncodedRow> element =
        new RowWithPayload<>(new EncodedRow(ROW), new byte[] {1, 2, 3}, metadata);
    assertSame(ROW, element.toByteArray());
    assertEquals(ROW.length, element.getSerializedSize());
    assertArrayEquals(ROW, element.toByteString().toByteArray());
    var descriptor =
        EventSchemas.of("io.thriftbq.sample.Event", MetadataColumns.NONE).rowDescriptor();
    assertSame(
        descriptor, EncodedRow.applyingWithDescriptor(descriptor, RowWithPayload::getDescriptor));

    RowWithPayload<EncodedRow> back =
        CoderUtils.clone(RowWithPayloadCoder.of(EncodedRowCoder.of()), element);
    assertEquals(element, back);
    assertArrayEquals(new byte[] {1, 2, 3}, back.payload());
    assertEquals(metadata, back.metadata());
  }

  @Test
  public void aRowWithPayloadOfAnotherFormatSaysItIsNoMessage() {
    RowWithPayload<String> element =
        new RowWithPayload<>("not a message", new byte[] {1}, EventMetadata.EMPTY);
    assertThat(element.toString(), containsString("payloadBytes=1"));
    assertThat(
        assertThrows(UnsupportedOperationException.class, element::toByteArray).getMessage(),
        containsString("only PROTO_MESSAGE rows are written as messages"));
  }
}
