// Several event types of one shop, for the many-types examples and tests: on one topic with the
// thrift_struct attribute naming each message's struct, or wrapped in the AnyEvent union.
namespace java io.thriftbq.examples.shop

enum Currency {
  EUR = 1,
  USD = 2,
  JPY = 3,
}

struct Money {
  1: required i64 units,
  2: required Currency currency,
}

struct LineItem {
  1: required string sku,
  2: required i32 quantity,
  3: optional Money unit_price,
}

struct Order {
  1: required string order_id,
  2: required i64 created_at_ms,
  3: required string customer_id,
  4: optional list<LineItem> items,
  5: optional Money total,
  6: optional map<string, string> tags,
  7: optional bool gift,
}

struct Refund {
  1: required string refund_id,
  2: required string order_id,
  3: required i64 created_at_ms,
  4: optional Money amount,
  5: optional string reason,
  6: optional set<string> skus,
}

struct Click {
  1: required string session_id,
  2: required i64 at_ms,
  3: optional string url,
  4: optional string referrer,
  5: optional i32 position,
  6: optional double dwell_seconds,
  7: optional binary tracking,
}

union AnyEvent {
  1: Order order,
  2: Refund refund,
  3: Click click,
  // Not a struct: cannot be a table, so a message holding it is a ROUTE dead letter.
  4: string note,
}
