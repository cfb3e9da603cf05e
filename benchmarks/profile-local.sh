#!/usr/bin/env bash
# A CPU profile of the ingestion pipeline at saturation in local mode, split by component.
#
#   benchmarks/profile-local.sh STEP [EVENTS] [RATE] [-- more run-local.sh flags]
#
# Runs scripts/run-local.sh --profile (step STEP, EVENTS events offered at RATE/s, no malformed
# messages): local mode records the pipeline with Java Flight Recorder in its own JVM and reads
# each thread's CPU from /proc at every poll, and its report splits the pipeline's CPU by
# component over the window its own CPU figure uses (from the first poll that saw rows to the last
# poll) and over that window's second half. This script prints that split as tables: CPU share and
# microseconds of pipeline CPU per event by component, the top threads, and the frames that
# decided each large component (code: local-mode's io.thriftbq.local.profile; rules:
# local-mode/src/main/resources/io/thriftbq/local/profile/components.tsv).
#
# Defaults: 30000 events at 3000/s (above what 2 cores sustain with both emulators). Output in
# $PROFILE_OUT (default /tmp/profile-local/stepSTEP-TIME): report.json, report.jfr (the
# recording, for JDK Mission Control), run.log, components.md. SKIP_BUILD=1 is passed through to
# run-local.sh. Wrap it in `flock /tmp/jmh.lock` on a shared machine.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
  sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
step="$1"
shift
events=30000
rate=3000
if [[ $# -gt 0 && "$1" != "--" ]]; then
  events="$1"
  shift
fi
if [[ $# -gt 0 && "$1" != "--" ]]; then
  rate="$1"
  shift
fi
[[ $# -gt 0 && "$1" == "--" ]] && shift

out="${PROFILE_OUT:-/tmp/profile-local/step${step}-$(date -u +%Y%m%dT%H%M%S)}"
mkdir -p "${out}"
out="$(cd "${out}" && pwd)"
rm -f "${out}/report.jfr" "${out}/report.json"

echo "profile-local: step ${step}, ${events} events at ${rate}/s; output in ${out}"
status=0
"${repo_root}/scripts/run-local.sh" --profile --no-progress --step "${step}" --events "${events}" \
  --rate "${rate}" --bad-ratio 0 --report "${out}/report.json" "$@" >"${out}/run.log" 2>&1 ||
  status=$?
if [[ ! -s "${out}/report.json" ]]; then
  echo "profile-local: the run left no report (exit ${status}); see ${out}/run.log" >&2
  exit 1
fi
grep -E '^(Rows in table|Missing ids|Duplicates|Throughput|Cost|Result)' "${out}/run.log" || true

{
  echo "step ${step}: ${events} events offered at ${rate}/s, $(date -u +%Y-%m-%dT%H:%M:%SZ)," \
    "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  java -cp "${repo_root}/local-mode/target/local-mode-bundled.jar" \
    io.thriftbq.local.report.ProfileTables "${out}/report.json"
} | tee "${out}/components.md"
exit "${status}"
