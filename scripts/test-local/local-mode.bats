#!/usr/bin/env bats
# Offline checks of scripts/run-local.sh and the emulator installer: no emulator is started and
# nothing is installed (the installer runs only in --check/--help modes, against an empty dir).

setup() {
  repo_root="$(cd "${BATS_TEST_DIRNAME}/../.." && pwd)"
  run_local="${repo_root}/scripts/run-local.sh"
  installer="${repo_root}/scripts/local/install-bigquery-emulator.sh"
  scratch="$(mktemp -d)"
}

teardown() {
  rm -rf "${scratch}"
}

@test "run-local.sh --help works from any directory and names the prerequisites" {
  cd "${scratch}"
  run "${run_local}" --help
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"gcloud components install pubsub-emulator beta"* ]]
  [[ "${output}" == *"google-cloud-cli-pubsub-emulator"* ]]
}

@test "run-local.sh --help explains --source kafka" {
  run "${run_local}" --help
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"scripts/run-local.sh --source kafka"* ]]
  [[ "${output}" == *"not with --source kafka"* ]]
}

@test "run-local.sh --help lists the runner's options once the jar exists" {
  if [[ ! -f "${repo_root}/local-mode/target/local-mode-bundled.jar" ]]; then
    skip "local-mode jar not built (./mvnw -DskipTests package)"
  fi
  run "${run_local}" --help
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"--step N"* ]]
  [[ "${output}" == *"--bad-ratio"* ]]
  [[ "${output}" == *"--report FILE"* ]]
  [[ "${output}" == *"--source S"* ]]
}

@test "installer --help explains itself" {
  run "${installer}" --help
  [ "${status}" -eq 0 ]
  [[ "${output}" == *".local-stack/venv-bq"* ]]
}

@test "installer rejects unknown arguments" {
  run "${installer}" --bogus
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"Unknown argument: --bogus"* ]]
}

@test "installer --check fails with the install command when the venv is missing" {
  LOCAL_STACK_DIR="${scratch}/stack" run "${installer}" --check
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"install-bigquery-emulator.sh"* ]]
  [ ! -e "${scratch}/stack" ]
}

@test "installer --check explains how to get the Pub/Sub emulator when gcloud is absent" {
  mkdir -p "${scratch}/bin"
  for tool in bash cat cut dirname grep sha256sum; do ln -s "$(command -v "${tool}")" "${scratch}/bin/${tool}"; done
  PATH="${scratch}/bin" LOCAL_STACK_DIR="${scratch}/stack" run "${installer}" --check
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"gcloud components install pubsub-emulator beta"* ]]
}

@test "installer --check --without-pubsub does not ask for gcloud" {
  mkdir -p "${scratch}/bin"
  for tool in bash cat cut dirname grep sha256sum; do ln -s "$(command -v "${tool}")" "${scratch}/bin/${tool}"; done
  PATH="${scratch}/bin" LOCAL_STACK_DIR="${scratch}/stack" run "${installer}" --check --without-pubsub
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"BigQuery emulator missing"* ]]
  [[ "${output}" != *"gcloud"* ]]
}

@test "scripts pass shellcheck" {
  if ! command -v shellcheck >/dev/null 2>&1; then
    skip "shellcheck not installed"
  fi
  run shellcheck "${run_local}" "${installer}" "${repo_root}/scripts/local/update-bigquery-emulator-lock.sh" \
    "${repo_root}/benchmarks/local-soak.sh" "${repo_root}/benchmarks/slow-end.sh" \
    "${repo_root}/benchmarks/local-ab.sh" "${repo_root}/benchmarks/local-targets.sh" \
    "${repo_root}/benchmarks/lib/emulator-ceilings.sh"
  [ "${status}" -eq 0 ]
}

# The slow-end imitation (benchmarks/slow-end.sh): its quotas and its refusals; what it writes
# into a cgroup tree is checked below.

@test "slow-end: a factor gives two cores of it to the stack and one to the emulator" {
  run "${repo_root}/benchmarks/slow-end.sh" --factor 0.64 --print
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"slow-end factor 0.64 (free ceiling not measured, target 1670): stack quota 128000, emulator quota 64000 per 100000 us"* ]]
}

@test "slow-end: a factor outside (0, 1], a bad ceiling or no command is refused with the fix" {
  run "${repo_root}/benchmarks/slow-end.sh" --factor 1.5 --print
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"--factor must be a number in (0, 1], e.g. 0.64; got '1.5'"* ]]
  run "${repo_root}/benchmarks/slow-end.sh" --factor 0 --print
  [ "${status}" -eq 2 ]
  run "${repo_root}/benchmarks/slow-end.sh" --target-ceiling 1.6k --factor 0.5 --print
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"--target-ceiling must be a whole number"* ]]
  run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"no command to run: give it after --"* ]]
  run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 scripts/run-local.sh
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"unknown argument 'scripts/run-local.sh' (the command goes after --)"* ]]
}

# What slow-end.sh writes into a cgroup tree, checked against a stand-in directory
# (SLOW_END_CGROUP_ROOT): the quotas, the command's cgroup, the emulator moved into its own one, and
# every process moved back at the end. The kernel's side (that the quotas then hold) is what the
# measurements in benchmarks/RESULTS.md exercise, on cgroup v1 only.

# The command stands in for the BigQuery emulator (the watcher knows it by its command line) and
# exits with 3 after it had time to be seen (the watcher looks every 0.2 s). A stand-in tree lists
# only the pids written to it, not their children, so the command itself is the stand-in.
slow_end_emulator_standin=(bash -c 'exec -a bigquery-emulator-launcher bash -c "sleep 1; exit 3"')

@test "slow-end: on cgroup v2 it delegates cpu, sets cpu.max and moves the emulator to its own leaf" {
  tree="${scratch}/v2"
  mkdir -p "${tree}"
  echo "cpuset cpu io memory pids" >"${tree}/cgroup.controllers"
  : >"${tree}/cgroup.subtree_control"
  : >"${tree}/cgroup.procs"
  SLOW_END_CGROUP_ROOT="${tree}" run "${repo_root}/benchmarks/slow-end.sh" --factor 0.64 -- \
    "${slow_end_emulator_standin[@]}"
  [ "${status}" -eq 3 ]
  stack="$(echo "${tree}"/thriftbq-slow-end-*)"
  [ -d "${stack}" ]
  [ "$(cat "${tree}/cgroup.subtree_control")" = "+cpu" ]
  [ "$(cat "${stack}/cgroup.subtree_control")" = "+cpu" ]
  [ "$(cat "${stack}/cpu.max")" = "128000 100000" ]
  [ "$(cat "${stack}/bq/cpu.max")" = "64000 100000" ]
  command_pid="$(cat "${stack}/rest/cgroup.procs")"
  [[ "${command_pid}" =~ ^[0-9]+$ ]]
  [ "$(cat "${stack}/bq/cgroup.procs")" = "${command_pid}" ]
  [ "$(cat "${tree}/cgroup.procs")" = "${command_pid}" ]
}

@test "slow-end: on cgroup v2 a parent that keeps the cpu controller to itself is refused with the fix" {
  tree="${scratch}/v2-busy"
  mkdir -p "${tree}"
  echo "cpuset cpu io memory pids" >"${tree}/cgroup.controllers"
  : >"${tree}/cgroup.procs"
  # A directory where the file would be: the write fails, as the kernel's EBUSY does.
  mkdir "${tree}/cgroup.subtree_control"
  SLOW_END_CGROUP_ROOT="${tree}" run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 -- true
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"cannot delegate the cpu controller below ${tree}"* ]]
  [[ "${output}" == *"move those processes into a child cgroup first"* ]]
  [ -z "$(find "${tree}" -maxdepth 1 -name 'thriftbq-slow-end-*')" ]
}

@test "slow-end: on cgroup v1 it sets the CFS quotas and moves the emulator into its own cgroup" {
  tree="${scratch}/v1"
  mkdir -p "${tree}/cpu"
  : >"${tree}/cpu/cgroup.procs"
  SLOW_END_CGROUP_ROOT="${tree}" run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 -- \
    "${slow_end_emulator_standin[@]}"
  [ "${status}" -eq 3 ]
  stack="$(echo "${tree}"/cpu/thriftbq-slow-end-*)"
  [ "$(cat "${stack}/cpu.cfs_period_us")" = "100000" ]
  [ "$(cat "${stack}/cpu.cfs_quota_us")" = "100000" ]
  [ "$(cat "${stack}/bq/cpu.cfs_quota_us")" = "50000" ]
  command_pid="$(cat "${stack}/cgroup.procs")"
  [ "$(cat "${stack}/bq/cgroup.procs")" = "${command_pid}" ]
  [ "$(cat "${tree}/cpu/cgroup.procs")" = "${command_pid}" ]
}

@test "slow-end: the command's JVMs are told the imitated machine's two processors, beside options of the user's" {
  mkdir -p "${scratch}/v1-jvm/cpu"
  : >"${scratch}/v1-jvm/cpu/cgroup.procs"
  SLOW_END_CGROUP_ROOT="${scratch}/v1-jvm" run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 -- \
    bash -c 'echo "options: ${JAVA_TOOL_OPTIONS}"'
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"options: -XX:ActiveProcessorCount=2"* ]]
  JAVA_TOOL_OPTIONS="-Xss2m" SLOW_END_CGROUP_ROOT="${scratch}/v1-jvm" \
    run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 -- bash -c 'echo "options: ${JAVA_TOOL_OPTIONS}"'
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"options: -Xss2m -XX:ActiveProcessorCount=2"* ]]
}

@test "slow-end: a tree without the cpu controller is refused" {
  mkdir -p "${scratch}/none"
  echo "memory pids" >"${scratch}/none/cgroup.controllers"
  SLOW_END_CGROUP_ROOT="${scratch}/none" run "${repo_root}/benchmarks/slow-end.sh" --factor 0.5 -- true
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"no cpu cgroup controller found under ${scratch}/none"* ]]
}

# The soak (benchmarks/local-soak.sh) with a stand-in for run-local.sh: its counting, not the runs.
soak_stub() {
  cat >"${scratch}/run-local" <<'EOF'
#!/usr/bin/env bash
# Writes the report a run would; FAIL_ON="SOURCE KIND" makes that run's server die.
report="" source="" kind=default
while [[ $# -gt 0 ]]; do
  case "$1" in
    --report) report="$2"; shift ;;
    --source) source="$2"; shift ;;
    --structs) kind=by-attribute ;;
    --union) kind=by-union ;;
  esac
  shift
done
if [[ "${FAIL_ON:-}" == "${source} ${kind}" ]]; then
  echo "the BigQuery emulator (pid 1) died mid-run; its log: /tmp/x"
  echo '{"status":"FAILED","table":{"missing_ids":7},"latency_ms":{}}' >"${report}"
  exit 1
fi
echo '{"status":"OK","table":{"missing_ids":0},"latency_ms":{"after_warmup":{"p99":300}}}' >"${report}"
EOF
  chmod +x "${scratch}/run-local"
}

@test "soak: 30 runs, 15 per source, 5 of them three-struct; all OK passes" {
  soak_stub
  OUT="${scratch}/soak" RUN_LOCAL="${scratch}/run-local" run "${repo_root}/benchmarks/local-soak.sh"
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"soak: 30 of 30 runs OK, 0 server deaths, 0 hangs, 0 missing events"* ]]
  [ "$(grep -c $'\tkafka\t' "${scratch}/soak/soak.tsv")" -eq 15 ]
  [ "$(grep -c $'\tpubsub\tby-attribute\t' "${scratch}/soak/soak.tsv")" -eq 3 ]
  [ "$(grep -c $'\tkafka\tby-union\t' "${scratch}/soak/soak.tsv")" -eq 2 ]
}

@test "soak: a server that dies fails the soak and is counted" {
  soak_stub
  FAIL_ON="kafka by-union" OUT="${scratch}/soak" RUN_LOCAL="${scratch}/run-local" \
    run "${repo_root}/benchmarks/local-soak.sh"
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"soak: 28 of 30 runs OK, 2 server deaths, 0 hangs, 14 missing events"* ]]
}

# The targets (benchmarks/local-targets.sh) with stand-ins for run-local.sh and the ceilings: the
# runs it makes, its figures and its verdict, not the runs themselves.
targets_stub() {
  cat >"${scratch}/run-local" <<'EOF'
#!/usr/bin/env bash
# Writes the report a run would: steady at the offered rate (at 4,000/s for a saturation run),
# p99 0.5 s; SLOW_P99_STEP="N" gives step N's runs a p99 of 2.5 s; NO_REPORT_STEP="N" none.
report="" step=8 rate=200 all="$*"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --report) report="$2"; shift ;;
    --step) step="$2"; shift ;;
    --rate) rate="$2"; shift ;;
  esac
  shift
done
echo "${all}" >>"${report%.json}.args"
[[ "${NO_REPORT_STEP:-}" == "${step}" ]] && exit 1
p99=500
[[ "${SLOW_P99_STEP:-}" == "${step}" ]] && p99=2500
steady="${rate}"
((rate >= 2000)) && steady=4000
cat >"${report}" <<JSON
{"status":"OK","latency_ms":{"after_warmup":{"samples":100,"p99":${p99}}},
 "throughput":{"rows_per_sec_steady":${steady}},
 "costs":{"pipeline_cpu_sec_per_100k_events":100,"pubsub_emulator_cpu_sec_per_100k_events":50,
          "bigquery_emulator_cpu_sec_per_100k_events":50}}
JSON
EOF
  cat >"${scratch}/ceilings" <<'EOF'
#!/usr/bin/env bash
# The ceilings' lines of io.thriftbq.local.EmulatorCeilings: 5,000 rows/s at 500, 3,000 at 10;
# CEILINGS_AT_500="A B C" gives the readings at 500 in turn instead (the last one from then on).
at_500=5000
if [[ -n "${CEILINGS_AT_500:-}" ]]; then
  read -r -a readings <<<"${CEILINGS_AT_500}"
  taken=$(cat "$(dirname "$0")/readings" 2>/dev/null || echo 0)
  echo $((taken + 1)) >"$(dirname "$0")/readings"
  at_500="${readings[$((taken < ${#readings[@]} ? taken : ${#readings[@]} - 1))]}"
fi
printf 'ceiling\tstorage_write_append_500\t%s\nceiling\tstorage_write_append_10\t3000\n' "${at_500}"
EOF
  # The venv's python, running the lock check: LOCK_DIFFERS=1 makes the venv differ from the lock.
  cat >"${scratch}/python" <<'EOF'
#!/usr/bin/env bash
if [[ -n "${LOCK_DIFFERS:-}" ]]; then
  echo "protobuf: installed 7.0.0, the lock has 6.33.1"
  exit 1
fi
echo "Installed packages match the lock (50 pins)"
EOF
  chmod +x "${scratch}/run-local" "${scratch}/ceilings" "${scratch}/python"
  export LOCK_CHECK_PYTHON="${scratch}/python"
}

@test "targets: every run per round and source, rates from the ceiling, and every target met" {
  targets_stub
  OUT="${scratch}/t" RUN_LOCAL="${scratch}/run-local" CEILINGS="${scratch}/ceilings" \
    run "${repo_root}/benchmarks/local-targets.sh" --rounds 2 --sources pubsub,kafka
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"Every target met."* ]]
  [ "$(wc -l <"${scratch}/t/runs.tsv")" -eq 20 ]
  [ "$(grep -c $'\tkafka\tfirst\t500\t5000' "${scratch}/t/ceilings.tsv")" -eq 2 ]
  # Saturation at three times the ceiling, step 6 at half of it.
  grep -q -- "--step 8 --bad-ratio 0 --rate 15000 --events 150000" "${scratch}/t/r1-pubsub-saturation-step8.args"
  grep -q -- "--step 6 --bad-ratio 0 --rate 2500 --events 87500" "${scratch}/t/r2-kafka-half-ceiling-step6.args"
  grep -q -- "--union AnyEvent --step 7 --ingest-arg=--keepPayloadForWriteFailures=true" \
    "${scratch}/t/r1-kafka-structs-union.args"
  # 4,000 rows/s against the ceiling of 5,000 around it; the stack's 200 CPU-s per 100k at 200/s.
  [[ "${output}" == *"| step 8 at saturation >= 0.8x the append ceiling | kafka | 0.80, 0.80 | 0.80 | met |"* ]]
  [[ "${output}" == *"| the default run: the whole stack <= 1 core | pubsub | 0.40, 0.40 | 0.40 | met |"* ]]
  [[ "${output}" == *"| the append ceiling at 10 rows per request >= 0.5x at 500 | pubsub | 0.60, 0.60, 0.60, 0.60, 0.60, 0.60, 0.60, 0.60 | 0.60 | met |"* ]]
  [[ "${output}" == *"| a fresh install holds the lock's package versions | - | Installed packages match the lock (50 pins) | - | met |"* ]]
  [ -s "${scratch}/t/targets.md" ]
}

@test "targets: a target over its bound, or a run without a report, is NOT MET and fails" {
  targets_stub
  SLOW_P99_STEP=6 OUT="${scratch}/t" RUN_LOCAL="${scratch}/run-local" CEILINGS="${scratch}/ceilings" \
    run "${repo_root}/benchmarks/local-targets.sh" --rounds 1 --sources kafka
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"| step 6 at half the append ceiling: p99 < 2 s | kafka | 2.50 at 2,500/s (0.50 of the ceiling) | 2.50 | NOT MET |"* ]]
  [[ "${output}" == *"Some target is NOT MET"* ]]
  NO_REPORT_STEP=7 OUT="${scratch}/t2" RUN_LOCAL="${scratch}/run-local" CEILINGS="${scratch}/ceilings" \
    run "${repo_root}/benchmarks/local-targets.sh" --rounds 1 --sources pubsub
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"| three structs by union, step 7, kept payloads, 300/s: p99 < 2 s | pubsub | - (round 1: run without a report) | - | NOT MET |"* ]]
  LOCK_DIFFERS=1 OUT="${scratch}/t3" RUN_LOCAL="${scratch}/run-local" CEILINGS="${scratch}/ceilings" \
    run "${repo_root}/benchmarks/local-targets.sh" --rounds 1 --sources pubsub
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"| a fresh install holds the lock's package versions | - | protobuf: installed 7.0.0, the lock has 6.33.1 | - | NOT MET |"* ]]
}

@test "targets: step 6's rate is half the median of the round's ceilings, not of one fast reading" {
  targets_stub
  # Readings at 500: first 4,000, before saturation 4,200, after it 9,000 (the machine briefly
  # faster), after step 6 4,100: the rate is half of 4,200, shown beside the ceilings around it.
  CEILINGS_AT_500="4000 4200 9000 4100" OUT="${scratch}/t" RUN_LOCAL="${scratch}/run-local" \
    CEILINGS="${scratch}/ceilings" run "${repo_root}/benchmarks/local-targets.sh" --rounds 1 --sources kafka
  # Step 8 at saturation is still judged against the readings just around it, the fast one too:
  # 4,000 rows/s against the mean of 4,200 and 9,000.
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"| step 8 at saturation >= 0.8x the append ceiling | kafka | 0.61 | 0.61 | NOT MET |"* ]]
  grep -q -- "--step 6 --bad-ratio 0 --rate 2100 --events 73500" "${scratch}/t/r1-kafka-half-ceiling-step6.args"
  [ "$(grep -c $'\tkafka\tafter-step6\t500\t4100' "${scratch}/t/ceilings.tsv")" -eq 1 ]
  # 2,100/s against the mean of 9,000 and 4,100.
  [[ "${output}" == *"| kafka | 0.50 at 2,100/s (0.32 of the ceiling) | 0.50 | met |"* ]]
}

@test "targets: at the slow end the default run's cores are the slow machine's own (the estimate)" {
  targets_stub
  mkdir -p "${scratch}/s"
  printf '1\tpubsub\tfirst\t500\t1200\n1\tpubsub\tfirst\t10\t1000\n1\tpubsub\tlater\t500\t1300\n' \
    >"${scratch}/s/ceilings.tsv"
  "${scratch}/run-local" --report "${scratch}/s/d.json"
  printf '1\tpubsub\tdefault\t200\t%s\n' "${scratch}/s/d.json" >"${scratch}/s/runs.tsv"
  printf 'Installed packages match the lock (50 pins)\n0\n' >"${scratch}/s/lock.txt"
  run python3 "${repo_root}/benchmarks/local-targets-verdict.py" --out "${scratch}/s" --slow-end-factor 0.3
  [ "${status}" -eq 0 ]
  # 0.40 of this machine's cores x (1,250 / 0.3) / 1,670 = 1.00 of the slow machine's.
  [[ "${output}" == *"| the default run: the whole stack <= 1 core | pubsub | 1.00 | 1.00 | met |"* ]]
  [[ "${output}" == *"at the slow end (factor 0.3"* ]]
}

@test "targets: bad arguments, or no built jar, are refused with what to change" {
  run "${repo_root}/benchmarks/local-targets.sh" --rounds 0
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"--rounds must be a whole number"* ]]
  run "${repo_root}/benchmarks/local-targets.sh" --sources pubsub,rabbit
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"--sources takes pubsub and kafka, got 'rabbit'"* ]]
  # --help is the whole header, down to its last line.
  run "${repo_root}/benchmarks/local-targets.sh" --help
  [ "${status}" -eq 0 ]
  [[ "${output}" == *"--slow-end [F]"*"network beyond 127.0.0.1."* ]]
  # A checkout whose jar is not built is told how to build it.
  mkdir -p "${scratch}/tree/benchmarks/lib"
  cp "${repo_root}/benchmarks/local-targets.sh" "${scratch}/tree/benchmarks/"
  cp "${repo_root}/benchmarks/lib/emulator-ceilings.sh" "${scratch}/tree/benchmarks/lib/"
  run "${scratch}/tree/benchmarks/local-targets.sh"
  [ "${status}" -eq 2 ]
  [[ "${output}" == *"local-mode-bundled.jar is not built: run ./mvnw -q -DskipTests install"* ]]
}

# The lock of the emulator's venv (scripts/local/bigquery-emulator.lock.txt).

lock_file() { printf '%s' "${repo_root}/scripts/local/bigquery-emulator.lock.txt"; }
lock_tool() { python3 "${repo_root}/scripts/local/bigquery_emulator_lock.py" "$@"; }

@test "lock: every package is pinned with == and a sha256 hash" {
  run python3 - "$(lock_file)" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
entries = re.findall(r"^(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", text, re.M)
pins = [l for l in text.splitlines() if l and not l.startswith((" ", "#"))]
assert pins, "no pins"
assert len(entries) == len(pins), f"{len(pins)} pins, {len(entries)} with hashes"
for name, _ in entries:
    assert re.fullmatch(r"[a-z0-9-]+==[^=\s]+", name), name
print(len(pins))
PY
  [ "${status}" -eq 0 ]
  [ "${output}" -gt 20 ]
}

@test "lock: holds every top-level pin of bigquery-emulator.requirements.in" {
  local pin
  while read -r pin; do
    grep -q "^${pin} " "$(lock_file)" || { echo "missing in the lock: ${pin}"; return 1; }
  done < <(grep -Ev '^[[:space:]]*(#|$)' "${repo_root}/scripts/local/bigquery-emulator.requirements.in")
}

@test "lock check: passes on exactly the lock's pins, fails on any difference" {
  grep -o '^[^ #]*==[^ ]*' "$(lock_file)" >"${scratch}/freeze"
  echo "pip==24.2" >>"${scratch}/freeze"
  run lock_tool check "$(lock_file)" "${scratch}/freeze"
  [ "${status}" -eq 0 ]

  { cat "${scratch}/freeze"; echo "extra-package==1.0"; } >"${scratch}/extra"
  run lock_tool check "$(lock_file)" "${scratch}/extra"
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"extra-package==1.0 is installed but not in the lock"* ]]

  grep -v '^protobuf==' "${scratch}/freeze" >"${scratch}/missing"
  run lock_tool check "$(lock_file)" "${scratch}/missing"
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"protobuf=="*"is in the lock but not installed"* ]]

  sed 's/^duckdb==.*/duckdb==9.9.9/' "${scratch}/freeze" >"${scratch}/other"
  run lock_tool check "$(lock_file)" "${scratch}/other"
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"duckdb: lock 1.5.5, installed 9.9.9"* ]]
}

@test "lock check: an installed emulator venv holds exactly the lock" {
  local venv="${LOCAL_STACK_DIR:-${repo_root}/.local-stack}/venv-bq"
  if [[ ! -x "${venv}/bin/python" ]]; then
    skip "no emulator venv (scripts/local/install-bigquery-emulator.sh)"
  fi
  run "${venv}/bin/python" "${repo_root}/scripts/local/bigquery_emulator_lock.py" check "$(lock_file)"
  [ "${status}" -eq 0 ]
}
