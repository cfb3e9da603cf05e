#!/usr/bin/env bash
# Two builds of local mode alternated on the same local runs, for a before/after comparison on a
# machine whose speed drifts (benchmarks/RESULTS.md): each round runs every step on build A, then
# on build B. A and B are checkouts with local-mode/target/local-mode-bundled.jar built
# (./mvnw -q -DskipTests -pl local-mode -am package). Appends one line per run to $OUT/results.tsv:
# round step build status events published/s sustained/s p50ms p99ms pipelineCPU duplicates missing
# bigqueryEmulatorCPU rowsPerBigQueryRequest peak5s/s sourceCPU steady/s (the rate over the steady
# window; - when the run was too short for one)
# (latency of events created after the warm-up; "-" when the run is too short to have any, never
# the whole run's figure in its place; CPU in CPU-seconds per 100,000 events over the steady window,
# docs/LOCAL.md "CPU per event", "-" when the run is too short for one; sourceCPU is the Pub/Sub
# emulator's or the Kafka broker's).
#
#   benchmarks/local-ab.sh A_ROOT B_ROOT [ROUNDS] [STEPS] [EVENTS] [RATE]
#
# A_ARGS and B_ARGS (environment, space-separated) add run-local.sh flags to build A's or B's runs
# only, so one build can be compared with itself under two settings (A_ROOT = B_ROOT), e.g.
# B_ARGS="--ingest-arg=--maxBundleTimeMills=500"; ARGS adds flags to both (e.g. "--source kafka").
# The same way it compares local sources (A_ARGS="--source pubsub" B_ARGS="--source kafka") and
# engines (A_ARGS="--engine direct" B_ARGS="--engine flink") on one build.
# A_ENV and B_ENV (space-separated VAR=value pairs) are exported only for build A's or B's runs,
# e.g. B_ENV="THRIFTBQ_BQ_GROUP_APPENDS=0" to compare the launcher with a setting of its own off.
#
# At the start of each round, this machine's bare emulator ceilings are measured once with build
# A's jar (io.thriftbq.local.EmulatorCeilings: CEILING_EVENTS events, default 10000, each; the
# Storage Write append ceiling at 500 and at 10 rows per request, Pub/Sub publish and pull) and
# appended to $OUT/ceilings.tsv: round what per_second (what: e.g. storage_write_append_500), so
# every figure of the round has the machine's ceiling of the same minutes beside it. The append
# ceilings append the rows of a run from CEILING_SOURCE (pubsub or kafka; default kafka when ARGS
# has --source kafka, else pubsub): a Kafka run's rows carry more metadata columns.
# CEILING_EVENTS=0 skips them. They are measured once more after the last round (round "end"), so
# every round has a ceiling taken before it and one after it.
#
# WRAP (space-separated) is a command prefix for every run and every ceiling, e.g.
# WRAP="benchmarks/slow-end.sh --factor 0.62 --" to measure both at the slow end of the machine
# class (benchmarks/slow-end.sh says how the factor is found).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/emulator-ceilings.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/emulator-ceilings.sh"
a_root="$(cd "$1" && pwd)"
b_root="$(cd "$2" && pwd)"
rounds="${3:-2}"
steps="${4:-8 6}"
events="${5:-8000}"
rate="${6:-2000}"
out_dir="${OUT:-/tmp/local-ab}"
ceiling_events="${CEILING_EVENTS:-10000}"
ceiling_source="${CEILING_SOURCE:-pubsub}"
if [[ -z "${CEILING_SOURCE:-}" && " ${ARGS:-} " =~ \ --source(=|\ )kafka\  ]]; then
  ceiling_source=kafka
fi
mkdir -p "${out_dir}"

# Appends this machine's bare emulator ceilings, measured with build A's jar, to ceilings.tsv.
measure_ceilings() {
  local round="$1" log="${out_dir}/r$1-ceilings.log"
  # shellcheck disable=SC2086 # word splitting of the prefix is intended
  emulator_ceilings "${a_root}" "${ceiling_events}" 500,10 "${ceiling_source}" timeout 300 ${WRAP:-} \
    >"${log}" 2>&1 || echo "ceilings of round ${round} failed: see ${log}" >&2
  awk -F '\t' -v round="${round}" -v OFS='\t' '$1 == "ceiling" { print round, $2, $3 }' "${log}" \
    >>"${out_dir}/ceilings.tsv"
}

for round in $(seq 1 "${rounds}"); do
  if [[ "${ceiling_events}" != 0 ]]; then
    measure_ceilings "${round}"
  fi
  for step in ${steps}; do
    for build in A B; do
      root="${a_root}"
      build_args="${A_ARGS:-}"
      build_env="${A_ENV:-}"
      if [[ "${build}" == B ]]; then
        root="${b_root}"
        build_args="${B_ARGS:-}"
        build_env="${B_ENV:-}"
      fi
      # shellcheck disable=SC2086 # word splitting of the extra flags is intended
      set -- ${ARGS:-} ${build_args}
      run="${out_dir}/r${round}-s${step}-${build}"
      # shellcheck disable=SC2086 # word splitting of the VAR=value pairs and the prefix is intended
      env ${build_env} SKIP_BUILD=1 timeout 900 ${WRAP:-} "${root}/scripts/run-local.sh" --no-progress \
        --step "${step}" --events "${events}" --rate "${rate}" --bad-ratio 0 \
        --report "${run}.json" "$@" >"${run}.log" 2>&1 || true
      python3 - "${run}.json" "${round}" "${step}" "${build}" >>"${out_dir}/results.tsv" <<'PY'
import json, sys
path, run_round, step, build = sys.argv[1:]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print("\t".join([run_round, step, build, "NO-REPORT (see the .log)"]))
    sys.exit()
t, c = d["throughput"], d.get("costs", {})
# After warm-up only: a run too short for it has no figure ("-"), not the whole run's.
lat = d.get("latency_ms", {}).get("after_warmup", {})
if not lat.get("samples"):
    lat = {"p50": "-", "p99": "-"}
print("\t".join(map(str, [run_round, step, build, d["status"], d["published"]["events"],
    t.get("publish_events_per_sec"), t.get("rows_per_sec_sustained"), lat.get("p50"),
    lat.get("p99"), c.get("pipeline_cpu_sec_per_100k_events", "-"),
    d["table"]["duplicate_extra_rows"], d["table"]["missing_ids"],
    c.get("bigquery_emulator_cpu_sec_per_100k_events", "-"),
    c.get("bigquery_requests", {}).get("rows_per_request"), t.get("rows_per_sec_peak_5s"),
    c.get("kafka_broker_cpu_sec_per_100k_events",
          c.get("pubsub_emulator_cpu_sec_per_100k_events", "-")),
    t.get("rows_per_sec_steady", "-")])))
PY
    done
  done
done
if [[ "${ceiling_events}" != 0 ]]; then
  measure_ceilings end
fi
cat "${out_dir}/results.tsv"
if [[ -f "${out_dir}/ceilings.tsv" ]]; then
  cat "${out_dir}/ceilings.tsv"
fi
