// The Apache Thrift compiler accepts this (name is -1); the IDL reader numbers name 1, as code.
struct Collides {
  string name,
  1: i32 code
}
