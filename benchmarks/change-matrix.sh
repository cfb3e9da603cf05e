#!/usr/bin/env bash
# Change mode's correctness matrix (issue 31): step 9 with a change stream (10% redeliveries, 20%
# updates, 5% deletes, 5% out-of-order changes where a sequence field allows them) in every format,
# from Pub/Sub and from Kafka, for the sample event and for three structs of the shop IDL, each
# run checked by local mode's final-state report. Appends one line per run to $OUT/results.tsv:
#   source structs format status keys live deleted present missing wrong stale deleted_back extra
#
#   benchmarks/change-matrix.sh [EVENTS] [RATE]
#
# Build local mode first (./mvnw -q -DskipTests -pl local-mode -am package); SKIP_BUILD=1 is set.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
events="${1:-600}"
rate="${2:-200}"
out_dir="${OUT:-/tmp/change-matrix}"
mkdir -p "${out_dir}"
idl="${repo_root}/thrift-common/src/main/idl/shop_events.thrift"
for source in pubsub kafka; do
  for structs in one three; do
    for format in PROTO_MESSAGE TABLE_ROW BEAM_ROW AVRO_GENERIC_RECORD; do
      run="${out_dir}/${source}-${structs}-${format}"
      args=(--no-progress --step 9 --source "${source}" --format "${format}" --events "${events}"
        --rate "${rate}" --bad-ratio 0.02 --report "${run}.json")
      if [[ "${structs}" == one ]]; then
        # The sample event: key event_id, ordered by its event_time field (out-of-order changes).
        args+=(--changes "keys=100,updates=0.2,deletes=0.05,duplicates=0.1,reorder=0.05"
          --ingest-arg=--changeType=attribute:change_type
          --ingest-arg=--changeSequence=field:event_time)
      else
        # Three structs, a key each; their sequence fields differ in name, so the source orders them.
        sequence=PUBLISH_TIME
        [[ "${source}" == kafka ]] && sequence=KAFKA_OFFSET
        args+=(--idl "${idl}" --structs "Order,Refund,Click"
          --changes "keys=40,updates=0.2,deletes=0.05,duplicates=0.1"
          "--ingest-arg=--primaryKey=Order=order_id;Refund=refund_id;Click=session_id"
          --ingest-arg=--changeType=attribute:op "--ingest-arg=--changeSequence=${sequence}")
      fi
      status=OK
      SKIP_BUILD=1 timeout 600 "${repo_root}/scripts/run-local.sh" "${args[@]}" >"${run}.log" 2>&1 ||
        status=FAILED
      python3 - "${run}.json" "${source}" "${structs}" "${format}" "${status}" >>"${out_dir}/results.tsv" <<'PY'
import json, sys
path, source, structs, fmt, status = sys.argv[1:]
try:
    state = json.load(open(path)).get("final_state", {})
except (OSError, ValueError):
    state = {}
fields = ["keys_expected", "live_expected", "deleted_expected", "present", "missing", "wrong",
          "stale", "deleted_back", "extra_rows"]
print("\t".join([source, structs, fmt, status] + [str(state.get(f, "?")) for f in fields]))
PY
      tail -1 "${out_dir}/results.tsv"
    done
  done
done
