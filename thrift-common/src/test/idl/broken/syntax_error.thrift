namespace java io.thriftbq.testing.broken

struct Broken {
  1: required string name
  2: optional i32 count,,
}
