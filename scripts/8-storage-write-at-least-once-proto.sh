#!/usr/bin/env bash
# Tuning step 8 (beyond the study): STORAGE_API_AT_LEAST_ONCE, PROTO_MESSAGE (direct proto bytes),
# --useStorageApiConnectionPool=true. The settings live in scripts/lib/tuning-steps.tsv (step 8)
# and scripts/lib/common.sh; run with --help for them, --dry-run to print the exact commands,
# --local to run on the local stack.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"
launch_step 8 "$@"
