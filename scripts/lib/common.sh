#!/usr/bin/env bash
# shellcheck shell=bash
# Globals set here are read by the scripts that source this file:
# shellcheck disable=SC2034
#
# Shared library of the deployment scripts: the paths and settings they share, and the files
# below, one per concern, which it sources (a script sources this file only):
#   commands.sh   logging; command execution with dry run (run, run_in, run_capture, query)
#   flags.sh      the one argument parser (parse_flags and its FLAG_SPEC table)
#   validate.sh   the checks of the flags; the rules shared with the Java come from
#                 patterns.generated.sh (generated from the Java constants)
#   terraform.sh  Terraform outputs, variables, apply and destroy
#   steps.sh      the tuning steps, from tuning-steps.tsv (the ONE step table)
#   dataflow.sh   what the jobs get: jars, event types, tables, route, schemas, and the ONE place
#                 where the settings common to every Dataflow job are defined; the active jobs
#   launch.sh     the launch flags (shared with flex-template-run.sh) and the numbered scripts
#
# Source it; do not run it. Every command that touches the cloud, Terraform, Maven or Java goes
# through `run` (or `run_in`/`run_capture`), so --dry-run prints it and calls nothing.
#
# Overridable from the environment (the bats tests use these):
#   MVN                  Maven command (default: the repository's ./mvnw)
#   THRIFTBQ_TF_DIR      Terraform root (default: terraform/)
#   THRIFTBQ_RUN_LOCAL   local-mode entry point (default: scripts/run-local.sh)
#   THRIFTBQ_POLL_SECONDS  seconds between job-state polls (default 15)
#   THRIFTBQ_INGEST_JAR, THRIFTBQ_DATAGEN_JAR  bundled jars (default: the modules' target/)

if [[ -n "${_THRIFTBQ_COMMON_LOADED:-}" ]]; then
  return 0
fi
_THRIFTBQ_COMMON_LOADED=1

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPTS_DIR="$REPO_ROOT/scripts"
TF_DIR="${THRIFTBQ_TF_DIR:-$REPO_ROOT/terraform}"
MVN="${MVN:-$REPO_ROOT/mvnw}"
RUN_LOCAL="${THRIFTBQ_RUN_LOCAL:-$SCRIPTS_DIR/run-local.sh}"
POLL_SECONDS="${THRIFTBQ_POLL_SECONDS:-15}"

INGEST_JAR="${THRIFTBQ_INGEST_JAR:-$REPO_ROOT/ingestion-pipeline/target/ingestion-pipeline-bundled.jar}"
INGEST_MAIN="io.thriftbq.ingest.IngestionPipeline"
DATAGEN_JAR="${THRIFTBQ_DATAGEN_JAR:-$REPO_ROOT/datagen-pipeline/target/datagen-pipeline-bundled.jar}"
DATAGEN_MAIN="io.thriftbq.datagen.DatagenPipeline"

# The event struct of the study; the generator and the ingestion pipeline must agree on it.
EVENT_CLASS="io.thriftbq.sample.Event"
THRIFT_PROTOCOL="BINARY"

DRY_RUN=0

# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=commands.sh
source "$SCRIPTS_DIR/lib/commands.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=flags.sh
source "$SCRIPTS_DIR/lib/flags.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=validate.sh
source "$SCRIPTS_DIR/lib/validate.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=terraform.sh
source "$SCRIPTS_DIR/lib/terraform.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=steps.sh
source "$SCRIPTS_DIR/lib/steps.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=dataflow.sh
source "$SCRIPTS_DIR/lib/dataflow.sh"
# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=launch.sh
source "$SCRIPTS_DIR/lib/launch.sh"
