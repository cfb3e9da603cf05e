#!/usr/bin/env bash
# The whole test suite, as CI runs it on a fresh machine (README: "Run the tests").
#
#   1. installs what the tests need that Maven cannot bring (apt: shellcheck, bats, thrift
#      compiler, chromium to render the step comparison's charts; a project-local Python venv
#      with the BigQuery emulator),
#   2. checks the checked-in Thrift-generated code is current,
#   3. builds everything and runs the Java tests (unit, Beam fakes, emulator end-to-end) with
#      the formatting check,
#   4. runs the offline checks of scripts, Terraform and flex templates.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '\n==> %s\n' "$*"; }

export NO_GCE_CHECK=true

apt_install() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
      echo "Missing Debian packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
      exit 1
    fi
    log "Installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

log "Prerequisites"
apt_install thrift-compiler shellcheck bats bats-assert bats-support chromium
# The chart-rendering test skips without chromium on a developer's machine; here it must run.
export THRIFTBQ_REQUIRE_CHROMIUM=1
"$ROOT/scripts/local/install-bigquery-emulator.sh"

log "Generated Thrift code is current"
"$ROOT/scripts/regenerate-thrift.sh" --check

log "Java build and tests (./mvnw verify)"
./mvnw -B -ntp verify

log "Offline checks: scripts, Terraform, flex templates"
"$ROOT/scripts/ci/offline-checks.sh"

log "All tests passed"
