#!/usr/bin/env bash
# Stub of scripts/run-local.sh: records its arguments.
set -euo pipefail
"$(dirname "$0")/_record" run-local.sh "$@"
