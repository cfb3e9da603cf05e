# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# The numbered launch scripts (launch_step) and the launch flags they share with
# flex-template-run.sh. Sourced by common.sh.

# launch_usage [N]: the help of step N (default: $STEP).
launch_usage() {
  local n="${1:-$STEP}"
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

# launch_flags: the flags of a launch that the numbered scripts and flex-template-run.sh share, in
# FLAG_SPEC, with their defaults.
launch_flags() {
  FLAG_SPEC+=(
    [--project]=PROJECT [--region]=REGION [--prefix]=PREFIX [--source]=SOURCE
    [--max-workers]=MAX_WORKERS [--generator-max-workers]=GENERATOR_MAX_WORKERS
    [--generator-rate]=GENERATOR_RATE
    [--idl]=IDL [--struct]=STRUCT [--structs]=STRUCTS [--union]=UNION
    [--struct-attribute]=STRUCT_ATTRIBUTE [--table-for-struct]='TABLE_FOR_STRUCT,'
    [--idl-include]=IDL_INCLUDE
  )
  PROJECT="${GOOGLE_CLOUD_PROJECT:-}"
  REGION="us-central1"
  PREFIX="thriftbq"
  SOURCE="pubsub"
  MAX_WORKERS=100
  GENERATOR_MAX_WORKERS=40
  GENERATOR_RATE=1000000
  IDL=""
  STRUCT=""
  STRUCTS=""
  UNION=""
  STRUCT_ATTRIBUTE=""
  TABLE_FOR_STRUCT=""
  IDL_INCLUDE=""
}

# validate_launch_flags: the checks of the flags of launch_flags (the IDL file itself is the
# caller's: a local file or gs:// for a launch from the jars, gs:// for the flex templates).
validate_launch_flags() {
  validate_project "$PROJECT"
  validate_region "$REGION"
  validate_prefix "$PREFIX"
  validate_source
  validate_positive_int --max-workers "$MAX_WORKERS"
  validate_positive_int --generator-max-workers "$GENERATOR_MAX_WORKERS"
  validate_positive_int --generator-rate "$GENERATOR_RATE"
  validate_event_types
}

# ingestion_flag ARG: an argument the launch does not know. Our own options are kebab-case, Beam's
# camelCase: a camelCase flag goes to the ingestion job, an unknown kebab-case one is a typo.
ingestion_flag() {
  [[ "$1" == --* ]] || usage_error "unexpected argument '$1'."
  local name="${1%%=*}"
  name="${name#--}"
  [[ "$name" == *-* || -z "$name" ]] && usage_error "unknown option '$1'."
  INGEST_EXTRA+=("$1")
}

# parse_launch_args "$@": sets the globals of a launch.
parse_launch_args() {
  launch_flags
  FLAG_SPEC+=(
    [--tfvars]=TFVARS [--generator-arg]='GENERATOR_EXTRA[--]'
    [--auto-approve]==AUTO_APPROVE [--skip-terraform]==SKIP_TERRAFORM
    [--skip-build]==SKIP_BUILD [--no-generator]==NO_GENERATOR
  )
  GENERATOR_EXTRA=()
  INGEST_EXTRA=()
  TFVARS=""
  AUTO_APPROVE=0
  SKIP_TERRAFORM=0
  SKIP_BUILD=0
  NO_GENERATOR=0
  EVENT_SCHEMA_FILE=""
  EVENT_TABLES_TFVARS=""
  DEAD_LETTER_SCHEMA_FILE=""
  FLAG_USAGE=launch_usage
  FLAG_OTHER=ingestion_flag
  FLAG_REST=INGEST_EXTRA
  parse_flags "$@"
  validate_launch_flags
  if [[ -n "$TFVARS" ]]; then
    validate_file --tfvars "$TFVARS"
    TFVARS="$(cd "$(dirname "$TFVARS")" && pwd)/$(basename "$TFVARS")"
  fi
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
