#!/usr/bin/env bash
# Tuning step 9 (beyond the study): Dataflow's at-least-once streaming mode,
# STORAGE_API_AT_LEAST_ONCE,
# PROTO_MESSAGE (direct proto bytes) and change data capture: every event an upsert keyed on
# event_id (--primaryKey), so redelivered events collapse into one row. The settings live in
# scripts/lib/tuning-steps.tsv (step 9) and scripts/lib/common.sh; run with --help for them,
# --dry-run to print the exact commands, --local to run on the local stack. For your own IDL, give
# its key: --primaryKey=YOUR_KEY (with --local: --ingest-arg=--primaryKey=YOUR_KEY; see
# docs/INGESTION.md "Change data capture").
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"
launch_step 9 "$@"
