// A union in which one struct is the type of two members (a renamed member kept for old data).
struct Order {
  1: required string order_id,
}

struct Click {
  1: required string session_id,
}

union Wrapped {
  1: Order order,
  2: Click click,
  3: Order legacy_order,
}
