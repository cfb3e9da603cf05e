#!/usr/bin/env bash
# Local mode: the whole system on this machine. Starts the Pub/Sub emulator (or, with
# --source kafka, an Apache Kafka broker) and the BigQuery emulator on 127.0.0.1, runs the
# ingestion pipeline (embedded Flink) with one tuning step's configuration and the data generator
# for a bounded number of events, then prints a report.
#
# Every flag after the script name goes to the Java runner; --help lists them.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"
jar="${repo_root}/local-mode/target/local-mode-bundled.jar"
# The Kafka broker's classpath, built by the local-mode/kafka-broker module (its own JVM).
broker_libs="${repo_root}/local-mode/kafka-broker/target/kafka-broker-libs"

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
    (not with --source kafka: the Kafka broker comes from Maven Central with the build)

Reading from Kafka instead of Pub/Sub (see docs/LOCAL.md "Reading from Kafka"):
  scripts/run-local.sh --source kafka
  scripts/run-local.sh --source kafka --compare-steps --steps 6,7,8

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

# --source kafka (or --source=kafka) needs no Pub/Sub emulator; the runner itself rejects a bad value.
source_kind=pubsub
previous=""
for arg in "$@"; do
  if [[ "${arg}" == --source=* ]]; then
    source_kind="${arg#--source=}"
  elif [[ "${previous}" == --source ]]; then
    source_kind="${arg}"
  fi
  previous="${arg}"
done
# tr, not ${var,,}, and no empty array under set -u: macOS still ships bash 3.2.
if [[ "$(printf '%s' "${source_kind}" | tr '[:upper:]' '[:lower:]')" == kafka ]]; then
  "${repo_root}/scripts/local/install-bigquery-emulator.sh" --without-pubsub
else
  "${repo_root}/scripts/local/install-bigquery-emulator.sh"
fi

# Rebuild when the jar is missing or older than any source or pom of the modules it bundles.
needs_build() {
  [[ ! -f "${jar}" || ! -d "${broker_libs}" ]] && return 0
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

# A profiled run (--profile, or --compare-steps without --no-profile; the runner decides the same
# way) records with Java Flight Recorder in this JVM: DebugNonSafepoints makes samples of inlined
# code name the inlined method, and a deep stack keeps Flink's call chains whole (JFR keeps 64
# frames by default).
profile_flags=""
profiling=0
for arg in "$@"; do
  case "${arg}" in
    --compare-steps) [[ "${profiling}" == off ]] || profiling=1 ;;
    --profile) profiling=1 ;;
    --no-profile) profiling=off ;;
  esac
done
if [[ "${profiling}" == 1 ]]; then
  profile_flags="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:FlightRecorderOptions=stackdepth=256"
fi

# Local mode never uses Google credentials; this also stops client libraries from probing the
# GCE metadata server.
export NO_GCE_CHECK=true
# C1 only: in runs of a few minutes the C2 compiler's backlog from start-up was about half of the
# pipeline's CPU, and C1-only runs used 0.3-0.7x the CPU per event (benchmarks/RESULTS.md,
# section 9).
# shellcheck disable=SC2086 # JAVA_OPTS and profile_flags are lists of flags.
exec java ${JAVA_OPTS:--Xmx2g -XX:TieredStopAtLevel=1} ${profile_flags} -Dthriftbq.repoRoot="${repo_root}" \
  -cp "${jar}" io.thriftbq.local.LocalRunner "$@"
