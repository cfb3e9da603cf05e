// Shared definitions, included by byo_event.thrift through a relative path.
namespace java io.thriftbq.testing.byo.shared

typedef list<string> Tags

// Values with gaps, as IDLs that have retired values look.
enum Level {
  LOW = 1,
  HIGH = 10,
  CRITICAL = 100,
}

struct Point {
  1: required double x,
  2: required double y,
}

exception Failure {
  1: required string message,
  2: optional i32 code = 500,
}

const i32 DEFAULT_PRIORITY = 3
