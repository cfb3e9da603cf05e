#!/usr/bin/env bash
# shellcheck shell=bash
# Globals set here are read by the scripts that source this file:
# shellcheck disable=SC2034
#
# Shared library of the deployment scripts: logging, argument parsing, validation, command
# execution with dry run, Terraform outputs, and the ONE place where the settings common to every
# Dataflow job and the settings of the tuning steps (the seven of the study, and step 8) are defined.
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

# ---------------------------------------------------------------------------------------------
# Logging

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# die MESSAGE [EXIT_CODE]: print an error and exit (2 for usage errors, 1 otherwise).
die() {
  printf 'ERROR: %s\n' "$1" >&2
  exit "${2:-1}"
}
usage_error() {
  printf 'ERROR: %s\n' "$1" >&2
  printf "Run '%s --help' for usage.\n" "$(basename "$0")" >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# Command execution

# quote_word WORD: shell-quote WORD for display, keeping $(...) placeholders that dry runs put in
# for values only a real run can know (Terraform outputs) so the printed line can be pasted.
quote_word() {
  local w="$1"
  # shellcheck disable=SC2016,SC1003 # a literal $( and a literal backslash on purpose
  if [[ "$w" =~ ^[A-Za-z0-9_./:=,@%+^~-]+$ ]]; then
    printf '%s' "$w"
  elif [[ "$w" == *'$('* && "$w" != *'"'* && "$w" != *'\'* ]]; then
    printf '"%s"' "$w"
  else
    printf "'%s'" "${w//\'/\'\\\'\'}"
  fi
}

# format_cmd CMD...: the command as one line.
format_cmd() {
  local out="" w
  for w in "$@"; do
    out+="$(quote_word "$w") "
  done
  printf '%s' "${out% }"
}

# run CMD...: print the command; execute it unless this is a dry run.
run() {
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  printf '+ %s\n' "$(format_cmd "$@")" >&2
  "$@"
}

# run_in DIR CMD...: like run, inside DIR (a subshell, so the caller's directory is unchanged).
run_in() {
  local dir="$1"
  shift
  if ((DRY_RUN)); then
    printf '(cd %s && %s)\n' "$(quote_word "$dir")" "$(format_cmd "$@")"
    return 0
  fi
  printf '+ (cd %s && %s)\n' "$(quote_word "$dir")" "$(format_cmd "$@")" >&2
  (cd "$dir" && "$@")
}

# run_capture VAR CMD...: like run, and store the command's standard output in VAR (also shown on
# stderr). In a dry run VAR gets an empty string.
run_capture() {
  local -n _rc_out="$1"
  shift
  _rc_out=""
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  printf '+ %s\n' "$(format_cmd "$@")" >&2
  local tmp status=0
  tmp="$(mktemp)"
  "$@" >"$tmp" 2>&1 || status=$?
  cat "$tmp" >&2
  _rc_out="$(cat "$tmp")"
  rm -f "$tmp"
  return "$status"
}

# query CMD...: a read-only query whose output the script needs (job lists, states). In a dry run
# it is printed and returns nothing.
query() {
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  "$@"
}

require_command() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || die "'$c' is not installed or not on PATH; see docs/DEPLOYMENT.md (Prerequisites)."
  done
}

# ---------------------------------------------------------------------------------------------
# Validation

validate_project() {
  [[ -n "${1:-}" ]] || usage_error "--project is required (or set GOOGLE_CLOUD_PROJECT)."
  [[ "$1" =~ ^[a-z][a-z0-9-]{4,28}[a-z0-9]$ ]] ||
    usage_error "--project '$1' is not a valid project id (6-30 lowercase letters, digits, hyphens; starts with a letter)."
}

validate_region() {
  [[ -n "${1:-}" ]] || usage_error "--region is required."
  [[ "$1" =~ ^[a-z]+-[a-z]+[0-9]+$ ]] || usage_error "--region '$1' is not a region such as us-central1."
}

# Same rule as terraform/variables.tf name_prefix.
validate_prefix() {
  [[ "${1:-}" =~ ^[a-z]([a-z0-9]|-[a-z0-9]){2,19}$ ]] ||
    usage_error "--prefix '${1:-}' must be 3-20 lowercase letters, digits and single hyphens, starting with a letter."
}

# validate_positive_int OPTION VALUE
validate_positive_int() {
  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 must be a positive integer, got '${2:-}'."
}

validate_step() {
  local steps
  steps="$(step_numbers | tr '\n' ' ')"
  [[ " $steps" == *" ${1:-x} "* ]] || usage_error "--step must be one of ${steps% }, got '${1:-}'."
}

validate_file() {
  [[ -f "${2:-}" ]] || usage_error "$1 file '${2:-}' does not exist."
}

# The event types of a job (one struct, or several: issue 22). A struct is Name or FILE.Name (the
# IDL file name without .thrift); --structs may give the generator a share per struct (NAME:WEIGHT).
STRUCT_NAME_RE='[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_]*)?'
STRUCT_ITEM_RE="${STRUCT_NAME_RE}(:[0-9]+(\.[0-9]+)?)?"
# PROJECT:DATASET.TABLE or DATASET.TABLE, as the pipeline's --outputTable.
TABLE_SPEC_RE='([a-z][a-z0-9.:-]*[a-z0-9]:)?[A-Za-z0-9_]+\.[A-Za-z0-9_$-]+'

# many_types: whether the launch names several event types (--structs or --union).
many_types() { [[ -n "${STRUCTS:-}" || -n "${UNION:-}" ]]; }

# struct_names LIST: --structs without the generator's weights (the pipeline takes names only).
struct_names() {
  local item out=""
  local -a items
  IFS=, read -r -a items <<<"$1"
  for item in "${items[@]}"; do
    out+="${item%%:*},"
  done
  printf '%s' "${out%,}"
}

# validate_event_types: the rules of --idl, --struct, --structs, --union, --struct-attribute,
# --table-for-struct (globals IDL STRUCT STRUCTS UNION STRUCT_ATTRIBUTE TABLE_FOR_STRUCT
# IDL_INCLUDE). The IDL file itself is checked by the caller (local file or gs://).
validate_event_types() {
  if [[ -n "${STRUCTS:-}" && ! "$STRUCTS" =~ ^${STRUCT_ITEM_RE}(,${STRUCT_ITEM_RE})*$ ]]; then
    usage_error "--structs must list struct names separated by commas, like Order,Refund,Click (FILE.Name when a name is ambiguous; Name:WEIGHT sets the generator's share), got '$STRUCTS'."
  fi
  if [[ -n "${UNION:-}" && ! "$UNION" =~ ^${STRUCT_NAME_RE}$ ]]; then
    usage_error "--union must name one union of the IDL, like AnyEvent, got '$UNION'."
  fi
  if many_types; then
    [[ -n "${IDL:-}" ]] ||
      usage_error "--structs and --union name structs of a Thrift IDL: add --idl FILE, the .thrift file that declares them."
    [[ -z "${STRUCT:-}" ]] ||
      usage_error "give --struct for one struct, or --structs/--union for several, not both."
  elif [[ -n "${IDL:-}" && -z "${STRUCT:-}" ]]; then
    usage_error "--idl needs --struct: name the struct each message holds (or --structs A,B,C or --union U for several event types)."
  elif [[ -z "${IDL:-}" && (-n "${STRUCT:-}" || -n "${IDL_INCLUDE:-}") ]]; then
    usage_error "--struct and --idl-include need --idl."
  fi
  if [[ -n "${STRUCT_ATTRIBUTE:-}" ]]; then
    [[ -n "${STRUCTS:-}" && -z "${UNION:-}" ]] ||
      usage_error "--struct-attribute names the message attribute that says which of --structs a message holds: it needs --structs, and a --union job does not read it."
    [[ "$STRUCT_ATTRIBUTE" =~ ^[A-Za-z_][A-Za-z0-9_.-]{0,255}$ && "$STRUCT_ATTRIBUTE" != goog* ]] ||
      usage_error "--struct-attribute '$STRUCT_ATTRIBUTE' is not a usable Pub/Sub attribute name (letters, digits, _ . -; not starting with goog)."
  fi
  if [[ -n "${TABLE_FOR_STRUCT:-}" ]]; then
    many_types ||
      usage_error "--table-for-struct sends structs of a many-types job to their own tables: it needs --structs or --union."
    local entry name
    local -a entries
    IFS=, read -r -a entries <<<"$TABLE_FOR_STRUCT"
    for entry in "${entries[@]}"; do
      [[ "$entry" =~ ^${STRUCT_NAME_RE}=${TABLE_SPEC_RE}$ ]] ||
        usage_error "--table-for-struct entries must be Struct=PROJECT:DATASET.TABLE (comma-separated), got '$entry'."
      name="${entry%%=*}"
      if [[ -n "${STRUCTS:-}" && ",$(struct_names "$STRUCTS")," != *",$name,"* ]]; then
        usage_error "--table-for-struct names $name, which is not one of --structs $(struct_names "$STRUCTS")."
      fi
    done
  fi
  return 0
}

# validate_source: --source is pubsub or kafka (any case; SOURCE is set to lowercase).
validate_source() {
  SOURCE="$(tr '[:upper:]' '[:lower:]' <<<"${SOURCE:-pubsub}")"
  [[ "$SOURCE" == pubsub || "$SOURCE" == kafka ]] ||
    usage_error "--source must be pubsub or kafka, got '$SOURCE'."
}

# need_value OPTION "$@": fail if the option has no value after it.
need_value() {
  [[ $# -ge 2 && -n "$2" && "$2" != --* ]] || usage_error "$1 needs a value."
}

# ---------------------------------------------------------------------------------------------
# Terraform

# tf_output NAME: print a Terraform output of the root configuration. In a dry run print the
# command substitution that would produce it, so the printed commands stay exact.
tf_output() {
  if ((DRY_RUN)); then
    # shellcheck disable=SC2016 # the placeholder is printed, not expanded
    printf '$(terraform -chdir=%s output -raw %s)' "$TF_DIR" "$1"
    return 0
  fi
  local value
  value="$(terraform -chdir="$TF_DIR" output -raw "$1")" ||
    die "Terraform output '$1' is missing: run terraform apply first (drop --skip-terraform)."
  [[ -n "$value" ]] || die "Terraform output '$1' is empty."
  printf '%s' "$value"
}

# tf_vars: the -var arguments every terraform call gets (project, region, prefix, tfvars file,
# and last, so that --source decides it over a tfvars file, the route of the events).
tf_vars() {
  TF_VAR_ARGS=(-var="project_id=$PROJECT" -var="region=$REGION" -var="name_prefix=$PREFIX")
  # Many event types: the tables' map (event_tables) SchemaExporter wrote; before --tfvars, so a
  # user's file that sets event_tables replaces it.
  if [[ -n "${EVENT_TABLES_TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$EVENT_TABLES_TFVARS")
  fi
  # Change mode, one table: its key and staleness (event_table_primary_key, ...) SchemaExporter
  # wrote from the job's --primaryKey and --maxStaleness; before --tfvars too.
  if [[ -n "${EVENT_TABLE_TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$EVENT_TABLE_TFVARS")
  fi
  if [[ -n "${TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$TFVARS")
  fi
  if [[ -n "${EVENT_SCHEMA_FILE:-}" ]]; then
    TF_VAR_ARGS+=(-var="event_table_schema_file=$EVENT_SCHEMA_FILE")
  fi
  if [[ -n "${DEAD_LETTER_SCHEMA_FILE:-}" ]]; then
    TF_VAR_ARGS+=(-var="dead_letter_table_schema_file=$DEAD_LETTER_SCHEMA_FILE")
  fi
  TF_VAR_ARGS+=(-var="event_source=${SOURCE:-pubsub}")
}

tf_apply() {
  tf_vars
  local approve=()
  ((AUTO_APPROVE)) && approve=(-auto-approve)
  run terraform -chdir="$TF_DIR" init -input=false
  run terraform -chdir="$TF_DIR" apply -input=false "${approve[@]}" "${TF_VAR_ARGS[@]}"
}

tf_destroy() {
  tf_vars
  local approve=()
  ((AUTO_APPROVE)) && approve=(-auto-approve)
  run terraform -chdir="$TF_DIR" init -input=false
  run terraform -chdir="$TF_DIR" destroy -input=false "${approve[@]}" "${TF_VAR_ARGS[@]}"
}

# ---------------------------------------------------------------------------------------------
# Build

build_jars() {
  run_in "$REPO_ROOT" "$MVN" -B -q -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests
}

check_jars() {
  ((DRY_RUN)) && return 0
  [[ -f "$INGEST_JAR" ]] || die "$INGEST_JAR is missing: drop --skip-build or run ./mvnw -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests."
  [[ -f "$DATAGEN_JAR" ]] || die "$DATAGEN_JAR is missing: drop --skip-build or run ./mvnw -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests."
}

# ---------------------------------------------------------------------------------------------
# The tuning steps. Their table is scripts/lib/tuning-steps.tsv, the ONE step table: local mode
# and the tests read the same file, so a --local run has exactly the cloud step's flags.

STEP_TABLE="$SCRIPTS_DIR/lib/tuning-steps.tsv"

# step_numbers: the step numbers of the table, one per line.
step_numbers() {
  local number rest
  while IFS=$'\t' read -r number rest; do
    [[ -z "$number" || "$number" == \#* ]] && continue
    printf '%s\n' "$number"
  done <"$STEP_TABLE"
}

# step_settings N: set STEP_NAME, STEP_TITLE, STEP_SETTING, STEP_LESSON and STEP_ARGS (ingestion
# flags) from the step table.
step_settings() {
  local number name title setting lesson flags
  while IFS=$'\t' read -r number name title setting lesson flags; do
    [[ -z "$number" || "$number" == \#* ]] && continue
    if [[ "$number" == "$1" ]]; then
      STEP_NAME="$name"
      STEP_TITLE="$title"
      STEP_SETTING="$setting"
      STEP_LESSON="$lesson"
      read -r -a STEP_ARGS <<<"$flags"
      return 0
    fi
  done <"$STEP_TABLE"
  die "unknown step '$1' (steps: $(step_numbers | tr '\n' ' '))"
}

# struct_args: the flags that name the event types, the same for both jobs except the option for
# a generated class: the user's IDL (--idl with --struct, or --structs/--union for several types,
# read at launch), or the sample's class. The generator gets --structs with its weights; the
# pipeline, the names only. Sets INGEST_STRUCT_ARGS and GENERATOR_STRUCT_ARGS.
struct_args() {
  if [[ -n "${IDL:-}" ]]; then
    INGEST_STRUCT_ARGS=(--thriftIdl="$IDL")
    GENERATOR_STRUCT_ARGS=(--thriftIdl="$IDL")
    if many_types; then
      if [[ -n "${UNION:-}" ]]; then
        INGEST_STRUCT_ARGS+=(--thriftUnion="$UNION")
        GENERATOR_STRUCT_ARGS+=(--thriftUnion="$UNION")
      fi
      if [[ -n "${STRUCTS:-}" ]]; then
        INGEST_STRUCT_ARGS+=(--thriftStructs="$(struct_names "$STRUCTS")")
        GENERATOR_STRUCT_ARGS+=(--thriftStructs="$STRUCTS")
      fi
      if [[ -n "${STRUCT_ATTRIBUTE:-}" ]]; then
        INGEST_STRUCT_ARGS+=(--structAttribute="$STRUCT_ATTRIBUTE")
        GENERATOR_STRUCT_ARGS+=(--structAttribute="$STRUCT_ATTRIBUTE")
      fi
    else
      INGEST_STRUCT_ARGS+=(--thriftStruct="$STRUCT")
      GENERATOR_STRUCT_ARGS+=(--thriftStruct="$STRUCT")
    fi
    if [[ -n "${IDL_INCLUDE:-}" ]]; then
      INGEST_STRUCT_ARGS+=(--thriftIdlIncludePath="$IDL_INCLUDE")
      GENERATOR_STRUCT_ARGS+=(--thriftIdlIncludePath="$IDL_INCLUDE")
    fi
  else
    INGEST_STRUCT_ARGS=(--thriftClassName="$EVENT_CLASS")
    GENERATOR_STRUCT_ARGS=(--className="$EVENT_CLASS")
  fi
}

# table_args: where the ingestion job writes. One struct: the Terraform event table. Several:
# PROJECT:DATASET.events_{struct} (Terraform's event_tables naming; the pipeline puts each
# struct's snake_case name in place of {struct}), plus --tableForStruct when given.
# Sets INGEST_TABLE_ARGS.
table_args() {
  local output dead_letter
  if many_types; then
    output="$(tf_output event_table_spec_template)"
  else
    output="$(tf_output event_table_spec)"
  fi
  dead_letter="$(tf_output dead_letter_table_spec)"
  INGEST_TABLE_ARGS=(--outputTable="$output" --deadLetterTable="$dead_letter")
  if [[ -n "${TABLE_FOR_STRUCT:-}" ]]; then
    INGEST_TABLE_ARGS+=(--tableForStruct="$TABLE_FOR_STRUCT")
  fi
}

# source_args: the route of the events (--source), from the Terraform outputs: the ingestion
# job's input and the generator's output. Pub/Sub: the subscription and the topic. Kafka (Managed
# Service for Apache Kafka): the bootstrap address, the topic and the consumer group, both jobs
# authenticating as the worker service account (GOOGLE_OAUTH, no secret). Outside a dry run,
# checks that Terraform's event_source is the same route. Sets INGEST_SOURCE_ARGS and
# GENERATOR_SINK_ARGS.
source_args() {
  if ((!DRY_RUN)); then
    local applied
    applied="$(tf_output event_source)"
    [[ "$applied" == "${SOURCE:-pubsub}" ]] ||
      die "--source ${SOURCE:-pubsub}, but the infrastructure was applied with event_source = $applied: run without --skip-terraform (terraform apply switches the route) or use --source $applied."
  fi
  if [[ "${SOURCE:-pubsub}" == kafka ]]; then
    local servers topic group
    servers="$(tf_output kafka_bootstrap_servers)"
    topic="$(tf_output kafka_topic)"
    group="$(tf_output kafka_consumer_group)"
    INGEST_SOURCE_ARGS=(--source=KAFKA --kafkaBootstrapServers="$servers" --kafkaTopics="$topic"
      --kafkaConsumerGroup="$group" --kafkaAuthentication=GOOGLE_OAUTH)
    GENERATOR_SINK_ARGS=(--sink=KAFKA --kafkaBootstrapServers="$servers" --kafkaTopic="$topic"
      --kafkaAuthentication=GOOGLE_OAUTH)
  else
    local subscription topic
    subscription="$(tf_output subscription_id)"
    topic="$(tf_output topic_id)"
    INGEST_SOURCE_ARGS=(--subscription="$subscription")
    GENERATOR_SINK_ARGS=(--outputTopic="$topic")
  fi
}

# export_idl_schema: with --idl, the event tables' schemas come from the user's IDL (Terraform
# creates the tables with them), written next to the Terraform state, not over the sample's files.
# One struct: event_table.json. Several: one file per struct (structs/<name>.json), the dead-letter
# schema of the same jar, and the Terraform map event_tables (event_tables.tfvars.json). The
# metadata columns the job is asked for (--include*, --keepUnknownFields) are in the schemas too.
#
# Change mode (the job's --primaryKey, from the step or --ingest-arg): the schemas are exported
# for the sample's class too, and the exporter, given the job's change flags, checks them as the
# launch does and writes the tables' primary key and max_staleness where Terraform reads them
# (event_tables entries; for one table event_table.tfvars.json), so that the tables Terraform
# creates are ones the launch accepts (it refuses a table whose key differs from --primaryKey).
export_idl_schema() {
  change_args
  local dir="$TF_DIR/schemas/generated/$PREFIX" arg columns=() change_mode=0 key_vars=()
  for arg in "${CHANGE_ARGS[@]}"; do
    [[ "$arg" == --primaryKey=* ]] && change_mode=1
  done
  [[ -n "${IDL:-}" ]] || ((change_mode)) || return 0
  for arg in "${INGEST_EXTRA[@]}"; do
    case "$arg" in
      --includePubsubMessageId=* | --includePublishTime=* | --includeAttributes=* | --includeKafka*=* | --keepUnknownFields=*)
        columns+=("$arg")
        ;;
    esac
  done
  ((DRY_RUN)) || mkdir -p "$dir"
  if many_types; then
    EVENT_TABLES_TFVARS="$dir/event_tables.tfvars.json"
    DEAD_LETTER_SCHEMA_FILE="$dir/dead_letter_table.json"
    ((DRY_RUN)) || mkdir -p "$dir/structs"
    run java -cp "$INGEST_JAR" io.thriftbq.ingest.SchemaExporter "${INGEST_STRUCT_ARGS[@]}" \
      "${columns[@]}" --output="$dir/structs/{struct}.json" --deadLetterOutput="$DEAD_LETTER_SCHEMA_FILE" \
      --terraformVarsOutput="$EVENT_TABLES_TFVARS" --terraformDir="$TF_DIR" "${CHANGE_ARGS[@]}"
    return 0
  fi
  EVENT_SCHEMA_FILE="$dir/event_table.json"
  if ((change_mode)); then
    EVENT_TABLE_TFVARS="$dir/event_table.tfvars.json"
    key_vars=(--terraformVarsOutput="$EVENT_TABLE_TFVARS" --terraformDir="$TF_DIR")
  fi
  run java -cp "$INGEST_JAR" io.thriftbq.ingest.SchemaExporter "${INGEST_STRUCT_ARGS[@]}" \
    "${columns[@]}" --output="$EVENT_SCHEMA_FILE" "${key_vars[@]}" "${CHANGE_ARGS[@]}"
}

# change_args: the job's change-mode flags (the step's unless --ingest-arg gives them again, and
# --ingest-arg's), for SchemaExporter. Sets CHANGE_ARGS.
change_args() {
  CHANGE_ARGS=()
  local arg
  while IFS= read -r arg; do
    case "$arg" in
      --primaryKey=* | --maxStaleness=* | --changeType=* | --changeSequence=* | --upsertValues=* | --deleteValues=*)
        CHANGE_ARGS+=("$arg")
        ;;
    esac
  done < <(
    not_overridden "${STEP_ARGS[@]}"
    printf '%s\n' "${INGEST_EXTRA[@]}"
  )
}

# The generator is the same in every step: the same struct at 1M events/s, uncompressed,
# one event per message, unbounded.
generator_step_args() {
  struct_args
  GENERATOR_ARGS=(
    "${GENERATOR_STRUCT_ARGS[@]}"
    --thriftProtocol="$THRIFT_PROTOCOL"
    --generatorRatePerSec="$GENERATOR_RATE"
    --maxRecordsPerBatch=1
    --maxEvents=0
  )
}

# Job names: <prefix>-ingest-step<N> and <prefix>-datagen-step<N>.
ingest_job_name() { printf '%s-ingest-step%s' "$PREFIX" "$1"; }
datagen_job_name() { printf '%s-datagen-step%s' "$PREFIX" "$1"; }

# dataflow_common_args JOB_NAME MAX_WORKERS: the settings every Dataflow job of the template
# shares (the ONE place they are defined): Streaming Engine, throughput-based autoscaling,
# n2d-standard-4 workers without public IPs on the Terraform subnetwork, the worker service
# account, staging and temp folders in the Terraform bucket.
dataflow_common_args() {
  local job_name="$1" max_workers="$2"
  DATAFLOW_ARGS=(
    --runner=DataflowRunner
    --project="$PROJECT"
    --region="$REGION"
    --jobName="$job_name"
    --streaming=true
    --enableStreamingEngine
    --autoscalingAlgorithm=THROUGHPUT_BASED
    --workerMachineType=n2d-standard-4
    --maxNumWorkers="$max_workers"
    --usePublicIps=false
    --subnetwork="$(tf_output subnetwork_self_link)"
    --serviceAccount="$(tf_output worker_service_account_email)"
    --stagingLocation="$(tf_output staging_location)"
    --tempLocation="$(tf_output temp_location)"
    --gcpTempLocation="$(tf_output temp_location)"
  )
}

console_link() {
  printf 'https://console.cloud.google.com/dataflow/jobs/%s/%s?project=%s' "$REGION" "$1" "$PROJECT"
}

# find_active_jobs: set ACTIVE_JOBS to the "ID NAME" lines of the active Dataflow jobs of this
# prefix (<prefix>-ingest-stepN, <prefix>-datagen-stepN). A dry run prints the query and finds none.
find_active_jobs() {
  ACTIVE_JOBS=""
  local list_cmd=(gcloud dataflow jobs list --project="$PROJECT" --region="$REGION" --status=active --format='value(id,name)')
  if ((DRY_RUN)); then
    query "${list_cmd[@]}"
    return 0
  fi
  local out id name
  out="$("${list_cmd[@]}")" || die "gcloud dataflow jobs list failed; check the project, the region and your credentials (gcloud auth login)."
  while read -r id name; do
    [[ -z "$id" ]] && continue
    if [[ "$name" =~ ^${PREFIX}-(ingest|datagen)-step[0-9]+$ ]]; then
      ACTIVE_JOBS+="$id $name"$'\n'
    fi
  done <<<"$out"
  return 0
}

# job_id_from_output TEXT JOB_NAME: the id DataflowRunner logs ("Submitted job: ID"), or else the
# id of the active job with that name.
job_id_from_output() {
  local id
  id="$(sed -n 's/.*Submitted job: *\([A-Za-z0-9_-]*\).*/\1/p' <<<"$1" | tail -n 1)"
  if [[ -z "$id" ]]; then
    id="$(gcloud dataflow jobs list --project="$PROJECT" --region="$REGION" --status=active \
      --filter="name=$2" --format='value(id)' | head -n 1)" || true
  fi
  [[ -n "$id" ]] || die "could not find the id of job $2; see the output above."
  printf '%s' "$id"
}

# ---------------------------------------------------------------------------------------------
# The numbered launch scripts

launch_usage() {
  local n="$1"
  step_settings "$n"
  cat <<EOF
Usage: $(basename "$0") --project PROJECT [--source pubsub|kafka] [options] [-- INGESTION_FLAGS...]
       $(basename "$0") --local [run-local.sh flags...]

Tuning step $n: $STEP_TITLE.
Lesson: $STEP_LESSON

Provisions the infrastructure with Terraform, builds the bundled jars, starts the ingestion
pipeline and the generator (1M events/s, one uncompressed event per message) on Dataflow, and
prints the job ids and console links.

Ingestion settings of this step:
  ${STEP_ARGS[*]}

Options:
  --project ID               Google Cloud project (default: \$GOOGLE_CLOUD_PROJECT). Required.
  --region REGION            Dataflow region (default: us-central1).
  --prefix PREFIX            Name prefix of the Terraform resources and jobs (default: thriftbq).
  --source pubsub|kafka      Route of the events (default: pubsub). kafka: Terraform creates a
                             Managed Service for Apache Kafka cluster and topic (event_source =
                             kafka), the generator publishes to it (--sink=KAFKA) and the
                             ingestion job reads it (--source=KAFKA, the Terraform consumer
                             group), both authenticated as the worker service account.
  --max-workers N            Max workers of the ingestion job (default: 100).
  --generator-max-workers N  Max workers of the generator job (default: 40).
  --generator-rate N         Events per second of the generator (default: 1000000, the study's
                             rate; lower it only for a cheap smoke test).
  --generator-arg FLAG       Extra flag for the generator (repeatable), e.g. --generator-arg=--seed=7.
  --idl FILE                 Your Thrift IDL (local or gs://), read at launch by both jobs instead
                             of the sample's classes; the event table's schema is exported from it
                             for Terraform (terraform/schemas/generated/PREFIX/).
  --struct NAME              The struct of --idl each message holds (FILE.Name when ambiguous).
  --structs A,B,C            Several structs of --idl in one job, each to its own table
                             (events_<struct in snake_case>, one Terraform table per struct);
                             each message names its struct in the --struct-attribute attribute.
                             Name:WEIGHT sets the generator's share (Order:5,Refund:1); the
                             ingestion job gets the names only. With --union: narrows its members.
  --union NAME               A union of --idl that wraps every event type; each struct member
                             goes to its own table.
  --struct-attribute NAME    Attribute naming each message's struct with --structs (default of
                             the pipeline: thrift_struct).
  --table-for-struct S=T,... Another table for some structs (Order=proj:ds.orders); Terraform does
                             not create these (the pipeline does, --createTable=true).
  --idl-include DIRS         Comma-separated directories for the IDL's includes.
  --tfvars FILE              Extra Terraform variables file.
  --auto-approve             terraform apply without asking.
  --skip-terraform           Use the existing infrastructure (still reads its outputs).
  --skip-build               Use the existing bundled jars.
  --no-generator             Start only the ingestion pipeline.
  --dry-run                  Print every command (terraform, mvn, java, gcloud); call nothing.
  --local                    Run this step on the local stack: exec scripts/run-local.sh --step $n
                             with all other arguments passed through.
  -h, --help                 Show this help.
Unknown Beam-style flags (--someOption=value) and everything after -- go to the ingestion job.
EOF
}

# not_overridden ARGS...: the ARGS, one per line, without the flags that INGEST_EXTRA sets again
# (Beam refuses an option given twice), so that for example --formatToStore=PROTO_MESSAGE runs a
# step with another format, and --outputTable=... replaces the Terraform table.
not_overridden() {
  local arg extra overridden
  for arg in "$@"; do
    overridden=0
    for extra in "${INGEST_EXTRA[@]}"; do
      [[ "${extra%%=*}" == "${arg%%=*}" ]] && overridden=1
    done
    ((overridden)) || printf '%s\n' "$arg"
  done
}

# parse_launch_args "$@": sets the globals of a launch.
parse_launch_args() {
  PROJECT="${GOOGLE_CLOUD_PROJECT:-}"
  REGION="us-central1"
  PREFIX="thriftbq"
  MAX_WORKERS=100
  GENERATOR_MAX_WORKERS=40
  GENERATOR_RATE=1000000
  GENERATOR_EXTRA=()
  INGEST_EXTRA=()
  TFVARS=""
  AUTO_APPROVE=0
  SKIP_TERRAFORM=0
  SKIP_BUILD=0
  NO_GENERATOR=0
  SOURCE="pubsub"
  IDL=""
  STRUCT=""
  STRUCTS=""
  UNION=""
  STRUCT_ATTRIBUTE=""
  TABLE_FOR_STRUCT=""
  IDL_INCLUDE=""
  EVENT_SCHEMA_FILE=""
  EVENT_TABLES_TFVARS=""
  DEAD_LETTER_SCHEMA_FILE=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h | --help)
        launch_usage "$STEP"
        exit 0
        ;;
      --dry-run) DRY_RUN=1 ;;
      --auto-approve) AUTO_APPROVE=1 ;;
      --skip-terraform) SKIP_TERRAFORM=1 ;;
      --skip-build) SKIP_BUILD=1 ;;
      --no-generator) NO_GENERATOR=1 ;;
      --project=* | --region=* | --prefix=* | --max-workers=* | --generator-max-workers=* | \
        --generator-rate=* | --generator-arg=* | --tfvars=* | --idl=* | --struct=* | --idl-include=* | \
        --structs=* | --union=* | --struct-attribute=* | --table-for-struct=* | --source=*)
        set -- "${1%%=*}" "${1#*=}" "${@:2}"
        continue
        ;;
      --project | --region | --prefix | --max-workers | --generator-max-workers | \
        --generator-rate | --tfvars | --idl | --struct | --idl-include | \
        --structs | --union | --struct-attribute | --table-for-struct | --source)
        need_value "$@"
        case "$1" in
          --source) SOURCE="$2" ;;
          --idl) IDL="$2" ;;
          --struct) STRUCT="$2" ;;
          --structs) STRUCTS="$2" ;;
          --union) UNION="$2" ;;
          --struct-attribute) STRUCT_ATTRIBUTE="$2" ;;
          --table-for-struct) TABLE_FOR_STRUCT="${TABLE_FOR_STRUCT:+$TABLE_FOR_STRUCT,}$2" ;;
          --idl-include) IDL_INCLUDE="$2" ;;
          --project) PROJECT="$2" ;;
          --region) REGION="$2" ;;
          --prefix) PREFIX="$2" ;;
          --max-workers) MAX_WORKERS="$2" ;;
          --generator-max-workers) GENERATOR_MAX_WORKERS="$2" ;;
          --generator-rate) GENERATOR_RATE="$2" ;;
          --tfvars) TFVARS="$2" ;;
        esac
        shift
        ;;
      --generator-arg)
        [[ $# -ge 2 && -n "$2" ]] || usage_error "--generator-arg needs a value."
        GENERATOR_EXTRA+=("$2")
        shift
        ;;
      --)
        shift
        INGEST_EXTRA+=("$@")
        break
        ;;
      --*)
        local name="${1%%=*}"
        name="${name#--}"
        # Our own options are kebab-case; Beam's are camelCase. An unknown kebab-case option is
        # a typo, not something to hand to the pipeline.
        [[ "$name" == *-* || -z "$name" ]] && usage_error "unknown option '$1'."
        INGEST_EXTRA+=("$1")
        ;;
      *) usage_error "unexpected argument '$1'." ;;
    esac
    shift
  done
  validate_project "$PROJECT"
  validate_region "$REGION"
  validate_prefix "$PREFIX"
  validate_source
  validate_positive_int --max-workers "$MAX_WORKERS"
  validate_positive_int --generator-max-workers "$GENERATOR_MAX_WORKERS"
  validate_positive_int --generator-rate "$GENERATOR_RATE"
  if [[ -n "$TFVARS" ]]; then
    validate_file --tfvars "$TFVARS"
    TFVARS="$(cd "$(dirname "$TFVARS")" && pwd)/$(basename "$TFVARS")"
  fi
  validate_event_types
  if [[ -n "$IDL" && "$IDL" != gs://* ]]; then
    validate_file --idl "$IDL"
    IDL="$(cd "$(dirname "$IDL")" && pwd)/$(basename "$IDL")"
  fi
  return 0
}

# launch_step N "$@": what every numbered script does.
launch_step() {
  STEP="$1"
  shift
  step_settings "$STEP"

  # --local: hand the step to the local stack with every other argument.
  local arg local_mode=0 dry=0 rest=()
  for arg in "$@"; do
    case "$arg" in
      --local) local_mode=1 ;;
      --dry-run) dry=1 ;;
      -h | --help)
        launch_usage "$STEP"
        exit 0
        ;;
      *) rest+=("$arg") ;;
    esac
  done
  if ((local_mode)); then
    DRY_RUN=$dry
    log "Step $STEP on the local stack: $STEP_TITLE"
    if ((DRY_RUN)); then
      run "$RUN_LOCAL" --step "$STEP" "${rest[@]}"
      return 0
    fi
    [[ -x "$RUN_LOCAL" ]] || die "$RUN_LOCAL is missing or not executable."
    exec "$RUN_LOCAL" --step "$STEP" "${rest[@]}"
  fi

  parse_launch_args "$@"
  if ((!DRY_RUN)); then
    require_command terraform gcloud java
  fi
  if ((GENERATOR_RATE != 1000000)); then
    warn "--generator-rate=$GENERATOR_RATE differs from the study's 1000000 events/s."
  fi

  local ingest_job datagen_job
  ingest_job="$(ingest_job_name "$STEP")"
  datagen_job="$(datagen_job_name "$STEP")"
  log "Step $STEP: $STEP_TITLE"
  log "Lesson: $STEP_LESSON"
  log "Project $PROJECT, region $REGION, prefix $PREFIX; jobs $ingest_job and $datagen_job."
  if [[ "$SOURCE" == kafka ]]; then
    log "Events travel through Managed Service for Apache Kafka (--source kafka)."
  fi
  ((DRY_RUN)) && log "Dry run: the commands are printed on stdout and nothing is called."

  # 1. Jars (first: with --idl the table schema is exported with them).
  if ((SKIP_BUILD)); then
    log "Skipping the build (--skip-build)."
  else
    build_jars
  fi
  check_jars
  struct_args
  export_idl_schema

  # 2. Infrastructure.
  if ((SKIP_TERRAFORM)); then
    log "Skipping terraform apply (--skip-terraform)."
  else
    tf_apply
  fi

  # 3. One ingestion job per subscription or consumer group: two would split the events.
  find_active_jobs
  if [[ -n "$ACTIVE_JOBS" ]]; then
    die "jobs of prefix '$PREFIX' are still running:
${ACTIVE_JOBS}Drain them first: scripts/stop-pipelines.sh --project $PROJECT --region $REGION --prefix $PREFIX"
  fi

  # 4. Ingestion pipeline.
  dataflow_common_args "$ingest_job" "$MAX_WORKERS"
  table_args
  source_args
  local job_args=()
  mapfile -t job_args < <(not_overridden "${INGEST_SOURCE_ARGS[@]}" \
    "${INGEST_TABLE_ARGS[@]}" "${INGEST_STRUCT_ARGS[@]}" --thriftProtocol="$THRIFT_PROTOCOL" \
    "${STEP_ARGS[@]}")
  local ingest_cmd=(java -cp "$INGEST_JAR" "$INGEST_MAIN" "${DATAFLOW_ARGS[@]}"
    "${job_args[@]}" "${INGEST_EXTRA[@]}")
  local out ingest_id="" datagen_id=""
  run_capture out "${ingest_cmd[@]}" || die "the ingestion job did not start; see the output above."
  ((DRY_RUN)) || ingest_id="$(job_id_from_output "$out" "$ingest_job")"

  # 5. Generator.
  if ((NO_GENERATOR)); then
    log "Not starting the generator (--no-generator)."
  else
    generator_step_args
    dataflow_common_args "$datagen_job" "$GENERATOR_MAX_WORKERS"
    local datagen_cmd=(java -cp "$DATAGEN_JAR" "$DATAGEN_MAIN" "${DATAFLOW_ARGS[@]}"
      "${GENERATOR_SINK_ARGS[@]}"
      "${GENERATOR_ARGS[@]}" "${GENERATOR_EXTRA[@]}")
    run_capture out "${datagen_cmd[@]}" || die "the generator job did not start; see the output above (the ingestion job $ingest_id is running)."
    ((DRY_RUN)) || datagen_id="$(job_id_from_output "$out" "$datagen_job")"
  fi

  if ((DRY_RUN)); then
    log "Dry run finished; nothing was called."
    return 0
  fi
  if many_types; then
    printf '\nEach event type is written to its own table: %s\n' "$(tf_output event_table_spec_template)"
  fi
  printf '\nStep %s is running.\n' "$STEP"
  printf '  ingestion job %s: %s\n' "$ingest_id" "$(console_link "$ingest_id")"
  if [[ -n "$datagen_id" ]]; then
    printf '  generator job %s: %s\n' "$datagen_id" "$(console_link "$datagen_id")"
  fi
  printf 'Stop with: %s/stop-pipelines.sh --project %s --region %s --prefix %s\n' \
    "$SCRIPTS_DIR" "$PROJECT" "$REGION" "$PREFIX"
}
