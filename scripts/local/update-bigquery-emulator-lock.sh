#!/usr/bin/env bash
# Regenerates scripts/local/bigquery-emulator.lock.txt from bigquery-emulator.requirements.in:
#
#   1. a scratch venv (Python >= 3.13, as the installer finds it) gets the pins of the .in file the
#      old way: the non-duckdb lines with whatever pip resolves for their dependencies today, then
#      the duckdb lines with --no-deps over them;
#   2. its `pip freeze` is the new set of pins;
#   3. `pip install --dry-run --report --no-deps` of that set records the file pip picks for each
#      pin on this machine and its sha256, written out as the lock.
#
# Then review `git diff scripts/local/bigquery-emulator.lock.txt`, run
# scripts/local/install-bigquery-emulator.sh (the changed lock reinstalls the venv) and the
# emulator tests, and commit the lock.
#
# Usage: scripts/local/update-bigquery-emulator-lock.sh [--help]
# Environment: PYTHON as for install-bigquery-emulator.sh.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements_in="${script_dir}/bigquery-emulator.requirements.in"
lock="${script_dir}/bigquery-emulator.lock.txt"

case "${1:-}" in
  "") ;;
  -h | --help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "Unknown argument: $1" >&2
    exit 2
    ;;
esac

python="$("${script_dir}/install-bigquery-emulator.sh" --print-python)"

scratch="$(mktemp -d)"
trap 'rm -rf "${scratch}"' EXIT

mapfile -t pins < <(grep -Ev '^[[:space:]]*(#|$)' "${requirements_in}")
top=()
duckdb=()
for pin in "${pins[@]}"; do
  if [[ "${pin}" == duckdb* ]]; then duckdb+=("${pin}"); else top+=("${pin}"); fi
done

echo "Resolving ${top[*]} (+ ${#duckdb[@]} duckdb pins, --no-deps) in a scratch venv with ${python}..."
"${python}" -m venv "${scratch}/venv"
pip=("${scratch}/venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install "${top[@]}"
"${pip[@]}" install --no-deps "${duckdb[@]}"
"${pip[@]}" freeze --exclude pip --exclude setuptools --exclude wheel >"${scratch}/frozen.txt"

"${pip[@]}" install --dry-run --ignore-installed --no-deps --report "${scratch}/report.json" \
  -r "${scratch}/frozen.txt"
"${python}" "${script_dir}/bigquery_emulator_lock.py" write "${scratch}/report.json" "${lock}"
# The lock must name exactly what the scratch venv holds.
"${scratch}/venv/bin/python" "${script_dir}/bigquery_emulator_lock.py" check "${lock}"
