#!/usr/bin/env bash
# Offline check of the Terraform variables' validation rules, with no provider: the variables.tf
# of the root (and of the bigquery and kafka modules) are copied alone into a scratch directory, where
# terraform init needs nothing to download, and planned with good values (must pass) and bad ones
# (must be refused). terraform validate/plan of the whole configuration still cannot run offline
# (the Google provider is not obtainable); this catches what they would have caught in the rules
# themselves, such as a regex Terraform's RE2 rejects (can(regex(...)) is then always false).
#
# Usage: scripts/ci/tf_variables_check.sh   (needs terraform; run by scripts/ci/offline-checks.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TF="$ROOT/terraform"
export TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
FAILED=0
CASES=0

# scratch NAME SOURCE_DIR: a directory holding only SOURCE_DIR's variables.tf, initialised.
scratch() {
  mkdir -p "$WORK/$1"
  cp "$2/variables.tf" "$WORK/$1/"
  terraform -chdir="$WORK/$1" init -input=false -no-color >/dev/null
}

# expect pass|fail DIR DESCRIPTION VAR_FILE_JSON [TFVARS_FILE]
expect() {
  local want="$1" dir="$2" what="$3" json="$4" extra=() got out
  CASES=$((CASES + 1))
  printf '%s\n' "$json" >"$WORK/$dir/case.tfvars.json"
  [[ -z "${5:-}" ]] || extra=(-var-file="$5")
  if out="$(terraform -chdir="$WORK/$dir" plan -input=false -no-color -lock=false "${extra[@]}" \
    -var-file="$WORK/$dir/case.tfvars.json" 2>&1)"; then
    got=pass
  else
    got=fail
  fi
  if [[ "$got" == "$want" ]]; then
    printf 'ok    %s: %s (%s)\n' "$dir" "$what" "$want"
  else
    printf 'FAIL  %s: %s: expected %s, got %s\n%s\n' "$dir" "$what" "$want" "$got" "$out"
    FAILED=$((FAILED + 1))
  fi
}

scratch root "$TF"
example="$TF/terraform.tfvars.example"
expect pass root "terraform.tfvars.example" '{}' "$example"
expect pass root "event_tables from SchemaExporter, with overrides" '{"event_tables": {
  "order": {"schema_file": "schemas/order.json", "partition_type": "DAY", "partition_field": "_publish_time"},
  "refund_v2": {"schema_file": "/abs/refund_v2.json", "table_id": "refunds"},
  "click": {"schema_file": "schemas/click.json", "clustering_fields": ["session_id"]}}}' "$example"
expect fail root "event_tables key dead_letter (collides with events_dead_letter)" \
  '{"event_tables": {"dead_letter": {"schema_file": "x.json"}}}' "$example"
expect fail root "event_tables key not snake_case" '{"event_tables": {"Order": {"schema_file": "x.json"}}}' "$example"
expect fail root "event_tables table_id events" \
  '{"event_tables": {"order": {"schema_file": "x.json", "table_id": "events"}}}' "$example"
expect fail root "event_tables table_id with a hyphen" \
  '{"event_tables": {"order": {"schema_file": "x.json", "table_id": "my-orders"}}}' "$example"
expect fail root "two event_tables entries on one table" \
  '{"event_tables": {"order": {"schema_file": "x.json"}, "o": {"schema_file": "y.json", "table_id": "events_order"}}}' "$example"
expect fail root "event_tables partition_type WEEK" \
  '{"event_tables": {"order": {"schema_file": "x.json", "partition_type": "WEEK"}}}' "$example"
expect fail root "event_tables five clustering fields" \
  '{"event_tables": {"order": {"schema_file": "x.json", "clustering_fields": ["a","b","c","d","e"]}}}' "$example"
expect fail root "event_tables entry without schema_file" '{"event_tables": {"order": {"table_id": "orders"}}}' "$example"
expect pass root "change mode: the single table's key and staleness, as SchemaExporter writes them" \
  '{"event_table_primary_key": ["tenant_id", "event_id"], "event_table_max_staleness": "0-0 0 0:15:0"}' "$example"
expect pass root "change mode: event_tables entries with primary_key and max_staleness" '{"event_tables": {
  "order": {"schema_file": "schemas/order.json", "primary_key": ["order_id"], "max_staleness": "0-0 1 2:3:4"},
  "refund": {"schema_file": "schemas/refund.json", "primary_key": []}}}' "$example"
expect fail root "event_table_primary_key with 17 columns" \
  '{"event_table_primary_key": ["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]}' "$example"
expect fail root "event_table_primary_key with a column twice" '{"event_table_primary_key": ["id", "id"]}' "$example"
expect fail root "event_table_primary_key entry that is not a column name" '{"event_table_primary_key": ["order.id"]}' "$example"
expect fail root "event_table_primary_key entry starting with a digit" '{"event_table_primary_key": ["1id"]}' "$example"
expect fail root "event_table_max_staleness as an ISO-8601 duration" '{"event_table_max_staleness": "PT15M"}' "$example"
expect fail root "event_table_max_staleness without the day part" '{"event_table_max_staleness": "0-0 0:15:0"}' "$example"
expect fail root "event_tables primary_key with a dotted name" \
  '{"event_tables": {"order": {"schema_file": "x.json", "primary_key": ["total.amount"]}}}' "$example"
expect fail root "event_tables primary_key with 17 columns" \
  '{"event_tables": {"order": {"schema_file": "x.json", "primary_key": ["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]}}}' "$example"
expect fail root "event_tables max_staleness in minutes" \
  '{"event_tables": {"order": {"schema_file": "x.json", "max_staleness": "15m"}}}' "$example"
expect fail root "bad name_prefix" '{"name_prefix": "Bad_Prefix"}' "$example"
expect pass root "the Kafka route, sized" '{"event_source": "kafka", "kafka_vcpu_count": 24,
  "kafka_memory_gib": 96, "kafka_partition_count": 256, "kafka_retention_hours": 6}' "$example"
expect fail root "event_source neither pubsub nor kafka" '{"event_source": "Kafka"}' "$example"
expect fail root "a Kafka cluster below 3 vCPUs" '{"event_source": "kafka", "kafka_vcpu_count": 2}' "$example"
expect fail root "Kafka memory below 3 GiB" '{"kafka_memory_gib": 2}' "$example"
expect fail root "no Kafka partitions" '{"kafka_partition_count": 0}' "$example"
expect fail root "Kafka retention above a week" '{"kafka_retention_hours": 169}' "$example"
expect fail root "Kafka max.message.bytes above 10 MiB" '{"kafka_max_message_bytes": 20971520}' "$example"

scratch bigquery "$TF/modules/bigquery"
bq='"project_id": "my-project", "location": "US", "event_table_id": "events",
  "dead_letter_table_id": "events_dead_letter", "event_table_schema": "[]", "dead_letter_table_schema": "[]",
  "partition_type": null, "partition_field": null, "clustering_fields": [], "deletion_protection": false,
  "labels": {}'
expect pass bigquery "dataset thriftbq" "{$bq, \"dataset_id\": \"thriftbq\"}"
expect pass bigquery "dataset with struct tables" "{$bq, \"dataset_id\": \"my_demo\", \"struct_tables\": {\"order\": {
  \"table_id\": \"events_order\", \"schema\": \"[]\", \"partition_type\": \"DAY\", \"partition_field\": null,
  \"clustering_fields\": [], \"primary_key\": [], \"max_staleness\": null}}}"
expect pass bigquery "change mode: keyed event and struct tables" "{$bq, \"dataset_id\": \"thriftbq\",
  \"primary_key\": [\"event_id\"], \"max_staleness\": \"0-0 0 0:15:0\", \"struct_tables\": {\"order\": {
  \"table_id\": \"events_order\", \"schema\": \"[]\", \"partition_type\": null, \"partition_field\": null,
  \"clustering_fields\": [], \"primary_key\": [\"order_id\"], \"max_staleness\": null}}}"
expect fail bigquery "event table primary_key that is not a column name" \
  "{$bq, \"dataset_id\": \"thriftbq\", \"primary_key\": [\"a-b\"]}"
expect fail bigquery "event table max_staleness not an INTERVAL literal" \
  "{$bq, \"dataset_id\": \"thriftbq\", \"max_staleness\": \"15 minutes\"}"
expect fail bigquery "struct table max_staleness not an INTERVAL literal" "{$bq, \"dataset_id\": \"thriftbq\",
  \"struct_tables\": {\"order\": {\"table_id\": \"events_order\", \"schema\": \"[]\", \"partition_type\": null,
  \"partition_field\": null, \"clustering_fields\": [], \"primary_key\": [], \"max_staleness\": \"PT1H\"}}}"
expect fail bigquery "dataset id with a hyphen" "{$bq, \"dataset_id\": \"my-demo\"}"

scratch kafka "$TF/modules/kafka"
kafka='"project_id": "my-project", "region": "us-central1", "topic_id": "thriftbq-events",
  "subnetwork_id": "projects/my-project/regions/us-central1/subnetworks/thriftbq-workers", "vcpu_count": 3,
  "memory_gib": 12, "partition_count": 128, "retention_ms": 86400000, "max_message_bytes": 1048588, "labels": {}'
expect pass kafka "cluster thriftbq-kafka" "{$kafka, \"cluster_id\": \"thriftbq-kafka\"}"
expect fail kafka "cluster id with an underscore" "{$kafka, \"cluster_id\": \"thriftbq_kafka\"}"

echo "terraform variables: $((CASES - FAILED)) passed, $FAILED failed (variables.tf alone, no provider)"
((FAILED == 0))
