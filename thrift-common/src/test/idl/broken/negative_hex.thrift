// The Apache Thrift compiler reads -0x10 as -16; the IDL reader cannot read it.
struct Offsets {
  1: optional i32 shift = -0x10
}
