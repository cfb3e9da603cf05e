#!/usr/bin/env bats
# --dry-run calls nothing; missing or bad inputs fail with a clear message; --help; --local.

load test_helper

ALL_SCRIPTS=(
  1-streaming-inserts-tablerow.sh 2-streaming-inserts-512-keys.sh 3-streaming-inserts-autosharding.sh
  4-storage-write-exactly-once-tablerow.sh 5-storage-write-exactly-once-beamrow.sh
  6-storage-write-exactly-once-avro.sh 7-storage-write-at-least-once-avro.sh
  8-storage-write-at-least-once-proto.sh
  stop-pipelines.sh flex-template-build.sh flex-template-run.sh export-schema.sh
)

@test "every script has --help, set -euo pipefail and is executable" {
  for s in "${ALL_SCRIPTS[@]}"; do
    [[ -x "$SCRIPTS/$s" ]] || fail "$s is not executable"
    grep -qx 'set -euo pipefail' "$SCRIPTS/$s" || fail "$s lacks set -euo pipefail"
    run "$SCRIPTS/$s" --help
    assert_success
    assert_output --partial "Usage:"
  done
  [[ ! -s "$STUB_LOG" ]]
}

@test "the dry run of every numbered script prints the exact commands and calls nothing" {
  for n in 1 2 3 4 5 6 7 8 9; do
    run "$SCRIPTS/$n"-*.sh --project stub-project --dry-run
    assert_success
    assert_line --partial "terraform -chdir=$(cd "$SCRIPTS/.." && pwd)/terraform apply -input=false -var=project_id=stub-project"
    assert_line --partial "java -cp $THRIFTBQ_INGEST_JAR io.thriftbq.ingest.IngestionPipeline --runner=DataflowRunner"
    assert_line --partial "java -cp $THRIFTBQ_DATAGEN_JAR io.thriftbq.datagen.DatagenPipeline --runner=DataflowRunner"
    assert_line --partial "package -DskipTests"
    assert_output --partial '"--subscription=$(terraform -chdir='
  done
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "the dry run shows the step's settings" {
  run "$SCRIPTS/4-storage-write-exactly-once-tablerow.sh" --project stub-project --dry-run
  assert_output --regexp "IngestionPipeline .* --bigQueryWriteMethod=STORAGE_WRITE_API --formatToStore=TABLE_ROW --storageWriteApiTriggeringFrequencySec=10 --enableBigQueryAutoshard=true"
}

@test "the dry runs of the other scripts call nothing" {
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --dry-run --destroy
  assert_success
  assert_output --partial "gcloud dataflow jobs drain"
  assert_output --partial "destroy -input=false"
  run "$SCRIPTS/flex-template-build.sh" --project stub-project --dry-run --tag t1
  assert_success
  assert_output --partial "gcloud builds submit"
  assert_output --partial "gcloud dataflow flex-template build"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --dry-run --step 6
  assert_success
  assert_output --partial "gcloud dataflow flex-template run thriftbq-ingest-step6"
  run "$SCRIPTS/export-schema.sh" --dry-run
  assert_success
  assert_output --partial "io.thriftbq.ingest.SchemaExporter"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "export-schema.sh --proto-message writes the table's .proto and says how to compile it" {
  run "$SCRIPTS/export-schema.sh" --dry-run --include-metadata --proto-message EventRowWithMetadata \
    --proto-java-package com.example.rows --proto-dir "$BATS_TEST_TMPDIR"
  assert_success
  assert_output --partial "--protoOutput=$BATS_TEST_TMPDIR/event_row_with_metadata.proto"
  assert_output --partial "--protoMessageName=EventRowWithMetadata"
  assert_output --partial "--protoJavaPackage=com.example.rows"
  assert_output --partial "--includeAttributes=true"
  assert_output --partial "protoc --proto_path=$BATS_TEST_TMPDIR --java_out="
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"

  run "$SCRIPTS/export-schema.sh" --dry-run --proto-message eventRow
  assert_failure 2
  assert_output --partial "must be a CamelCase name"
  run "$SCRIPTS/export-schema.sh" --dry-run --proto-java-package com.example
  assert_failure 2
  assert_output --partial "--proto-java-package needs --proto-message"
}

@test "export-schema.sh change mode: the key and staleness go to the exporter and to Terraform's variables" {
  local tf
  tf="$(cd "$SCRIPTS/../terraform" && pwd)"
  run "$SCRIPTS/export-schema.sh" --dry-run --primary-key event_id --max-staleness=PT15M
  assert_success
  assert_output --partial "--output=$tf/schemas/event_table.json --deadLetterOutput=$tf/schemas/dead_letter_table.json --terraformVarsOutput=$tf/schemas/event_table.tfvars.json --terraformDir=$tf --primaryKey=event_id --maxStaleness=PT15M"
  assert_output --partial "apply -var-file=$tf/schemas/event_table.tfvars.json"
  assert_output --partial "the launch refuses a table whose key differs"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"

  # The job's own flags after --, as the launch gives them, do the same.
  run "$SCRIPTS/export-schema.sh" --dry-run -- --primaryKey=event_id --changeSequence=field:event_time_ms
  assert_success
  assert_output --partial "--terraformVarsOutput=$tf/schemas/event_table.tfvars.json --terraformDir=$tf --primaryKey=event_id --changeSequence=field:event_time_ms"

  # Without change mode nothing changes: no variables file for the single table.
  run "$SCRIPTS/export-schema.sh" --dry-run
  assert_success
  refute_output --partial "--terraformVarsOutput"
  refute_output --partial "primary key"

  run "$SCRIPTS/export-schema.sh" --dry-run --primary-key
  assert_failure 2
}

@test "export-schema.sh --idl reads the user's IDL at launch; --idl and --thrift-class exclude each other" {
  idl="$(cd "$SCRIPTS/.." && pwd)/thrift-common/src/test/idl/byo_event.thrift"
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$idl" --struct ByoEvent --keep-unknown-fields
  assert_success
  assert_output --partial "--thriftIdl=$idl"
  assert_output --partial "--thriftStruct=ByoEvent"
  assert_output --partial "--keepUnknownFields=true"
  refute_output --partial "--thriftClassName"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"

  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$idl"
  assert_failure 2
  assert_output --partial "--idl needs --struct"
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$idl" --struct ByoEvent --thrift-class a.B
  assert_failure 2
  assert_output --partial "not both"
  run "$SCRIPTS/export-schema.sh" --dry-run --struct ByoEvent
  assert_failure 2
  assert_output --partial "need --idl"
}

@test "a missing project fails with a clear message and calls nothing" {
  for s in 1-streaming-inserts-tablerow.sh stop-pipelines.sh flex-template-build.sh flex-template-run.sh; do
    run "$SCRIPTS/$s"
    assert_failure 2
    assert_output --partial "--project is required"
  done
  run "$SCRIPTS/7-storage-write-at-least-once-avro.sh"
  assert_failure 2
  assert_output --partial "ERROR: --project is required (or set GOOGLE_CLOUD_PROJECT)."
  [[ ! -s "$STUB_LOG" ]]
}

@test "GOOGLE_CLOUD_PROJECT supplies the project" {
  GOOGLE_CLOUD_PROJECT=env-project run "$SCRIPTS/1-streaming-inserts-tablerow.sh" --dry-run
  assert_success
  assert_output --partial "--project=env-project"
}

@test "bad inputs fail with a clear message" {
  s="$SCRIPTS/2-streaming-inserts-512-keys.sh"
  run "$s" --project Bad_Project
  assert_failure 2
  assert_output --partial "is not a valid project id"
  run "$s" --project stub-project --region nowhere
  assert_failure 2
  assert_output --partial "is not a region"
  run "$s" --project stub-project --prefix Bad_Prefix
  assert_failure 2
  assert_output --partial "--prefix 'Bad_Prefix'"
  run "$s" --project stub-project --max-workers 0
  assert_failure 2
  assert_output --partial "--max-workers must be a positive integer"
  run "$s" --project stub-project --region
  assert_failure 2
  assert_output --partial "--region needs a value"
  run "$s" --project stub-project --max-wrokers=3
  assert_failure 2
  assert_output --partial "unknown option '--max-wrokers=3'"
  run "$s" --project stub-project stray
  assert_failure 2
  assert_output --partial "unexpected argument 'stray'"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 99
  assert_failure 2
  assert_output --partial "--step must be one of 1 2 3 4 5 6 7 8 9, got '99'"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project
  assert_failure 2
  assert_output --partial "--step is required"
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --step 2 --destroy
  assert_failure 2
  assert_output --partial "drop --step"
  [[ ! -s "$STUB_LOG" ]]
}

@test "--local hands the step and the other flags to run-local.sh" {
  run "$SCRIPTS/5-storage-write-exactly-once-beamrow.sh" --local --events 1000 --rate 200
  assert_success
  run call_args run-local.sh 1
  assert_output $'--step\n5\n--events\n1000\n--rate\n200'
  [[ -z "$(calls java)$(calls gcloud)$(calls terraform)" ]]
}

@test "--local --dry-run prints the run-local.sh command only" {
  run "$SCRIPTS/3-streaming-inserts-autosharding.sh" --local --dry-run --keep
  assert_success
  assert_line "$THRIFTBQ_RUN_LOCAL --step 3 --keep"
  [[ ! -s "$STUB_LOG" ]]
}

@test "the scripts work when called through a relative path from another directory" {
  mkdir -p "$BATS_TEST_TMPDIR/elsewhere"
  cd "$BATS_TEST_TMPDIR/elsewhere"
  rel="$(realpath --relative-to=. "$SCRIPTS/1-streaming-inserts-tablerow.sh")"
  run "$rel" --project stub-project --dry-run
  assert_success
}
