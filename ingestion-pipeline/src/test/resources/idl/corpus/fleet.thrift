include "sub/common.thrift"
namespace java com.example.fleet
namespace py fleet

typedef list<common.Geo> Track
typedef map<string, string> Tags

exception Oops { 1: string why }

struct Vehicle {
  1: required string id,
  2: optional common.Millis seen_at,
  3: optional Track track,
  4: optional Tags tags,
  5: optional set<i16> codes,
  6: optional i8 tiny,
  7: optional byte tiny2,
  8: optional binary blob,
  9: optional bool ok = true,
  10: optional common.Level lvl,
  32767: optional string last_id,
  11: optional map<common.Level, common.Geo> by_level,
  12: optional set<string> names,
  13: optional list<set<i64>> nested_sets,
  14: optional map<binary, double> weird_map,
  15: optional common.Uuid uid (custom.annotation = "x"),
  16: optional double nan_ok,
}

struct Trip {
  1: Vehicle vehicle,
  2: list<Vehicle> convoy,
  3: optional map<string, list<Vehicle>> groups,
  4: i32 plain_default_requiredness
}

union FleetEvent {
  1: Vehicle vehicle,
  2: Trip trip,
  3: string note
}

service FleetService {
  void ping(),
  Vehicle get(1: string id) throws (1: Oops oops)
}
