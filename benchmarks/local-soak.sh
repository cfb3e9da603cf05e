#!/usr/bin/env bash
# The local-mode soak of docs/RELIABILITY.md (issue 32): the runs a new user makes, back to back on
# one machine, counting the runs that failed, the servers that died and the runs that hung.
#
#   benchmarks/local-soak.sh [ROOT]
#
# ROOT is a checkout with its jars built (default: this one). Per source, 10 default runs (step 8,
# 4,000 events at 200/s) and 5 three-struct runs of thrift-common's shop_events.thrift at 300/s
# (3 by attribute on step 8, 2 by union on step 7 with kept payloads), Pub/Sub and Kafka alternating:
# 30 runs, about 25 minutes on 2 cores. Each run is bounded by RUN_TIMEOUT seconds (default 600);
# one that outlives it counts as hung. Appends a line per run to $OUT/soak.tsv (default
# /tmp/local-soak):
#   run source kind exit status missing_ids server_deaths p99_after_warmup_ms
# and ends with a summary line; exits 1 unless every run was OK with no death and no hang.
# RUN_LOCAL replaces scripts/run-local.sh (the tests give it a stand-in).
set -euo pipefail
root="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
run_local="${RUN_LOCAL:-${root}/scripts/run-local.sh}"
out_dir="${OUT:-/tmp/local-soak}"
run_timeout="${RUN_TIMEOUT:-600}"
mkdir -p "${out_dir}"
: >"${out_dir}/soak.tsv"

idl="${root}/thrift-common/src/main/idl/shop_events.thrift"
# The 15 runs of each source, in order: the three-struct runs spread among the default ones.
kinds=(default default by-attribute default default by-union default by-attribute default default
  by-union default by-attribute default default)

flags_of() {
  case "$1" in
    default) ;;
    by-attribute) echo "--idl ${idl} --structs Order,Refund,Click --rate 300 --events 6000" ;;
    by-union)
      echo "--idl ${idl} --union AnyEvent --step 7 --ingest-arg=--keepPayloadForWriteFailures=true" \
        "--rate 300 --events 6000"
      ;;
  esac
}

run=0
for kind in "${kinds[@]}"; do
  for source in pubsub kafka; do
    run=$((run + 1))
    name="${out_dir}/run${run}-${source}-${kind}"
    code=0
    # shellcheck disable=SC2046 # the kind's flags are words on purpose
    (cd "${root}" && SKIP_BUILD=1 timeout "${run_timeout}" "${run_local}" --no-progress \
      --source "${source}" --report "${name}.json" $(flags_of "${kind}")) >"${name}.log" 2>&1 ||
      code=$?
    python3 - "${name}.json" "${name}.log" "${run}" "${source}" "${kind}" "${code}" \
      >>"${out_dir}/soak.tsv" <<'PY'
import json, sys
report, log, run, source, kind, code = sys.argv[1:]
deaths = open(log, errors="replace").read().count("died mid-run")
try:
    d = json.load(open(report))
    status, missing = d["status"], d["table"]["missing_ids"]
    p99 = d.get("latency_ms", {}).get("after_warmup", {}).get("p99", "-")
except (OSError, ValueError, KeyError):
    status, missing, p99 = "NO-REPORT", "-", "-"
print("\t".join(map(str, [run, source, kind, code, status, missing, deaths, p99])))
PY
    tail -1 "${out_dir}/soak.tsv"
  done
done

summary="$(awk -F '\t' '
  { runs++; if ($5 == "OK" && $4 == 0) ok++; deaths += $7; if ($4 == 124) hangs++
    if ($6 ~ /^[0-9]+$/) missing += $6 }
  END { printf "%d of %d runs OK, %d server deaths, %d hangs, %d missing events\n",
        ok, runs, deaths, hangs, missing }' "${out_dir}/soak.tsv")"
echo "soak: ${summary} (${out_dir}/soak.tsv)"
[[ "${summary}" == "${run} of ${run} runs OK, 0 server deaths, 0 hangs, 0 missing events" ]]
