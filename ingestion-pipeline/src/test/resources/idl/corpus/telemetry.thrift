// Shapes a user's IDL may hold that the sample does not: negative and hex enum values, maps keyed
// by numbers, enums, containers and structs, containers three deep, fields named like SQL keywords, structs with no
// fields (a marker, in every place a struct can be), and a union whose members are a struct, a
// struct with no fields and a list.
namespace java com.example.telemetry

enum Severity { DEBUG = -2, INFO = 0, WARN = 0x0A, ERROR = 0x7FFF }

struct Marker { 1: optional bool on }

struct Nothing {}

union NoChoice {}

struct Reading {
  1: optional double value,
  2: optional string unit,
  3: optional Severity severity
}

union Payload {
  1: Reading reading,
  2: Nothing nothing,
  4: Marker marker,
  3: list<i32> samples
}

struct Telemetry {
  1: required i64 device,
  2: optional map<i32, Reading> by_channel,
  3: optional list<list<list<i16>>> cube,
  4: optional map<Severity, list<map<i64, binary>>> blobs,
  5: optional Marker mark,
  6: optional string select,
  7: optional i32 order,
  8: optional Payload payload,
  9: optional list<Payload> history,
  10: optional map<string, set<Severity>> flags,
  11: optional bool group,
  12: optional Nothing empty,
  13: required Nothing always,
  14: optional list<Nothing> ticks,
  15: optional map<string, Nothing> seen,
  16: optional set<Nothing> once,
  17: optional map<Nothing, i32> by_nothing,
  18: optional NoChoice never,
  19: optional map<list<i32>, string> by_list,
  20: optional map<set<string>, Reading> by_set,
  21: optional set<list<i32>> set_of_lists,
  22: optional set<Reading> set_of_structs,
  23: optional map<Reading, map<string, i64>> by_struct,
  24: optional list<map<Severity, Payload>> deep_unions
}
