namespace java com.example.common
typedef i64 Millis
typedef string Uuid
const i32 MAX = 0x7fffffff
enum Level { LOW = -1, MID, HIGH = 0x10 }
struct Geo {
  1: optional double lat = 0.0,
  2: optional double lon,
  3: optional Level level = Level.MID
}
