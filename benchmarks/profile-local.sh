#!/usr/bin/env bash
# A CPU profile of the ingestion pipeline at saturation in local mode, split by component.
#
#   benchmarks/profile-local.sh STEP [EVENTS] [RATE] [-- more run-local.sh flags]
#   benchmarks/profile-local.sh --analyze DIR   (the tables again from a kept output directory,
#                                                 e.g. after a change to the component rules)
#
# Runs scripts/run-local.sh (step STEP, EVENTS events offered at RATE/s, no malformed messages)
# with Java Flight Recorder on the runner JVM, where the pipeline runs embedded, and samples the
# CPU of each of that JVM's threads from /proc once a second. Then, over the window local mode's
# own CPU figure uses (from the first poll that saw rows to the last poll), it prints a table of
# CPU share and microseconds of pipeline CPU per event by component: each thread's CPU is spread
# over the components of its JFR execution samples (rules and their order:
# benchmarks/profile/components.tsv; method: benchmarks/profile/JfrComponents.java).
#
# Defaults: 30000 events at 3000/s (above what 2 cores sustain with both emulators). Output in
# $PROFILE_OUT (default /tmp/profile-local/stepSTEP-TIME): report.json, run.log, pipeline.jfr,
# threads.tsv, components.md. SKIP_BUILD=1 is passed through to run-local.sh. Wrap it in
# `flock /tmp/jmh.lock` on a shared machine.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
  sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
analyze_only=""
if [[ "$1" == "--analyze" ]]; then
  [[ $# -eq 2 && -s "$2/report.json" && -s "$2/pipeline.jfr" && -s "$2/threads.tsv" ]] || {
    echo "profile-local: --analyze needs a directory with report.json, pipeline.jfr and threads.tsv" >&2
    exit 2
  }
  analyze_only="$(cd "$2" && pwd)"
  step="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configuration"]["step"])' "${analyze_only}/report.json")"
  set --
else
  step="$1"
  shift
fi
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

analyze() { # DIR: the tables for the window of DIR/report.json, into DIR/components.md
local out="$1"
# The window local mode's cost figure uses: first poll that saw rows (or dead letters) .. last poll.
# Also its second half (from the poll nearest the middle), where the JVM is warmer: a bounded run
# of a minute spends much of its CPU compiling (JIT), which a long-running job amortizes.
read -r from to window_events report_cpu mid mid_events < <(python3 - "${out}/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
start = d["timeline_start_epoch_ms"]
points = [(p["t_ms"], p["rows"] + p["dead_letters"]) for p in d["timeline"]]
first_index = next(i for i, p in enumerate(points) if p[1] > 0)
first, last = points[first_index], points[-1]
middle = points[(first_index + len(points) - 1) // 2]
cpu = d.get("costs", {}).get("pipeline_cpu_sec_per_100k_events")
print(start + first[0], start + last[0], last[1] - first[1], "nan" if cpu is None else cpu * 10,
      start + middle[0], last[1] - middle[1])
PY
)
{
  if [[ -n "${analyze_only}" ]]; then
    echo "step ${step}: analysed again $(date -u +%Y-%m-%dT%H:%M:%SZ) from ${out}"
  else
    echo "step ${step}: ${events} events offered at ${rate}/s, $(date -u +%Y-%m-%dT%H:%M:%SZ)," \
      "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  fi
  echo "local mode's own figure: pipeline ${report_cpu} µs of CPU per event (RunCosts)"
  java "${script_dir}/profile/JfrComponents.java" "${script_dir}/profile/components.tsv" \
    "${out}/pipeline.jfr" "${out}/threads.tsv" "${from}" "${to}" "${window_events}"
  echo
  echo "second half of the window:"
  java "${script_dir}/profile/JfrComponents.java" "${script_dir}/profile/components.tsv" \
    "${out}/pipeline.jfr" "${out}/threads.tsv" "${mid}" "${to}" "${mid_events}"
} | tee "${out}/components.md"
}

if [[ -n "${analyze_only}" ]]; then
  analyze "${analyze_only}"
  exit 0
fi

out="${PROFILE_OUT:-/tmp/profile-local/step${step}-$(date -u +%Y%m%dT%H%M%S)}"
mkdir -p "${out}"
out="$(cd "${out}" && pwd)"
rm -f "${out}/pipeline.jfr" "${out}/report.json"

# Local mode's default JVM flags (scripts/run-local.sh), plus the recording. DebugNonSafepoints makes the samples of
# inlined code name the right method; a deep stack keeps Flink's call chains whole.
export JAVA_OPTS="${JAVA_OPTS:--Xmx2g -XX:TieredStopAtLevel=1} -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
-XX:FlightRecorderOptions=stackdepth=256 \
-XX:StartFlightRecording=filename=${out}/pipeline.jfr,settings=profile,dumponexit=true"

echo "profile-local: step ${step}, ${events} events at ${rate}/s; output in ${out}"
"${repo_root}/scripts/run-local.sh" --no-progress --step "${step}" --events "${events}" \
  --rate "${rate}" --bad-ratio 0 --report "${out}/report.json" "$@" >"${out}/run.log" 2>&1 &
runner=$!
# run-local.sh execs the JVM, so this pid becomes the runner JVM's.
python3 "${script_dir}/profile/thread_cpu.py" "${runner}" "${out}/threads.tsv" &
sampler=$!
status=0
wait "${runner}" || status=$?
wait "${sampler}" || true
if [[ ! -s "${out}/report.json" || ! -s "${out}/pipeline.jfr" ]]; then
  echo "profile-local: the run left no report or no recording (exit ${status}); see ${out}/run.log" >&2
  exit 1
fi
grep -E '^(Rows in table|Missing ids|Duplicates|Throughput|Cost|Result)' "${out}/run.log" || true

analyze "${out}"
exit "${status}"
