#!/usr/bin/env bash
# Local mode: the whole system on this machine. Starts the Pub/Sub and BigQuery emulators on
# 127.0.0.1, runs the ingestion pipeline (embedded Flink) with one tuning step's configuration and
# the data generator for a bounded number of events, then prints a report.
#
# Every flag after the script name goes to the Java runner; --help lists them.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"
jar="${repo_root}/local-mode/target/local-mode-bundled.jar"

usage_header() {
  cat <<'EOF'
scripts/run-local.sh: run generator + ingestion against local emulators and report.

Prerequisites (checked, and installed where the project can):
  - JDK 17+ (java on PATH)
  - the BigQuery emulator (local-bigquery, PyPI): installed into .local-stack/venv-bq by
    scripts/local/install-bigquery-emulator.sh, which this script runs for you
  - the Google Cloud CLI with its Pub/Sub emulator component:
      gcloud components install pubsub-emulator beta
    or, for an apt-installed CLI: sudo apt-get install google-cloud-cli-pubsub-emulator

Many event types (one table per struct; see docs/LOCAL.md "Many event types"):
  scripts/run-local.sh --idl thrift-common/src/main/idl/shop_events.thrift --structs Order:5,Refund:1,Click:94
  scripts/run-local.sh --idl thrift-common/src/main/idl/shop_events.thrift --union AnyEvent

Environment:
  SKIP_BUILD=1      use the existing jar even if sources changed
  JAVA_OPTS         the runner JVM's flags (default -Xmx2g -XX:TieredStopAtLevel=1: C1 only,
                    since a bounded run spends more CPU in C2 compiling than C2's code saves;
                    set JAVA_OPTS=-Xmx2g for a long run)

EOF
}

for arg in "$@"; do
  if [[ "${arg}" == "--help" || "${arg}" == "-h" ]]; then
    usage_header
    if [[ -f "${jar}" ]]; then
      exec java -cp "${jar}" io.thriftbq.local.LocalRunner --help
    fi
    echo "(Build the project, or run this script once, to see the runner's options.)"
    exit 0
  fi
done

if ! command -v java >/dev/null 2>&1; then
  echo "run-local: java is not on PATH; install a JDK 17 or newer." >&2
  exit 1
fi

"${repo_root}/scripts/local/install-bigquery-emulator.sh"

# Rebuild when the jar is missing or older than any source or pom of the modules it bundles.
needs_build() {
  [[ ! -f "${jar}" ]] && return 0
  local newer
  newer="$(find "${repo_root}/pom.xml" "${repo_root}/thrift-common" "${repo_root}/ingestion-pipeline" \
    "${repo_root}/datagen-pipeline" "${repo_root}/local-mode" \
    -path '*/target' -prune -o -type f \( -name '*.java' -o -name 'pom.xml' -o -name '*.properties' \) \
    -newer "${jar}" -print -quit)"
  [[ -n "${newer}" ]]
}

if [[ "${SKIP_BUILD:-0}" != 1 ]] && needs_build; then
  echo "Building the pipelines and local mode (./mvnw -q -DskipTests package) ..."
  (cd "${repo_root}" && ./mvnw -B -q -DskipTests -Dspotless.check.skip=true \
    -pl local-mode -am package)
fi

# Local mode never uses Google credentials; this also stops client libraries from probing the
# GCE metadata server.
export NO_GCE_CHECK=true
# C1 only: in runs of a few minutes the C2 compiler's backlog from start-up was about half of the
# pipeline's CPU, and C1-only runs used 0.3-0.7x the CPU per event (benchmarks/RESULTS.md,
# section 8).
# shellcheck disable=SC2086 # JAVA_OPTS is a list of flags.
exec java ${JAVA_OPTS:--Xmx2g -XX:TieredStopAtLevel=1} -Dthriftbq.repoRoot="${repo_root}" \
  -cp "${jar}" io.thriftbq.local.LocalRunner "$@"
