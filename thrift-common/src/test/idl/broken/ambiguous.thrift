include "../common/shared.thrift"

// Also named Point: --thriftStruct=Point is ambiguous, ambiguous.Point is not.
struct Point {
  1: required i32 x,
}
