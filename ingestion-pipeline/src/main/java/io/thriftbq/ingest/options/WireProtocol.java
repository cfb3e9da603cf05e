package io.thriftbq.ingest.options;

/**
 * The Thrift wire protocol named by {@code --thriftProtocol}. The names are those of {@code
 * io.thriftbq.codec.ThriftProtocol}, which does the reading; this package keeps its own copy so
 * that the options depend on nothing else of ours (a test keeps the two lists equal).
 */
public enum WireProtocol {
  BINARY,
  COMPACT
}
