#!/usr/bin/env bash
# Runs a command with the local stack slowed to the slow end of the machine class (issue 32's
# "two slow cores", S2 in benchmarks/RESULTS.md section 24): the command and everything it starts
# share a CPU quota of two cores of speed F, and the BigQuery emulator's process, inside that, a
# quota of one such core. F = TARGET / FREE, where FREE is this machine's bare append ceiling
# (io.thriftbq.local.EmulatorCeilings, 500 rows per request, pipelined, Pub/Sub runs' rows as
# when the slow end was measured) measured unslowed first,
# and TARGET the slow end's (1,670 rows/s by default: the issue's machine gave 1,659-1,684).
#
#   benchmarks/slow-end.sh [--factor F | --target-ceiling N] [--print] -- COMMAND [ARG...]
#
#   --factor F            use this F (0 < F <= 1) instead of measuring the free ceiling
#   --target-ceiling N    the slow end's ceiling in rows/s (default 1670)
#   --print               print F and the two quotas, then exit without running anything
#
# Prints "slow-end factor F (free ceiling FREE, target TARGET): stack quota Q2, emulator quota Q1
# per 100000 us" to stderr before the command, and exits with the command's status. Needs root and
# the cpu controller (cgroup v1 at /sys/fs/cgroup/cpu, or cgroup v2); the cgroups it makes are
# removed at the end. SLOW_END_CGROUP_ROOT (default /sys/fs/cgroup) points it at another tree: its
# tests give it a stand-in directory to check what it writes, without root. It is an imitation:
# threads of one process still run at this machine's speed until the quota runs out, so it is
# gentler than a real slow machine on anything that waits on one thread. A quota under two cores
# also makes a JVM size itself for one processor (SerialGC, one GC thread, smaller pools), which
# the imitated machine, two cores, would not: the command's JVMs are told there are two
# (-XX:ActiveProcessorCount=2 added to JAVA_TOOL_OPTIONS; each prints a "Picked up" line). DuckDB,
# which sizes its pool from the quota too, runs on one thread in local mode either way. Example, step 8 at
# saturation against the slowed ceiling, alternated:
#
#   benchmarks/slow-end.sh --factor 0.64 -- java -cp local-mode/target/local-mode-bundled.jar \
#     io.thriftbq.local.EmulatorCeilings 20000 1 500
#   benchmarks/slow-end.sh --factor 0.64 -- scripts/run-local.sh --source kafka --step 8 \
#     --events 80000 --rate 8000 --bad-ratio 0 --no-progress --report R.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib/emulator-ceilings.sh
. "${root}/benchmarks/lib/emulator-ceilings.sh"
period=100000
# The imitated machine: two cores of speed F.
imitated_cores=2
factor=""
target=1670
print_only=0

usage() {
  sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while (($#)); do
  case "$1" in
    --factor)
      factor="${2:?--factor needs a value, e.g. --factor 0.64}"
      shift 2
      ;;
    --target-ceiling)
      target="${2:?--target-ceiling needs rows/s, e.g. --target-ceiling 1670}"
      shift 2
      ;;
    --print)
      print_only=1
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      break
      ;;
    *)
      echo "ERROR: unknown argument '$1' (the command goes after --); see --help" >&2
      exit 2
      ;;
  esac
done

if ! [[ "${target}" =~ ^[1-9][0-9]*$ ]]; then
  echo "ERROR: --target-ceiling must be a whole number of rows/s, got '${target}'" >&2
  exit 2
fi
if [[ -n "${factor}" ]] && ! [[ "${factor}" =~ ^(0?\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]]; then
  echo "ERROR: --factor must be a number in (0, 1], e.g. 0.64; got '${factor}'" >&2
  exit 2
fi
if ((print_only == 0 && $# == 0)); then
  echo "ERROR: no command to run: give it after --; see --help" >&2
  exit 2
fi

free="not measured"
if [[ -z "${factor}" ]]; then
  jar="$(local_mode_jar "${root}")"
  if [[ ! -f "${jar}" ]]; then
    echo "ERROR: ${jar} is not built (./mvnw -q -DskipTests package), or give --factor" >&2
    exit 2
  fi
  free="$(emulator_ceilings "${root}" 20000 500 pubsub 2>/dev/null |
    ceiling_of storage_write_append_500)"
  if ! [[ "${free}" =~ ^[0-9]+$ ]] || ((free == 0)); then
    echo "ERROR: the free append ceiling could not be measured; give --factor" >&2
    exit 1
  fi
  if ((free <= target)); then
    echo "ERROR: this machine's free ceiling (${free}/s) is already at or below ${target}/s:" \
      "it is the slow end; run the command as it is" >&2
    exit 1
  fi
  factor="$(awk -v t="${target}" -v f="${free}" 'BEGIN { printf "%.3f", t / f }')"
fi
stack_quota="$(awk -v f="${factor}" -v p="${period}" -v n="${imitated_cores}" 'BEGIN { printf "%d", n * p * f }')"
emulator_quota="$(awk -v f="${factor}" -v p="${period}" 'BEGIN { printf "%d", p * f }')"
echo "slow-end factor ${factor} (free ceiling ${free}, target ${target}): stack quota" \
  "${stack_quota}, emulator quota ${emulator_quota} per ${period} us" >&2
if ((print_only)); then
  exit 0
fi

cgroup_root="${SLOW_END_CGROUP_ROOT:-/sys/fs/cgroup}"
if [[ "${cgroup_root}" == /sys/fs/cgroup && "$(id -u)" -ne 0 ]]; then
  echo "ERROR: setting CPU quotas needs root (cgroups)" >&2
  exit 1
fi
name="thriftbq-slow-end-$$"
if [[ -d "${cgroup_root}/cpu" && -f "${cgroup_root}/cpu/cgroup.procs" ]]; then
  stack="${cgroup_root}/cpu/${name}"
  mkdir -p "${stack}/bq"
  echo "${period}" >"${stack}/cpu.cfs_period_us"
  echo "${stack_quota}" >"${stack}/cpu.cfs_quota_us"
  echo "${period}" >"${stack}/bq/cpu.cfs_period_us"
  echo "${emulator_quota}" >"${stack}/bq/cpu.cfs_quota_us"
  parent_procs="${cgroup_root}/cpu/cgroup.procs"
  command_cgroup="${stack}"
elif [[ -f "${cgroup_root}/cgroup.controllers" ]] && grep -qw cpu "${cgroup_root}/cgroup.controllers"; then
  # cgroup v2: a child has cpu.max only when its parent delegates the cpu controller to it.
  if ! grep -qw cpu "${cgroup_root}/cgroup.subtree_control" 2>/dev/null &&
    ! echo "+cpu" >"${cgroup_root}/cgroup.subtree_control"; then
    echo "ERROR: cannot delegate the cpu controller below ${cgroup_root}: cgroup v2 refuses it" \
      "while processes live in that cgroup itself (as in a container whose cgroup namespace" \
      "starts there); run this on the host, or move those processes into a child cgroup first" >&2
    exit 1
  fi
  stack="${cgroup_root}/${name}"
  mkdir -p "${stack}"
  echo "+cpu" >"${stack}/cgroup.subtree_control"
  # cgroup v2 keeps processes out of a cgroup whose children have controllers: the command runs
  # in a leaf beside the emulator's, under the stack's quota. (The kernel's side is not exercised
  # here: this machine class has cgroup v1's cpu controller; the tests check what is written.)
  mkdir -p "${stack}/bq" "${stack}/rest"
  echo "${stack_quota} ${period}" >"${stack}/cpu.max"
  echo "${emulator_quota} ${period}" >"${stack}/bq/cpu.max"
  parent_procs="${cgroup_root}/cgroup.procs"
  command_cgroup="${stack}/rest"
else
  echo "ERROR: no cpu cgroup controller found under ${cgroup_root} (v1 cpu/ or v2 cpu.max)" >&2
  exit 1
fi

watcher=""
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  if [[ -n "${watcher}" ]]; then
    kill "${watcher}" 2>/dev/null || true
    wait "${watcher}" 2>/dev/null || true
  fi
  local pid
  for procs in "${stack}/bq/cgroup.procs" "${command_cgroup}/cgroup.procs"; do
    [[ -r "${procs}" ]] || continue
    while read -r pid; do
      echo "${pid}" >"${parent_procs}" 2>/dev/null || true
    done <"${procs}"
  done
  rmdir "${stack}/bq" "${stack}/rest" "${stack}" 2>/dev/null || true
}
trap cleanup EXIT

# Every BigQuery emulator the command starts goes into the one-core quota as soon as it appears.
(
  while sleep 0.2; do
    [[ -r "${command_cgroup}/cgroup.procs" ]] || continue
    while read -r pid; do
      if grep -qs -e bigquery-emulator-launcher "/proc/${pid}/cmdline"; then
        echo "${pid}" >"${stack}/bq/cgroup.procs" 2>/dev/null || true
      fi
    done <"${command_cgroup}/cgroup.procs"
  done
) &
watcher=$!

status=0
(
  echo "${BASHPID}" >"${command_cgroup}/cgroup.procs"
  export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+${JAVA_TOOL_OPTIONS} }-XX:ActiveProcessorCount=${imitated_cores}"
  exec "$@"
) || status=$?
exit "${status}"
