// Test IDL that covers every Thrift type the schema walker, the converters and the
// data generator must handle. Not used in production.
namespace java io.thriftbq.testing

typedef i32 Count
typedef list<string> StringList
typedef Inner InnerAlias

enum Color {
  RED = 1,
  GREEN = 2,
  BLUE = 7,
}

struct Inner {
  1: required string name,
  2: optional i64 value,
  3: optional Color color,
}

struct Middle {
  1: optional Inner inner,
  2: optional list<Inner> inners,
  3: optional map<string, Inner> inner_by_name,
}

union Choice {
  1: string text,
  2: i64 number,
  3: Inner inner,
}

struct AllTypes {
  1: required bool a_bool,
  2: required i8 a_byte,
  3: required i16 a_i16,
  4: required i32 a_i32,
  5: required i64 a_i64,
  6: required double a_double,
  7: required string a_string,
  8: required binary a_binary,
  9: optional Color a_enum,
  10: optional Count a_typedef,
  11: optional StringList a_typedef_list,
  12: optional list<i64> a_list,
  13: optional set<string> a_set,
  14: optional map<string, i32> a_map,
  15: optional map<i64, Inner> a_map_of_structs,
  16: optional list<list<i32>> a_list_of_lists,
  17: optional Middle a_nested,
  18: optional Choice a_union,
  19: optional InnerAlias a_struct_typedef,
  20: optional list<Color> a_enum_list,
  21: optional map<string, list<string>> a_map_of_lists,
  22: optional set<binary> a_binary_set,
  23: string default_requirement,
  24: optional string with_default = "hello",
  25: optional i32 int_with_default = 42,
}
