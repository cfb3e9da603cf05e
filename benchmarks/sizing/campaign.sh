#!/usr/bin/env bash
# The measurements behind the 1M events/s sizing model (docs/TUNING.md "Sizing 1M events/s: a
# model"; benchmarks/RESULTS.md section 10): one benchmarks/profile-local.sh run per step, at
# saturation, with C2 (JAVA_OPTS=-Xmx2g: a long-running worker compiles once), each bounded by a
# timeout and taking /tmp/jmh.lock for itself only, with `uptime` before and after.
#
#   benchmarks/sizing/campaign.sh OUT_DIR "NAME STEP EVENTS RATE SOURCE [RUN-LOCAL FLAGS]" ...
#   benchmarks/sizing/campaign.sh OUT_DIR          (the default set below: steps 1-9 from Kafka,
#                                                   steps 6-9 from Pub/Sub)
#
# Then: benchmarks/sizing/collect.py OUT_DIR/k1 ... OUT_DIR/p9 (writes measured.tsv; --add keeps
# the runs already there) and
# scripts/generate-docs.sh (the tables). SKIP_BUILD=1 is set: build local mode first.
set -uo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../.." && pwd)"
if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
base="$1"
shift
[[ $# -gt 0 ]] || set -- "k8 8 80000 4000 kafka" "k7 7 70000 4000 kafka" "k6 6 60000 4000 kafka" \
  "k5 5 45000 3000 kafka" "k4 4 40000 3000 kafka --triggering-frequency 1" "k3 3 25000 2000 kafka" "k2 2 25000 2000 kafka" \
  "k1 1 25000 2000 kafka" "k9 9 80000 4000 kafka" "p8 8 60000 4000 pubsub" "p7 7 50000 4000 pubsub" \
  "p6 6 50000 4000 pubsub" "p9 9 60000 4000 pubsub"
export SKIP_BUILD=1 NO_GCE_CHECK=true
cd "${repo_root}" || exit 1
for spec in "$@"; do
  read -r name step events rate source extra <<<"${spec}"
  out="${base}/${name}"
  rm -rf "${out}"
  mkdir -p "${out}"
  # shellcheck disable=SC2016
  flock /tmp/jmh.lock bash -c '
    out="$1"; step="$2"; events="$3"; rate="$4"; source="$5"; extra="$6"
    echo "start $(date -u +%FT%TZ) $(uptime)" >"${out}/uptime.txt"
    JAVA_OPTS=-Xmx2g PROFILE_OUT="${out}" timeout 480 benchmarks/profile-local.sh \
      "${step}" "${events}" "${rate}" -- --source "${source}" ${extra} >"${out}/profile.out" 2>&1
    echo "rc=$?" >>"${out}/uptime.txt"
    echo "end $(date -u +%FT%TZ) $(uptime)" >>"${out}/uptime.txt"' _ "${out}" "${step}" "${events}" "${rate}" "${source}" "${extra:-}"
  echo "${name}: $(grep -E '^rc=' "${out}/uptime.txt")"
done
