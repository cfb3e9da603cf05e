// A user's IDL that has no generated classes anywhere in this project: it is read at launch.
include "common/shared.thrift"

namespace java io.thriftbq.testing.byo

typedef map<string, list<i64>> SeriesByName

union Payload {
  1: string text,
  2: binary blob,
  3: shared.Point point,
}

struct ByoEvent {
  1: required string event_id,
  2: optional i8 tiny,
  3: optional shared.Tags tags,
  4: optional shared.Level level = shared.Level.HIGH,
  5: optional SeriesByName series,
  6: optional list<list<string>> grid,
  7: optional binary raw,
  8: optional Payload payload,
  9: optional shared.Failure failure,
  10: optional i32 priority = shared.DEFAULT_PRIORITY,
  11: optional map<string, list<shared.Point>> paths,
  12: optional string note = "none",
  13: optional list<i16> small = [1, 2, 3],
  14: optional map<shared.Level, bool> flags,
  15: i64 sequence,
}
