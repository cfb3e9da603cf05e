// Sample event for the Thrift -> Pub/Sub -> BigQuery template.
//
// Shaped like a real clickstream/commerce event: about 1 KB serialized with the
// binary protocol when the generator fills it with its default options. It uses
// every kind of Thrift type the pipelines support so that the sample exercises
// the whole type mapping (see README "Thrift to BigQuery type mapping").
//
// Regenerate the Java classes after editing: scripts/regenerate-thrift.sh

namespace java io.thriftbq.sample

typedef i64 EpochMillis
typedef string Uuid

enum EventType {
  PAGE_VIEW = 1,
  CLICK = 2,
  ADD_TO_CART = 3,
  PURCHASE = 4,
  SEARCH = 5,
  LOGIN = 6,
}

enum Platform {
  WEB = 0,
  IOS = 1,
  ANDROID = 2,
  TV = 3,
}

struct GeoLocation {
  1: required double latitude,
  2: required double longitude,
  3: optional string country_code,
  4: optional string region,
  5: optional string city,
  6: optional i32 accuracy_meters,
}

struct Device {
  1: required Platform platform,
  2: optional string os_version,
  3: optional string model,
  4: optional string app_version,
  5: optional i16 screen_width,
  6: optional i16 screen_height,
  7: optional bool is_tablet,
  8: optional string user_agent,
}

struct Session {
  1: required Uuid session_id,
  2: optional EpochMillis started_at,
  3: optional i32 page_views,
  4: optional string referrer,
  5: optional Device device,
  6: optional GeoLocation location,
}

struct Product {
  1: required string sku,
  2: optional string name,
  3: optional string category,
  4: optional i64 price_micros,
  5: optional i32 quantity,
  6: optional set<string> tags,
}

struct Experiment {
  1: required string experiment_id,
  2: optional string variant,
}

union PaymentMethod {
  1: string card_token,
  2: string wallet_id,
  3: i64 gift_card_id,
}

struct Event {
  1: required Uuid event_id,
  2: required EventType event_type,
  3: required EpochMillis event_time,
  4: optional string user_id,
  5: optional Session session,
  6: optional list<Product> products,
  7: optional map<string, string> properties,
  8: optional set<i32> segment_ids,
  9: optional list<Experiment> experiments,
  10: optional double revenue,
  11: optional bool is_test,
  12: optional binary payload_signature,
  13: optional i16 schema_version,
  14: optional i8 priority,
  15: optional string page_url,
  16: optional list<string> search_terms,
  17: optional map<string, i64> counters,
  18: optional PaymentMethod payment,
}
