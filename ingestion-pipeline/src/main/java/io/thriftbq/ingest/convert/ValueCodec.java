package io.thriftbq.ingest.convert;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocol;

/**
 * Reads one Thrift value of a fixed type, either from the wire or from a generated object, and
 * returns it in the output format. Built once per converter from the schema, so the per-element
 * work is a straight walk with no type dispatch on metadata.
 */
interface ValueCodec {

  /** Reads the value from the protocol, which is positioned at it. */
  Object read(TProtocol in) throws TException, ThriftDecodeException;

  /** Converts the value as held by a generated Thrift object (boxed, List, Set, Map, TBase). */
  Object convert(Object value);

  /** The Thrift wire type of the value, to check it against field and container headers. */
  byte wireType();
}
