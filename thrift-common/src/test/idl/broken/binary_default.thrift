// The Apache Thrift compiler accepts a binary default; the IDL reader does not.
struct Blob {
  1: optional binary raw = "abc"
}
