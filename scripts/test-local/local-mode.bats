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
  for tool in bash cat dirname grep; do ln -s "$(command -v "${tool}")" "${scratch}/bin/${tool}"; done
  PATH="${scratch}/bin" LOCAL_STACK_DIR="${scratch}/stack" run "${installer}" --check
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"gcloud components install pubsub-emulator beta"* ]]
}

@test "installer --check --without-pubsub does not ask for gcloud" {
  mkdir -p "${scratch}/bin"
  for tool in bash cat dirname grep; do ln -s "$(command -v "${tool}")" "${scratch}/bin/${tool}"; done
  PATH="${scratch}/bin" LOCAL_STACK_DIR="${scratch}/stack" run "${installer}" --check --without-pubsub
  [ "${status}" -eq 1 ]
  [[ "${output}" == *"BigQuery emulator missing"* ]]
  [[ "${output}" != *"gcloud"* ]]
}

@test "scripts pass shellcheck" {
  if ! command -v shellcheck >/dev/null 2>&1; then
    skip "shellcheck not installed"
  fi
  run shellcheck "${run_local}" "${installer}"
  [ "${status}" -eq 0 ]
}
