#!/usr/bin/env bash
# Issue 32's local-mode targets, measured on this machine in one command, with a verdict per
# target: the runs benchmarks/RESULTS.md sections 34-36 made by hand, each beside this machine's
# append ceiling measured in the same minutes.
#
#   benchmarks/local-targets.sh [--rounds N] [--sources "pubsub kafka"] [--slow-end [F]]
#
#   --rounds N        rounds of every run (default 2; the verdict takes medians)
#   --sources LIST    the sources, space- or comma-separated (default "pubsub kafka")
#   --slow-end [F]    run everything at the slow end of the machine class, imitated by
#                     benchmarks/slow-end.sh with factor F (measured by it when left out); the
#                     default run's cores are then given in the slow machine's own cores (the
#                     estimate of docs/LOCAL.md: cores x (slowed ceiling / F) / 1670)
#
# Per round and source, in this order (the source's rows for every ceiling):
#   1. the append ceilings at 500 and 10 rows per request (io.thriftbq.local.EmulatorCeilings);
#   2. the default run (scripts/run-local.sh as a new user starts it);
#   3. three structs of shop_events.thrift at 300/s: by attribute on step 8, and by union on step 7
#      with kept payloads;
#   4. the ceilings again, step 8 at saturation (a rate of three times the ceiling, about 30 s of
#      the ceiling's events), and the ceilings once more;
#   5. step 6 at half the ceiling (the median of the round's three readings so far: one reading
#      taken while the machine briefly ran faster does not set the rate), about 35 s of events,
#      and the ceilings once more, so the verdict shows the rate beside the ceilings around it.
# Then benchmarks/local-targets-verdict.py prints every target with its figures, their median and
# "met" or "NOT MET", and this script exits 0 only when every target is met. A full run takes
# about 7 minutes per round and source on a 2-core machine (twice that at the slow end).
#
# It also checks that the BigQuery emulator's venv holds exactly its lock.
#
# Output in $OUT (default /tmp/local-targets): every run's report (.json) and log, runs.tsv,
# ceilings.tsv, lock.txt, targets.md (the verdict). CEILING_EVENTS (default 20000) sets the events
# of each ceiling. RUN_LOCAL, CEILINGS and LOCK_CHECK_PYTHON replace scripts/run-local.sh, the
# ceilings' command and the venv's python (the tests give stand-ins); nothing here needs the
# network beyond 127.0.0.1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib/emulator-ceilings.sh
. "${root}/benchmarks/lib/emulator-ceilings.sh"
rounds=2
sources="pubsub kafka"
slow_end=0
factor=""
out_dir="${OUT:-/tmp/local-targets}"
ceiling_events="${CEILING_EVENTS:-20000}"
run_local="${RUN_LOCAL:-${root}/scripts/run-local.sh}"
idl="${root}/thrift-common/src/main/idl/shop_events.thrift"

# The header comment above, whatever its length.
usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
}

while (($#)); do
  case "$1" in
    --rounds)
      rounds="${2:?--rounds needs a number, e.g. --rounds 2}"
      shift 2
      ;;
    --sources)
      sources="${2:?--sources needs a list, e.g. --sources pubsub,kafka}"
      shift 2
      ;;
    --slow-end)
      slow_end=1
      shift
      if (($#)) && [[ "$1" != --* ]]; then
        factor="$1"
        shift
      fi
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "ERROR: unknown argument '$1'; see --help" >&2
      exit 2
      ;;
  esac
done
if ! [[ "${rounds}" =~ ^[1-9][0-9]*$ ]]; then
  echo "ERROR: --rounds must be a whole number of at least 1, got '${rounds}'" >&2
  exit 2
fi
sources="${sources//,/ }"
for source in ${sources}; do
  if [[ "${source}" != pubsub && "${source}" != kafka ]]; then
    echo "ERROR: --sources takes pubsub and kafka, got '${source}'" >&2
    exit 2
  fi
done

jar="$(local_mode_jar "${root}")"
if [[ -z "${RUN_LOCAL:-}${CEILINGS:-}" && ! -f "${jar}" ]]; then
  echo "ERROR: ${jar} is not built: run ./mvnw -q -DskipTests install (or scripts/run-local.sh once)" >&2
  exit 2
fi

wrap=()
if ((slow_end)); then
  if [[ -z "${factor}" ]]; then
    # slow-end.sh measures this machine's free ceiling and prints the factor it gives.
    factor="$("${root}/benchmarks/slow-end.sh" --print 2>&1 |
      sed -n 's/^slow-end factor \([0-9.]*\) .*/\1/p')"
    if [[ -z "${factor}" ]]; then
      echo "ERROR: benchmarks/slow-end.sh could not find the factor; give --slow-end F" >&2
      exit 1
    fi
  fi
  wrap=("${root}/benchmarks/slow-end.sh" --factor "${factor}" --)
fi

mkdir -p "${out_dir}"
: >"${out_dir}/runs.tsv"
: >"${out_dir}/ceilings.tsv"

# "A fresh install gives the same package versions as the lock": the emulator's venv against it.
lock_status=0
"${LOCK_CHECK_PYTHON:-${root}/.local-stack/venv-bq/bin/python}" \
  "${root}/scripts/local/bigquery_emulator_lock.py" check \
  "${root}/scripts/local/bigquery-emulator.lock.txt" >"${out_dir}/lock.txt" 2>&1 || lock_status=$?
echo "${lock_status}" >>"${out_dir}/lock.txt"

# Appends the append ceilings (500 and 10 rows per request, the source's rows) to ceilings.tsv:
#   round source when rows_per_request per_second
ceilings() {
  local round="$1" source="$2" when="$3" log="${out_dir}/r$1-$2-ceilings-$3.log"
  if [[ -n "${CEILINGS:-}" ]]; then
    # shellcheck disable=SC2086 # the stand-in is a command with its words
    ${CEILINGS} "${ceiling_events}" "${source}" >"${log}" 2>&1 || true
  else
    emulator_ceilings "${root}" "${ceiling_events}" 500,10 "${source}" timeout 600 "${wrap[@]}" \
      >"${log}" 2>&1 || true
  fi
  awk -F '\t' -v OFS='\t' -v r="${round}" -v s="${source}" -v w="${when}" \
    '$1 == "ceiling" && $2 ~ /^storage_write_append_(500|10)$/ {
       n = $2; sub(/^storage_write_append_/, "", n); print r, s, w, n, $3 }' "${log}" \
    >>"${out_dir}/ceilings.tsv"
}

# The last ceiling at 500 rows per request measured for this round and source.
last_ceiling() {
  awk -F '\t' -v r="$1" -v s="$2" '$1 == r && $2 == s && $4 == 500 { c = $5 } END { print c + 0 }' \
    "${out_dir}/ceilings.tsv"
}

# The median of the ceilings at 500 rows per request measured so far for this round and source:
# one reading taken while the machine ran briefly faster (or slower) does not set a rate alone.
median_ceiling() {
  awk -F '\t' -v r="$1" -v s="$2" '$1 == r && $2 == s && $4 == 500 { print $5 }' \
    "${out_dir}/ceilings.tsv" | sort -n |
    awk '{ c[NR] = $1 } END { print NR ? int(NR % 2 ? c[(NR + 1) / 2] : (c[NR / 2] + c[NR / 2 + 1]) / 2) : 0 }'
}

# One run of scripts/run-local.sh; appends "round source target rate report" to runs.tsv.
run() {
  local round="$1" source="$2" target="$3" rate="$4"
  shift 4
  local name="${out_dir}/r${round}-${source}-${target}"
  (cd "${root}" && SKIP_BUILD=1 timeout 900 "${wrap[@]}" "${run_local}" --no-progress \
    --source "${source}" --report "${name}.json" "$@") >"${name}.log" 2>&1 || true
  printf '%s\t%s\t%s\t%s\t%s\n' "${round}" "${source}" "${target}" "${rate}" "${name}.json" \
    >>"${out_dir}/runs.tsv"
  echo "round ${round}, ${source}: ${target} done ($(date -u +%H:%M:%S) UTC)" >&2
}

if ((slow_end)); then
  echo "At the slow end: benchmarks/slow-end.sh --factor ${factor}" >&2
fi
for round in $(seq 1 "${rounds}"); do
  for source in ${sources}; do
    ceilings "${round}" "${source}" first
    run "${round}" "${source}" default 200
    run "${round}" "${source}" structs-attribute 300 --idl "${idl}" --structs Order,Refund,Click \
      --rate 300 --events 6000
    run "${round}" "${source}" structs-union 300 --idl "${idl}" --union AnyEvent --step 7 \
      --ingest-arg=--keepPayloadForWriteFailures=true --rate 300 --events 6000
    ceilings "${round}" "${source}" before-saturation
    ceiling="$(last_ceiling "${round}" "${source}")"
    # Three times the ceiling saturates it; a saturation run needs 2,000/s at least.
    rate=$((ceiling * 3 > 2000 ? ceiling * 3 : 2000))
    run "${round}" "${source}" saturation-step8 "${rate}" --step 8 --bad-ratio 0 \
      --rate "${rate}" --events $((ceiling > 1000 ? ceiling * 30 : 30000))
    ceilings "${round}" "${source}" after-saturation
    ceiling="$(median_ceiling "${round}" "${source}")"
    half=$((ceiling > 200 ? ceiling / 2 : 100))
    run "${round}" "${source}" half-ceiling-step6 "${half}" --step 6 --bad-ratio 0 \
      --rate "${half}" --events $((half * 35))
    ceilings "${round}" "${source}" after-step6
  done
done

verdict_args=(--out "${out_dir}")
if ((slow_end)); then
  verdict_args+=(--slow-end-factor "${factor}")
fi
python3 "${root}/benchmarks/local-targets-verdict.py" "${verdict_args[@]}" |
  tee "${out_dir}/targets.md"
exit "${PIPESTATUS[0]}"
