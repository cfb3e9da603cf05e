package io.thriftbq.codec;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TTransport;

/** The Thrift wire protocols an event can be serialized with. */
public enum ThriftProtocol {
  BINARY,
  COMPACT;

  /**
   * A reading protocol over {@code transport} that refuses strings longer than {@code
   * maxStringBytes} and containers larger than {@code maxContainerElements} before allocating, so a
   * corrupt length prefix cannot ask for gigabytes.
   */
  public TProtocol newReader(TTransport transport, int maxStringBytes, int maxContainerElements) {
    return switch (this) {
      case BINARY -> new TBinaryProtocol(transport, maxStringBytes, maxContainerElements);
      case COMPACT -> new TCompactProtocol(transport, maxStringBytes, maxContainerElements);
    };
  }

  /** A writing protocol over {@code transport}. */
  public TProtocol newWriter(TTransport transport) {
    return switch (this) {
      case BINARY -> new TBinaryProtocol(transport);
      case COMPACT -> new TCompactProtocol(transport);
    };
  }

  /**
   * Transport configuration whose message size limit covers {@code maxMessageBytes}; Thrift's
   * default (100 MB) is larger than any Pub/Sub message, but a smaller one caps allocation.
   */
  public static TConfiguration configuration(int maxMessageBytes) {
    return TConfiguration.custom()
        .setMaxMessageSize(maxMessageBytes)
        .setMaxFrameSize(maxMessageBytes)
        .build();
  }
}
