// Events whose serialized form can be a single byte (the struct's field stop): a struct with no
// fields, and one whose fields are all optional (the generator leaves some unset). Local mode's
// malformed messages must still fail where the report expects them to.
namespace java io.thriftbq.testing.sparse

struct Heartbeat {}

struct Sparse {
  1: optional string note
  2: optional i32 count
}

struct Filled {
  1: required string id
  2: optional list<i64> values
}

union AnySparse {
  1: Heartbeat heartbeat
  2: Sparse sparse
  3: Filled filled
  4: list<i32> numbers
}
