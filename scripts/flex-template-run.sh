#!/usr/bin/env bash
# Launch a tuning step from the flex templates (built by flex-template-build.sh) instead of from
# the local jars. Same step settings and same common Dataflow settings as the numbered scripts.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"

usage() {
  cat <<EOF2
Usage: $(basename "$0") --project PROJECT --step N [--source pubsub|kafka] [options]

Runs the flex templates <templates_location>/ingestion.json and datagen.json with the settings
of tuning step N (scripts/lib/tuning-steps.tsv, the one step table) and the common Dataflow settings
(dataflow_common_args), translated to gcloud flags.

Options:
  --project ID               Google Cloud project (default: \$GOOGLE_CLOUD_PROJECT). Required.
  --region REGION            Dataflow region (default: us-central1).
  --prefix PREFIX            Prefix of the job names (default: thriftbq).
  --step N                   Tuning step (a number of scripts/lib/tuning-steps.tsv). Required.
  --pipeline NAME            ingestion, datagen or both (default: both).
  --source pubsub|kafka      Route of the events (default: pubsub), as Terraform's event_source
                             was applied: kafka reads and writes the Managed Kafka topic
                             (bootstrap address, topic, consumer group from the Terraform
                             outputs; GOOGLE_OAUTH as the worker service account).
  --max-workers N            Max workers of the ingestion job (default: 100).
  --generator-max-workers N  Max workers of the generator job (default: 40).
  --generator-rate N         Events per second of the generator (default: 1000000).
  --parameter NAME=VALUE     Extra ingestion template parameter (repeatable).
  --idl gs://BUCKET/F.thrift Your Thrift IDL in a bucket, read by both templates' launchers
                             instead of the sample's classes (the image stays as built).
  --struct NAME              The struct of --idl each message holds (FILE.Name when ambiguous).
  --structs A,B,C            Several structs of --idl in one job, each to its own table
                             (--outputTable=PROJECT:DATASET.events_{struct}; create the tables
                             first: docs/DEPLOYMENT.md, "Many event types"). Name:WEIGHT sets the
                             generator's share; the ingestion job gets the names only.
  --union NAME               A union of --idl wrapping every event type (struct members, each to
                             its own table; --structs narrows them).
  --struct-attribute NAME    Attribute naming each message's struct with --structs (default of
                             the pipeline: thrift_struct).
  --table-for-struct S=T,... Another table for some structs (Order=proj:ds.orders).
  --idl-include DIRS         Comma-separated gs:// directories for the IDL's includes.
  --dry-run                  Print every command; call nothing.
  -h, --help                 Show this help.
EOF2
}

launch_flags
FLAG_SPEC+=([--step]=STEP [--pipeline]=PIPELINE [--parameter]='PARAMETERS[]')
STEP=""
PIPELINE="both"
PARAMETERS=()
parse_flags "$@"

EXTRA_PARAMS=()
for parameter in "${PARAMETERS[@]}"; do
  [[ "$parameter" =~ ^[A-Za-z][A-Za-z0-9]*=.+$ ]] || usage_error "--parameter must be NAME=VALUE, got '$parameter'."
  EXTRA_PARAMS+=("--$parameter")
done
validate_launch_flags
[[ -n "$STEP" ]] || usage_error "--step is required (one of $(step_numbers | tr "\n" " "))."
validate_step "$STEP"
case "$PIPELINE" in
  ingestion | datagen | both) ;;
  *) usage_error "--pipeline must be ingestion, datagen or both, got '$PIPELINE'." ;;
esac
if [[ -n "$IDL" && "$IDL" != gs://?*/?* ]]; then
  usage_error "--idl must be a gs:// path: the template's launcher reads it in the cloud (copy it with gcloud storage cp)."
fi
((DRY_RUN)) || require_command gcloud terraform

# flex_flags JOB_NAME MAX_WORKERS: dataflow_common_args translated to gcloud flags, so the common
# settings stay defined in one place.
flex_flags() {
  dataflow_common_args "$1" "$2"
  FLEX_FLAGS=()
  local a
  for a in "${DATAFLOW_ARGS[@]}"; do
    case "$a" in
      --project=* | --region=* | --subnetwork=*) FLEX_FLAGS+=("$a") ;;
      --enableStreamingEngine | --enableStreamingEngine=true) FLEX_FLAGS+=(--enable-streaming-engine) ;;
      --workerMachineType=*) FLEX_FLAGS+=(--worker-machine-type="${a#*=}") ;;
      --maxNumWorkers=*) FLEX_FLAGS+=(--max-workers="${a#*=}") ;;
      --usePublicIps=false) FLEX_FLAGS+=(--disable-public-ips) ;;
      --serviceAccount=*) FLEX_FLAGS+=(--service-account-email="${a#*=}") ;;
      --stagingLocation=*) FLEX_FLAGS+=(--staging-location="${a#*=}") ;;
      --tempLocation=*) FLEX_FLAGS+=(--temp-location="${a#*=}") ;;
      --autoscalingAlgorithm=*) FLEX_FLAGS+=(--additional-pipeline-options="autoscalingAlgorithm=${a#*=}") ;;
      # The job name is the positional argument; the runner and streaming come from the template.
      --runner=* | --jobName=* | --streaming=* | --gcpTempLocation=*) ;;
      *) die "dataflow_common_args has '$a', which flex-template-run.sh cannot translate." ;;
    esac
  done
}

# join_params FLAG...: "--a=1 --b=2" as the value of gcloud's --parameters ("a=1,b=2"), with
# gcloud's alternative delimiter when a value contains a comma.
join_params() {
  local out="" sep="," f
  for f in "$@"; do
    [[ "$f" == *,* ]] && sep="~"
  done
  for f in "$@"; do
    out+="${f#--}$sep"
  done
  out="${out%"$sep"}"
  [[ "$sep" == "~" ]] && out="^~^$out"
  printf '%s' "$out"
}

step_settings "$STEP"
struct_args
log "Step $STEP from flex templates: $STEP_TITLE"
templates="$(tf_output templates_location)"
# The route of the events (--source): Pub/Sub names or the Managed Kafka cluster's, from Terraform.
source_args

if [[ "$PIPELINE" != datagen ]]; then
  job="$(ingest_job_name "$STEP")"
  flex_flags "$job" "$MAX_WORKERS"
  # One struct: the Terraform event table; several: PROJECT:DATASET.events_{struct}
  # (table_args; the tables come from Terraform's event_tables).
  table_args
  params="$(join_params \
    "${INGEST_SOURCE_ARGS[@]}" \
    "${INGEST_TABLE_ARGS[@]}" \
    "${INGEST_STRUCT_ARGS[@]}" \
    --thriftProtocol="$THRIFT_PROTOCOL" \
    "${STEP_ARGS[@]}" "${EXTRA_PARAMS[@]}")"
  run gcloud dataflow flex-template run "$job" --template-file-gcs-location="$templates/ingestion.json" \
    "${FLEX_FLAGS[@]}" --parameters="$params"
fi

if [[ "$PIPELINE" != ingestion ]]; then
  job="$(datagen_job_name "$STEP")"
  generator_step_args
  flex_flags "$job" "$GENERATOR_MAX_WORKERS"
  params="$(join_params "${GENERATOR_SINK_ARGS[@]}" "${GENERATOR_ARGS[@]}")"
  run gcloud dataflow flex-template run "$job" --template-file-gcs-location="$templates/datagen.json" \
    "${FLEX_FLAGS[@]}" --parameters="$params"
fi
((DRY_RUN)) || log "Jobs submitted; see https://console.cloud.google.com/dataflow/jobs?project=$PROJECT"
