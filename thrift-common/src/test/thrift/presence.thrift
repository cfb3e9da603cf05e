// Structs and unions with no fields, from generated classes: a table holds each as a BOOLEAN
// column, true where the value is sent, NULL where it is not (as it does for the same IDL read at
// launch; IdlParityTest compares the two).
namespace java io.thriftbq.testing.presence

struct Marker {}

union NoChoice {}

struct Holder {
  1: optional Marker inner,
}

struct Flagged {
  1: required i64 id,
  2: optional Marker marker,
  3: list<Marker> markers,
  4: optional NoChoice nothing,
  5: map<string, Marker> tagged,
  6: Marker plain,
  7: optional Holder holder,
  8: optional set<Marker> distinct,
}
