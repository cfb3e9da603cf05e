package io.thriftbq.ingest.convert;

import io.thriftbq.ingest.origin.EventMetadata;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Makes a format's row straight from the Thrift bytes, without the codec tree's intermediate column
 * values (PROTO_MESSAGE's {@link DirectProtoWriter}). It may decline a payload it cannot take in
 * one pass; the codec tree then decodes it, so both give the same row or the same failure.
 *
 * @param <R> the row type
 */
interface OnePassWriter<R> {

  /**
   * The row of the {@code length} bytes at {@code offset} of {@code buffer}, or null when the
   * general path must decode them. Adds to the rules' row-size estimate as the codec tree would;
   * the caller checks the total.
   */
  @Nullable R write(byte[] buffer, int offset, int length, EventMetadata metadata);
}
