# An older style of IDL: '#' and '/* */' comments, ';' and ',' and nothing between fields, fields
# written without an id (the compiler numbers them -1, -2, ... and warns), typedef chains, defaults
# of every kind the IDL reader takes (constants, enums, lists, maps, structs; not binary), an
# exception used as a field, annotations and a service. Not here: a container default that names a
# constant, which the Java generator of Thrift 0.17 turns into an empty container (ThriftIdlTest).
# An IDL read at launch must give the ids and the rows the generated classes do (IdlParityTest;
# IdlCorpusTest damages its events).
namespace java io.thriftbq.testing.legacy
namespace * legacy

typedef i64 Millis
typedef Millis When                   // a typedef of a typedef
typedef list<When> Timeline
typedef map<string, Timeline> Timelines

const i32 DEFAULT_RETRIES = 3
const string ORIGIN = "batch"

enum Level {
  LOW = 1,
  HIGH = 10;
  MID = 5
}

/* every field without an id: -1, -2, -3 */
struct Step {
  string label
  Millis took;
  optional list<string> notes,
}

struct Point {
  1: i32 x = 0;
  2 : i32 y = 0
} (annotation.of.struct = "ignored")

exception Failure {
  string message,        # -1: before an id the reader numbers it 1, which no field has
  2: i32 code = -1
}

union Choice {
  1: string label = "none",  # a new Choice is set to this; one read holds only the member sent
  2: i32 count
}

struct Job {
  1: optional Timeline steps = [1, 2, 3];
  2: optional Timelines by_stage = {"load": [10, 20]},
  3: optional Level level = Level.MID,
  4: optional Point origin = {"x": 1, "y": 2},
  5: optional list<Point> path = [{"x": 1}, {"y": 2}],
  6: optional Failure failure,
  7: optional string source = ORIGIN,
  8: optional list<string> tags = ["a", "b"],
  9: optional map<string, i32> limits = {"x": 1, "y": 2},
  10: optional double ratio = 1,
  11: optional bool retried = 0,
  12: optional binary blob,
  0x0D: optional set<Level> levels = [Level.LOW, Level.HIGH],
  14: optional list<Step> done
  15: optional Choice choice,
  required string name;              # -1
  i32 attempts = DEFAULT_RETRIES,    # -2
  When started (java.annotation = "ignored"),  # -3
  optional Step current              # -4
}

service Jobs {
  oneway void ping()
}
