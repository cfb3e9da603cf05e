#!/usr/bin/env bash
# Installs the local-bigquery emulator into a project-local virtual environment from the lock file
# scripts/local/bigquery-emulator.lock.txt (every package pinned with its sha256; regenerate it with
# scripts/local/update-bigquery-emulator-lock.sh), and checks that Google's Pub/Sub emulator is
# available.
#
# Idempotent: a stamp file records the sha256 of the lock of the last successful install, so a
# second run returns in well under a second; a changed lock reinstalls.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/local/install-bigquery-emulator.sh [--force] [--check] [--without-pubsub] [--help]

Installs the local-bigquery BigQuery emulator (PyPI) into .local-stack/venv-bq from the lock
scripts/local/bigquery-emulator.lock.txt (pip --require-hashes --no-deps), checks that the venv
holds exactly the lock's pins, and verifies that the gcloud Pub/Sub emulator is installed.

  --force           reinstall even if the stamp file says this lock is installed
  --check           install nothing; exit 0 if both emulators are ready, 1 otherwise
  --without-pubsub  do not require the Pub/Sub emulator (runs with --source kafka, whose
                    broker the Maven build provides)
  --print-python    print the Python interpreter the venv would be built with, and exit
  --help            this text

Environment:
  LOCAL_STACK_DIR   where the venv lives (default: <repo>/.local-stack)
  PYTHON            a Python >= 3.13 interpreter to build the venv with (default: python3.13
                    on PATH, else pyenv's 3.13.x)
EOF
}

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../.." && pwd)"
stack_dir="${LOCAL_STACK_DIR:-${repo_root}/.local-stack}"
venv="${stack_dir}/venv-bq"
stamp="${venv}/.thriftbq-installed"
lock="${script_dir}/bigquery-emulator.lock.txt"
lock_tool="${script_dir}/bigquery_emulator_lock.py"

force=0
check_only=0
need_pubsub=1
print_python=0
for arg in "$@"; do
  case "${arg}" in
    --force) force=1 ;;
    --check) check_only=1 ;;
    --without-pubsub) need_pubsub=0 ;;
    --print-python) print_python=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "Unknown argument: ${arg}" >&2
      usage >&2
      exit 2
      ;;
  esac
done

# local-bigquery 0.4.0 asks for duckdb>=2.0.0, whose extensions are fetched at run time from a
# host outside the package registries. duckdb 1.5.5 with the extensions shipped as PyPI wheels
# works offline; the lock pins it and is installed with --no-deps (bigquery-emulator.requirements.in).
# The version and extensions here must be the lock's (checked below): they locate and load them.
readonly DUCKDB_VERSION="1.5.5"
readonly DUCKDB_EXTENSIONS=(icu ducklake json parquet spatial avro)
stamp_content=""
local_bigquery_pin=""
if [[ "${print_python}" == 0 ]]; then
  for pin in "duckdb==${DUCKDB_VERSION} " "local-bigquery=="; do
    grep -q "^${pin}" "${lock}" || {
      echo "${lock} pins no ${pin}" >&2
      exit 1
    }
  done
  for ext in "${DUCKDB_EXTENSIONS[@]}"; do
    grep -q "^duckdb-extension-${ext}==${DUCKDB_VERSION} " "${lock}" || {
      echo "${lock} pins no duckdb-extension-${ext}==${DUCKDB_VERSION}" >&2
      exit 1
    }
  done
  local_bigquery_pin="$(grep -o '^local-bigquery==[^ ]*' "${lock}")"
  stamp_content="lock sha256 $(sha256sum "${lock}" | cut -d ' ' -f 1)"
fi

pubsub_emulator_hint() {
  cat >&2 <<'EOF'
The Pub/Sub emulator (a Google Cloud CLI component) is not installed. Get it with one of:
  gcloud components install pubsub-emulator beta            # CLI installed with the installer
  sudo apt-get install google-cloud-cli-pubsub-emulator     # CLI installed from Debian/Ubuntu apt
See https://cloud.google.com/pubsub/docs/emulator
EOF
}

pubsub_emulator_present() {
  command -v gcloud >/dev/null 2>&1 || return 1
  local sdk_root
  sdk_root="$(gcloud info --format='value(installation.sdk_root)' 2>/dev/null || true)"
  [[ -n "${sdk_root}" && -d "${sdk_root}/platform/pubsub-emulator" ]]
}

# import_extension() copies the extensions into ~/.duckdb, outside the venv, so a kept venv on a
# fresh home directory still needs them imported again.
extensions_present() {
  local ext
  for ext in "${DUCKDB_EXTENSIONS[@]}"; do
    compgen -G "${HOME}/.duckdb/extensions/v${DUCKDB_VERSION}/*/${ext}.duckdb_extension" >/dev/null || return 1
  done
}

import_extensions() {
  "${venv}/bin/python" - "${DUCKDB_EXTENSIONS[@]}" <<'PY'
import sys

import duckdb
import duckdb_extensions

for name in sys.argv[1:]:
    duckdb_extensions.import_extension(name)
con = duckdb.connect()
for name in sys.argv[1:]:
    con.execute(f"LOAD {name}")
print(f"duckdb {duckdb.__version__}: loaded extensions {', '.join(sys.argv[1:])}")
PY
}

bigquery_emulator_present() {
  [[ -x "${venv}/bin/local-bigquery" && -f "${stamp}" && "$(cat "${stamp}")" == "${stamp_content}" ]] &&
    extensions_present
}

# check_lock: the venv holds exactly the lock's pins (no more, no fewer, no other versions).
check_lock() {
  "${venv}/bin/python" "${lock_tool}" check "${lock}"
}

if [[ "${check_only}" == 1 ]]; then
  status=0
  if ! bigquery_emulator_present; then
    echo "BigQuery emulator missing: run scripts/local/install-bigquery-emulator.sh" >&2
    status=1
  fi
  if [[ "${need_pubsub}" == 1 ]] && ! pubsub_emulator_present; then
    pubsub_emulator_hint
    status=1
  fi
  exit "${status}"
fi

find_python() {
  if [[ -n "${PYTHON:-}" ]]; then
    echo "${PYTHON}"
    return 0
  fi
  local candidate
  for candidate in python3.13 python3.14 python3; do
    if command -v "${candidate}" >/dev/null 2>&1 &&
      "${candidate}" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 13) else 1)' 2>/dev/null; then
      command -v "${candidate}"
      return 0
    fi
  done
  if command -v pyenv >/dev/null 2>&1; then
    local version
    version="$(pyenv versions --bare 2>/dev/null | grep -E '^3\.1[3-9]\.[0-9]+$' | sort -V | tail -n 1 || true)"
    if [[ -n "${version}" ]]; then
      PYENV_VERSION="${version}" pyenv which python3 2>/dev/null && return 0
    fi
  fi
  return 1
}

if [[ "${print_python}" == 1 ]]; then
  find_python || {
    echo "local-bigquery needs Python >= 3.13; install it (e.g. 'pyenv install 3.13') or set PYTHON=" >&2
    exit 1
  }
  exit 0
fi

if [[ "${force}" == 0 ]] && bigquery_emulator_present; then
  check_lock
  echo "BigQuery emulator already installed in ${venv}"
elif [[ "${force}" == 0 && -x "${venv}/bin/local-bigquery" && -f "${stamp}" &&
  "$(cat "${stamp}")" == "${stamp_content}" ]]; then
  check_lock
  import_extensions
else
  python="$(find_python)" || {
    echo "local-bigquery needs Python >= 3.13; install it (e.g. 'pyenv install 3.13') or set PYTHON=" >&2
    exit 1
  }
  echo "Installing ${local_bigquery_pin} from ${lock} into ${venv} with ${python} (30-80 s, ~700 MB)..."
  rm -rf "${venv}"
  mkdir -p "${stack_dir}"
  "${python}" -m venv "${venv}"
  pip=("${venv}/bin/python" -m pip --disable-pip-version-check -q)
  # Every package and its hash come from the lock; --no-deps keeps pip from resolving (the lock
  # overrides local-bigquery's duckdb pin) and from pulling in anything the lock does not name.
  "${pip[@]}" install --require-hashes --no-deps -r "${lock}"
  check_lock
  import_extensions
  "${venv}/bin/local-bigquery" --help >/dev/null
  echo "${stamp_content}" >"${stamp}"
  echo "BigQuery emulator installed: ${venv}/bin/local-bigquery"
fi

if [[ "${need_pubsub}" == 0 ]]; then
  exit 0
elif pubsub_emulator_present; then
  echo "Pub/Sub emulator found (gcloud $(gcloud version --format='value("Google Cloud SDK")' 2>/dev/null || echo '?'))"
else
  pubsub_emulator_hint
  exit 1
fi
