#!/usr/bin/env bash
# Local engine comparison (benchmarks/RESULTS.md, "Local engine"): the DirectRunner against the
# embedded Flink cluster on the same events, steps 8 and 6, alternated in each round, at a rate
# above what either sustains. Appends one line per run to $OUT/results.tsv:
# round step engine status events published/s sustained/s peak5s/s pipelineCPU pubsubCPU
# bigqueryCPU duplicate-rows missing-ids (CPU in CPU-seconds per 100,000 events).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out_dir="${OUT:-/tmp/local-engine}"
mkdir -p "${out_dir}"
for round in 1 2; do
  for step in 8 6; do
    for engine in direct flink; do
      events=6000
      [[ "${engine}" == flink ]] && events=15000
      run="${out_dir}/r${round}-s${step}-${engine}"
      SKIP_BUILD=1 timeout 900 scripts/run-local.sh --no-progress --engine "${engine}" \
        --step "${step}" --events "${events}" --rate 3000 --bad-ratio 0 \
        --report "${run}.json" >"${run}.log" 2>&1 || true
      python3 - "${run}.json" "${round}" "${step}" "${engine}" >>"${out_dir}/results.tsv" <<'PY'
import json, sys
path, run_round, step, engine = sys.argv[1:]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print("\t".join([run_round, step, engine, "NO-REPORT (see the .log)"]))
    sys.exit()
t, c = d["throughput"], d.get("costs", {})
print("\t".join(map(str, [run_round, step, engine, d["status"], d["published"]["events"],
    t.get("publish_events_per_sec"), t.get("rows_per_sec_sustained"), t.get("rows_per_sec_peak_5s"),
    c.get("pipeline_cpu_sec_per_100k_events"), c.get("pubsub_emulator_cpu_sec_per_100k_events"),
    c.get("bigquery_emulator_cpu_sec_per_100k_events"), d["table"]["duplicate_extra_rows"],
    d["table"]["missing_ids"]])))
PY
    done
  done
done
cat "${out_dir}/results.tsv"
