# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# What the Dataflow jobs get: the bundled jars, the flags naming the event types, the tables and the
# route of the events (from the Terraform outputs), the exported table schemas, the generator's
# flags, the job names, and the ONE place where the settings common to every Dataflow job are
# defined; and the active jobs of a prefix. Sourced by common.sh.

build_jars() {
  run_in "$REPO_ROOT" "$MVN" -B -q -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests
}

check_jars() {
  ((DRY_RUN)) && return 0
  [[ -f "$INGEST_JAR" ]] || die "$INGEST_JAR is missing: drop --skip-build or run ./mvnw -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests."
  [[ -f "$DATAGEN_JAR" ]] || die "$DATAGEN_JAR is missing: drop --skip-build or run ./mvnw -pl ingestion-pipeline,datagen-pipeline -am package -DskipTests."
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
        GENERATOR_STRUCT_ARGS+=(--thriftStructs="$(trim_list "$STRUCTS")")
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
