#!/usr/bin/env bash
# Local sources compared (benchmarks/RESULTS.md, "Kafka against the Pub/Sub emulator"): the same
# events through the Pub/Sub emulator and through the local Kafka broker, steps 8, 7 and 6,
# alternated in each round, at a rate above what either sustains. Appends one line per run to
# $OUT/results.tsv:
# round step source status events published/s sustained/s peak5s/s pipelineCPU sourceCPU
# bigqueryCPU duplicate-rows missing-ids (CPU in CPU-seconds per 100,000 events; sourceCPU is the
# Pub/Sub emulator's or the Kafka broker's).
# ROUNDS (default 2), STEPS (default "8 7 6") and EVENTS (default 15000) override the plan.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out_dir="${OUT:-/tmp/local-sources}"
mkdir -p "${out_dir}"
read -r -a steps <<<"${STEPS:-8 7 6}"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for step in "${steps[@]}"; do
    for source in pubsub kafka; do
      run="${out_dir}/r${round}-s${step}-${source}"
      SKIP_BUILD=1 timeout 900 scripts/run-local.sh --no-progress --source "${source}" \
        --step "${step}" --events "${EVENTS:-15000}" --rate 4000 --bad-ratio 0 \
        --report "${run}.json" >"${run}.log" 2>&1 || true
      python3 - "${run}.json" "${round}" "${step}" "${source}" >>"${out_dir}/results.tsv" <<'PY'
import json, sys
path, run_round, step, source = sys.argv[1:]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print("\t".join([run_round, step, source, "NO-REPORT (see the .log)"]))
    sys.exit()
t, c = d["throughput"], d.get("costs", {})
source_cpu = c.get("kafka_broker_cpu_sec_per_100k_events",
                   c.get("pubsub_emulator_cpu_sec_per_100k_events"))
print("\t".join(map(str, [run_round, step, source, d["status"], d["published"]["events"],
    t.get("publish_events_per_sec"), t.get("rows_per_sec_sustained"), t.get("rows_per_sec_peak_5s"),
    c.get("pipeline_cpu_sec_per_100k_events"), source_cpu,
    c.get("bigquery_emulator_cpu_sec_per_100k_events"), d["table"]["duplicate_extra_rows"],
    d["table"]["missing_ids"]])))
PY
    done
  done
done
cat "${out_dir}/results.tsv"
