#!/usr/bin/env bats
# The nine numbered launch scripts: each launches its step with exactly the SPEC table settings
# (steps 1-7) or the project's own step 8.

load test_helper

INGEST_MAIN=io.thriftbq.ingest.IngestionPipeline
DATAGEN_MAIN=io.thriftbq.datagen.DatagenPipeline

# expected_step_flags N: the SPEC table row of step N, sorted; written out here on purpose, as an
# oracle independent of scripts/lib/tuning-steps.tsv (which the scripts read). Step 3: auto-sharding
# replaces the guessed key count of step 2, as in the study.
expected_step_flags() {
  case "$1" in
    1) printf '%s\n' --bigQueryWriteMethod=STREAMING_INSERTS --formatToStore=TABLE_ROW --numStreamingKeys=50 ;;
    2) printf '%s\n' --bigQueryWriteMethod=STREAMING_INSERTS --formatToStore=TABLE_ROW --numStreamingKeys=512 ;;
    3) printf '%s\n' --bigQueryWriteMethod=STREAMING_INSERTS --formatToStore=TABLE_ROW --enableBigQueryAutoshard=true ;;
    4) printf '%s\n' --bigQueryWriteMethod=STORAGE_WRITE_API --formatToStore=TABLE_ROW --storageWriteApiTriggeringFrequencySec=10 --enableBigQueryAutoshard=true ;;
    5) printf '%s\n' --bigQueryWriteMethod=STORAGE_WRITE_API --formatToStore=BEAM_ROW --storageWriteApiTriggeringFrequencySec=1 --enableBigQueryAutoshard=true ;;
    6) printf '%s\n' --bigQueryWriteMethod=STORAGE_WRITE_API --formatToStore=AVRO_GENERIC_RECORD --storageWriteApiTriggeringFrequencySec=1 --enableBigQueryAutoshard=true ;;
    7) printf '%s\n' --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=AVRO_GENERIC_RECORD --useStorageApiConnectionPool=true ;;
    8) printf '%s\n' --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=PROTO_MESSAGE --useStorageApiConnectionPool=true ;;
    9) printf '%s\n' --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=PROTO_MESSAGE --primaryKey=event_id --dataflowServiceOptions=streaming_mode_at_least_once ;;
  esac | sort
}

script_of() {
  local f
  f="$(ls "$SCRIPTS/$1"-*.sh)"
  [[ "$(wc -l <<<"$f")" == 1 ]] || return 1
  printf '%s' "$f"
}

launch() {
  run "$(script_of "$1")" --project stub-project --auto-approve "${@:2}"
}

assert_step() {
  local n="$1"
  launch "$n"
  assert_success
  diff <(java_call_for "$INGEST_MAIN" | step_flags) <(expected_step_flags "$n")
  # The generator never gets a step flag.
  [[ -z "$(java_call_for "$DATAGEN_MAIN" | step_flags)" ]]
  assert_output --partial "thriftbq-ingest-step$n"
  assert_output --partial "https://console.cloud.google.com/dataflow/jobs/us-central1/2026-01-01_00_00_00-thriftbq-ingest-step$n?project=stub-project"
  assert_output --partial "https://console.cloud.google.com/dataflow/jobs/us-central1/2026-01-01_00_00_00-thriftbq-datagen-step$n?project=stub-project"
}

@test "there are exactly nine numbered scripts, one per step" {
  run bash -c "ls '$SCRIPTS'/[0-9]-*.sh | wc -l"
  assert_output 9
  for n in 1 2 3 4 5 6 7 8 9; do script_of "$n" >/dev/null; done
}

@test "step 1 launches STREAMING_INSERTS/TABLE_ROW with the default 50 keys" { assert_step 1; }
@test "step 2 launches STREAMING_INSERTS/TABLE_ROW with 512 keys" { assert_step 2; }
@test "step 3 launches STREAMING_INSERTS/TABLE_ROW with auto-sharding" { assert_step 3; }
@test "step 4 launches STORAGE_WRITE_API/TABLE_ROW, 10 s, auto-sharding" { assert_step 4; }
@test "step 5 launches STORAGE_WRITE_API/BEAM_ROW, 1 s" { assert_step 5; }
@test "step 6 launches STORAGE_WRITE_API/AVRO_GENERIC_RECORD, 1 s" { assert_step 6; }
@test "step 7 launches STORAGE_API_AT_LEAST_ONCE/AVRO_GENERIC_RECORD with the connection pool" { assert_step 7; }
@test "step 8 launches STORAGE_API_AT_LEAST_ONCE/PROTO_MESSAGE with the connection pool" { assert_step 8; }
@test "step 9 launches STORAGE_API_AT_LEAST_ONCE/PROTO_MESSAGE with upserts by event_id, at-least-once mode" { assert_step 9; }

@test "an ingestion flag given to a step replaces the step's own (e.g. another format)" {
  launch 6 --formatToStore=PROTO_MESSAGE --keepUnknownFields=true
  assert_success
  args="$(java_call_for "$INGEST_MAIN")"
  [[ "$(grep -c -- '^--formatToStore=' <<<"$args")" == 1 ]] || fail "formatToStore given twice: $args"
  grep -qxF -- --formatToStore=PROTO_MESSAGE <<<"$args"
  grep -qxF -- --keepUnknownFields=true <<<"$args"
  # The step's other settings stay.
  grep -qxF -- --storageWriteApiTriggeringFrequencySec=1 <<<"$args"
  grep -qxF -- --bigQueryWriteMethod=STORAGE_WRITE_API <<<"$args"
}

@test "--idl reads the user's IDL in both jobs and creates the table with its schema" {
  idl="$(cd "$SCRIPTS/.." && pwd)/thrift-common/src/test/idl/byo_event.thrift"
  launch 8 --idl "$idl" --struct ByoEvent
  assert_success
  args="$(java_call_for "$INGEST_MAIN")"
  grep -qxF -- "--thriftIdl=$idl" <<<"$args"
  grep -qxF -- --thriftStruct=ByoEvent <<<"$args"
  ! grep -q -- '^--thriftClassName' <<<"$args" || fail "class and IDL both given: $args"
  gen="$(java_call_for "$DATAGEN_MAIN")"
  grep -qxF -- "--thriftIdl=$idl" <<<"$gen"
  ! grep -q -- '^--className' <<<"$gen" || fail "class and IDL both given: $gen"
  assert_output --partial "io.thriftbq.ingest.SchemaExporter --thriftIdl=$idl --thriftStruct=ByoEvent"
  grep -q -- "event_table_schema_file=.*/terraform/schemas/generated/thriftbq/event_table.json" "$STUB_LOG" ||
    fail "terraform did not get the IDL's schema: $(cat "$STUB_LOG")"

  launch 8 --struct ByoEvent
  assert_failure 2
  assert_output --partial "--struct and --idl-include need --idl"
  launch 8 --idl "$idl"
  assert_failure 2
  assert_output --partial "--idl needs --struct"
}

@test "both jobs get the common Dataflow settings from the Terraform outputs" {
  launch 4
  assert_success
  for main in "$INGEST_MAIN" "$DATAGEN_MAIN"; do
    args="$(java_call_for "$main")"
    for expected in --runner=DataflowRunner --project=stub-project --region=us-central1 \
      --streaming=true --enableStreamingEngine --autoscalingAlgorithm=THROUGHPUT_BASED \
      --workerMachineType=n2d-standard-4 --usePublicIps=false \
      --subnetwork=https://www.googleapis.com/compute/v1/projects/stub-project/regions/us-central1/subnetworks/stub-workers \
      --serviceAccount=stub-worker@stub-project.iam.gserviceaccount.com \
      --stagingLocation=gs://stub-bucket/staging --tempLocation=gs://stub-bucket/temp; do
      grep -qxF -- "$expected" <<<"$args" || fail "$main lacks $expected"
    done
  done
  java_call_for "$INGEST_MAIN" | grep -qxF -- --maxNumWorkers=100
  java_call_for "$DATAGEN_MAIN" | grep -qxF -- --maxNumWorkers=40
}

@test "the ingestion job reads the subscription and writes the Terraform tables" {
  launch 6
  args="$(java_call_for "$INGEST_MAIN")"
  grep -qxF -- --subscription=projects/stub-project/subscriptions/stub-events-ingest <<<"$args"
  grep -qxF -- --outputTable=stub-project:stub_ds.events <<<"$args"
  grep -qxF -- --deadLetterTable=stub-project:stub_ds.events_dead_letter <<<"$args"
  grep -qxF -- --jobName=thriftbq-ingest-step6 <<<"$args"
}

@test "the generator is the same in all steps: 1M events/s, one uncompressed event per message" {
  for n in 1 7; do
    : >"$STUB_LOG"
    launch "$n"
    assert_success
    args="$(java_call_for "$DATAGEN_MAIN")"
    for expected in --className=io.thriftbq.sample.Event --generatorRatePerSec=1000000 \
      --maxRecordsPerBatch=1 --maxEvents=0 --outputTopic=projects/stub-project/topics/stub-events \
      "--jobName=thriftbq-datagen-step$n"; do
      grep -qxF -- "$expected" <<<"$args" || fail "step $n generator lacks $expected"
    done
  done
}

@test "terraform init and apply run with the derived variables before the jobs start" {
  launch 2 --prefix my-demo --region europe-west4 --tfvars "$BATS_TEST_TMPDIR/extra.tfvars" || true
  assert_failure 2
  assert_output --partial "--tfvars file"
  touch "$BATS_TEST_TMPDIR/extra.tfvars"
  : >"$STUB_LOG"
  launch 2 --prefix my-demo --region europe-west4 --tfvars "$BATS_TEST_TMPDIR/extra.tfvars"
  assert_success
  run calls terraform
  assert_line --index 0 --partial $'init\t-input=false'
  assert_line --index 1 --partial $'apply\t-input=false\t-auto-approve\t-var=project_id=stub-project\t-var=region=europe-west4\t-var=name_prefix=my-demo\t-var-file='
  # terraform apply comes before the first java call.
  first_java="$(grep -nP '^java\t' "$STUB_LOG" | head -n 1 | cut -d: -f1)"
  apply="$(grep -nP '^terraform\t.*\tapply\t' "$STUB_LOG" | cut -d: -f1)"
  ((apply < first_java))
  java_call_for "$INGEST_MAIN" | grep -qxF -- --jobName=my-demo-ingest-step2
}

@test "the jars are built with Maven unless --skip-build" {
  launch 1
  run calls mvn
  assert_output --partial $'package\t-DskipTests'
  : >"$STUB_LOG"
  launch 1 --skip-build --skip-terraform
  assert_success
  [[ -z "$(calls mvn)" ]]
  [[ -z "$(grep -P '^terraform\t.*\t(init|apply)\t' "$STUB_LOG" || true)" ]]
}

@test "extra Beam flags and everything after -- pass through to the ingestion job" {
  launch 5 --numWorkers=5 -- --includePublishTime=true
  assert_success
  args="$(java_call_for "$INGEST_MAIN")"
  grep -qxF -- --numWorkers=5 <<<"$args"
  grep -qxF -- --includePublishTime=true <<<"$args"
  ! grep -qxF -- --numWorkers=5 <<<"$(java_call_for "$DATAGEN_MAIN")"
}

@test "--generator-arg passes a flag to the generator only" {
  launch 3 --generator-arg=--seed=7
  assert_success
  java_call_for "$DATAGEN_MAIN" | grep -qxF -- --seed=7
  ! java_call_for "$INGEST_MAIN" | grep -qxF -- --seed=7
}

@test "--no-generator starts only the ingestion job" {
  launch 7 --no-generator
  assert_success
  [[ "$(calls java | wc -l)" == 1 ]]
}

@test "a running job of the prefix stops the launch before any job starts" {
  export STUB_GCLOUD_JOBS=$'2026-01-01_old thriftbq-ingest-step3\n'
  launch 4
  assert_failure
  assert_output --partial "still running"
  assert_output --partial "stop-pipelines.sh"
  [[ -z "$(calls java)" ]]
}

@test "jobs of another prefix do not block the launch" {
  export STUB_GCLOUD_JOBS=$'2026-01-01_x other-ingest-step3\n2026-01-01_y unrelated-job\n'
  launch 4
  assert_success
}

@test "a failing java launch fails the script with a clear message" {
  export STUB_JAVA_FAIL=1
  launch 1
  assert_failure
  assert_output --partial "the ingestion job did not start"
}

@test "change mode: Terraform creates the table with the job's primary key and max_staleness" {
  launch 9 --maxStaleness=PT15M
  assert_success
  exporter="$(java_call_for io.thriftbq.ingest.SchemaExporter)"
  grep -qxF -- --thriftClassName=io.thriftbq.sample.Event <<<"$exporter"
  grep -qxF -- --primaryKey=event_id <<<"$exporter"
  grep -qxF -- --maxStaleness=PT15M <<<"$exporter"
  grep -q -- "^--terraformVarsOutput=.*/terraform/schemas/generated/thriftbq/event_table.tfvars.json$" <<<"$exporter" ||
    fail "no Terraform variables file: $exporter"
  apply="$(calls terraform | grep -P '\tapply\t' | tr '\t' '\n')"
  grep -q -- "^-var-file=.*/terraform/schemas/generated/thriftbq/event_table.tfvars.json$" <<<"$apply" ||
    fail "terraform apply did not get the key's variables: $apply"
  grep -q -- "^-var=event_table_schema_file=.*/generated/thriftbq/event_table.json$" <<<"$apply"

  # A key given at launch replaces the step's, in the job and in the table alike.
  : >"$STUB_LOG"
  launch 9 --primaryKey=event_type,event_id
  assert_success
  exporter="$(java_call_for io.thriftbq.ingest.SchemaExporter)"
  grep -qxF -- --primaryKey=event_type,event_id <<<"$exporter"
  ! grep -qxF -- --primaryKey=event_id <<<"$exporter" || fail "step key given too: $exporter"

  # Append-only steps export nothing and apply with the checked-in schema, as before.
  : >"$STUB_LOG"
  launch 8
  assert_success
  [[ -z "$(java_call_for io.thriftbq.ingest.SchemaExporter)" ]]
  ! grep -q "tfvars" "$STUB_LOG" || fail "step 8 got a change-mode variables file: $(cat "$STUB_LOG")"
}
