#!/usr/bin/env bats
# Several event types in one job (--structs, --union): the schemas of every struct exported for
# Terraform, one table per struct, the flags of both jobs, and the inputs that are refused.

load test_helper

INGEST_MAIN=io.thriftbq.ingest.IngestionPipeline
DATAGEN_MAIN=io.thriftbq.datagen.DatagenPipeline
EXPORTER=io.thriftbq.ingest.SchemaExporter

setup_file() {
  export REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  export IDL="$REPO/thrift-common/src/main/idl/shop_events.thrift"
  export TF="$REPO/terraform"
  export GEN="$REPO/terraform/schemas/generated/thriftbq"
}

launch() {
  run "$SCRIPTS/$1"-*.sh --project stub-project --auto-approve "${@:2}"
}

# tfo NAME: what a dry run prints for a Terraform output.
tfo() {
  printf '$(terraform -chdir=%s output -raw %s)' "$TF" "$1"
}

@test "the dry run of a many-types launch prints the exact commands and calls nothing" {
  run "$SCRIPTS/8-storage-write-at-least-once-proto.sh" --project stub-project --dry-run \
    --idl "$IDL" --structs Order:5,Refund:1,Click:94 --struct-attribute event_type \
    --table-for-struct Refund=stub-project:finance.refunds
  assert_success
  assert_line "java -cp $THRIFTBQ_INGEST_JAR $EXPORTER --thriftIdl=$IDL --thriftStructs=Order,Refund,Click --structAttribute=event_type '--output=$GEN/structs/{struct}.json' --deadLetterOutput=$GEN/dead_letter_table.json --terraformVarsOutput=$GEN/event_tables.tfvars.json --terraformDir=$TF"
  assert_line "terraform -chdir=$TF apply -input=false -var=project_id=stub-project -var=region=us-central1 -var=name_prefix=thriftbq -var-file=$GEN/event_tables.tfvars.json -var=dead_letter_table_schema_file=$GEN/dead_letter_table.json -var=event_source=pubsub"
  common="--runner=DataflowRunner --project=stub-project --region=us-central1 --streaming=true --enableStreamingEngine --autoscalingAlgorithm=THROUGHPUT_BASED --workerMachineType=n2d-standard-4"
  infra="--usePublicIps=false \"--subnetwork=$(tfo subnetwork_self_link)\" \"--serviceAccount=$(tfo worker_service_account_email)\" \"--stagingLocation=$(tfo staging_location)\" \"--tempLocation=$(tfo temp_location)\" \"--gcpTempLocation=$(tfo temp_location)\""
  assert_line "java -cp $THRIFTBQ_INGEST_JAR $INGEST_MAIN ${common/--streaming/--jobName=thriftbq-ingest-step8 --streaming} --maxNumWorkers=100 $infra \"--subscription=$(tfo subscription_id)\" \"--outputTable=$(tfo event_table_spec_template)\" \"--deadLetterTable=$(tfo dead_letter_table_spec)\" --tableForStruct=Refund=stub-project:finance.refunds --thriftIdl=$IDL --thriftStructs=Order,Refund,Click --structAttribute=event_type --thriftProtocol=BINARY --bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE --formatToStore=PROTO_MESSAGE --useStorageApiConnectionPool=true"
  assert_line "java -cp $THRIFTBQ_DATAGEN_JAR $DATAGEN_MAIN ${common/--streaming/--jobName=thriftbq-datagen-step8 --streaming} --maxNumWorkers=40 $infra \"--outputTopic=$(tfo topic_id)\" --thriftIdl=$IDL --thriftStructs=Order:5,Refund:1,Click:94 --structAttribute=event_type --thriftProtocol=BINARY --generatorRatePerSec=1000000 --maxRecordsPerBatch=1 --maxEvents=0"
  refute_output --partial -- "--thriftStruct="
  refute_output --partial "event_table_schema_file"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "--structs: one table per struct from Terraform, each struct to events_{struct}" {
  launch 7 --idl "$IDL" --structs Order,Refund,Click
  assert_success
  assert_output --partial "Each event type is written to its own table: stub-project:stub_ds.events_{struct}"
  run java_call_for "$EXPORTER"
  assert_line "--thriftStructs=Order,Refund,Click"
  assert_line "--output=$GEN/structs/{struct}.json"
  assert_line "--terraformVarsOutput=$GEN/event_tables.tfvars.json"
  assert_line "--deadLetterOutput=$GEN/dead_letter_table.json"
  run calls terraform
  assert_line --partial $'\t-var-file='"$GEN/event_tables.tfvars.json"
  assert_line --partial $'\t-var=dead_letter_table_schema_file='"$GEN/dead_letter_table.json"
  # The schemas are exported before terraform apply reads them.
  exporter="$(grep -nP "^java\t.*\t$EXPORTER\t" "$STUB_LOG" | cut -d: -f1)"
  apply="$(grep -nP '^terraform\t.*\tapply\t' "$STUB_LOG" | cut -d: -f1)"
  ((exporter < apply))

  args="$(java_call_for "$INGEST_MAIN")"
  grep -qxF -- "--outputTable=stub-project:stub_ds.events_{struct}" <<<"$args"
  grep -qxF -- --deadLetterTable=stub-project:stub_ds.events_dead_letter <<<"$args"
  grep -qxF -- "--thriftIdl=$IDL" <<<"$args"
  grep -qxF -- --thriftStructs=Order,Refund,Click <<<"$args"
  ! grep -qE -- '^--(thriftStruct|thriftClassName|thriftUnion|structAttribute|tableForStruct)=' <<<"$args" ||
    fail "unexpected event-type flag: $args"
  gen="$(java_call_for "$DATAGEN_MAIN")"
  grep -qxF -- --thriftStructs=Order,Refund,Click <<<"$gen"
  ! grep -qE -- '^--(className|outputTable|tableForStruct)=' <<<"$gen" || fail "generator: $gen"
}

@test "--union: both jobs read the union; --structs narrows it; the attribute is not used" {
  launch 6 --idl "$IDL" --union AnyEvent
  assert_success
  for main in "$INGEST_MAIN" "$DATAGEN_MAIN" "$EXPORTER"; do
    args="$(java_call_for "$main")"
    grep -qxF -- --thriftUnion=AnyEvent <<<"$args" || fail "$main lacks --thriftUnion: $args"
    ! grep -qE -- '^--(thriftStructs|thriftStruct|structAttribute)=' <<<"$args" || fail "$main: $args"
  done
  java_call_for "$INGEST_MAIN" | grep -qxF -- "--outputTable=stub-project:stub_ds.events_{struct}"

  : >"$STUB_LOG"
  launch 6 --idl "$IDL" --union AnyEvent --structs Order:9,Click:1
  assert_success
  java_call_for "$INGEST_MAIN" | grep -qxF -- --thriftStructs=Order,Click
  java_call_for "$EXPORTER" | grep -qxF -- --thriftStructs=Order,Click
  java_call_for "$DATAGEN_MAIN" | grep -qxF -- --thriftStructs=Order:9,Click:1
}

@test "a many-types launch passes --tableForStruct, and an --outputTable flag replaces the default" {
  launch 4 --idl "$IDL" --structs Order,Refund --table-for-struct Order=p-roject:ds.orders \
    --table-for-struct=Refund=ds.refunds --outputTable=stub-project:other.shop_{struct}
  assert_success
  args="$(java_call_for "$INGEST_MAIN")"
  grep -qxF -- --tableForStruct=Order=p-roject:ds.orders,Refund=ds.refunds <<<"$args"
  [[ "$(grep -c -- '^--outputTable=' <<<"$args")" == 1 ]] || fail "outputTable given twice: $args"
  grep -qxF -- "--outputTable=stub-project:other.shop_{struct}" <<<"$args"
  ! java_call_for "$DATAGEN_MAIN" | grep -q -- '^--tableForStruct' || fail "generator got --tableForStruct"
}

@test "--struct-attribute reaches both jobs (the generator sets it, the pipeline routes on it)" {
  launch 1 --idl "$IDL" --structs=Order,Refund --struct-attribute=event_type --no-generator
  assert_success
  java_call_for "$INGEST_MAIN" | grep -qxF -- --structAttribute=event_type
  : >"$STUB_LOG"
  launch 1 --idl "$IDL" --structs=Order,Refund --struct-attribute=event_type
  java_call_for "$DATAGEN_MAIN" | grep -qxF -- --structAttribute=event_type
}

@test "the metadata columns asked of the job are in the exported schemas" {
  launch 8 --idl "$IDL" --structs Order,Click -- --includePublishTime=true --includeAttributes=true
  assert_success
  run java_call_for "$EXPORTER"
  assert_line --includePublishTime=true
  assert_line --includeAttributes=true
}

@test "bad many-types inputs fail with a clear message and call nothing" {
  s="$SCRIPTS/3-streaming-inserts-autosharding.sh"
  run "$s" --project stub-project --structs Order,Refund
  assert_failure 2
  assert_output --partial "ERROR: --structs and --union name structs of a Thrift IDL: add --idl FILE"
  run "$s" --project stub-project --union AnyEvent
  assert_failure 2
  assert_output --partial "add --idl FILE"
  run "$s" --project stub-project --idl "$IDL" --struct Order --structs Order,Refund
  assert_failure 2
  assert_output --partial "give --struct for one struct, or --structs/--union for several, not both"
  run "$s" --project stub-project --idl "$IDL"
  assert_failure 2
  assert_output --partial "--idl needs --struct"
  assert_output --partial "--structs A,B,C"
  run "$s" --project stub-project --idl "$IDL" --structs "Order;Refund"
  assert_failure 2
  assert_output --partial "--structs must list struct names separated by commas"
  run "$s" --project stub-project --idl "$IDL" --structs Order,,Refund
  assert_failure 2
  assert_output --partial "--structs must list struct names"
  run "$s" --project stub-project --idl "$IDL" --structs Order:x
  assert_failure 2
  assert_output --partial "Name:WEIGHT"
  run "$s" --project stub-project --idl "$IDL" --union "Any Event"
  assert_failure 2
  assert_output --partial "--union must name one union"
  run "$s" --project stub-project --idl "$IDL" --union AnyEvent --struct-attribute kind
  assert_failure 2
  assert_output --partial "--struct-attribute names the message attribute"
  run "$s" --project stub-project --idl "$IDL" --struct Order --struct-attribute kind
  assert_failure 2
  assert_output --partial "it needs --structs"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --struct-attribute googkind
  assert_failure 2
  assert_output --partial "is not a usable Pub/Sub attribute name"
  run "$s" --project stub-project --idl "$IDL" --struct Order --table-for-struct Order=p:d.t
  assert_failure 2
  assert_output --partial "--table-for-struct sends structs of a many-types job to their own tables: it needs --structs or --union"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --table-for-struct Order
  assert_failure 2
  assert_output --partial "entries must be Struct=PROJECT:DATASET.TABLE"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --table-for-struct Click=ds.clicks
  assert_failure 2
  assert_output --partial "names Click, which is not one of --structs Order,Refund"
  run "$s" --project stub-project --idl "$IDL" --structs
  assert_failure 2
  assert_output --partial "--structs needs a value"
  run "$s" --project stub-project --idl "$BATS_TEST_TMPDIR/missing.thrift" --structs Order,Refund
  assert_failure 2
  assert_output --partial "--idl file"
  [[ ! -s "$STUB_LOG" ]] || fail "called: $(cat "$STUB_LOG")"
}

@test "flex-template-run: several types to events_{struct}, gcloud's other delimiter for the commas" {
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 8 \
    --idl gs://my-bucket/idl/shop_events.thrift --structs Order:5,Refund:1 --struct-attribute event_type \
    --table-for-struct Refund=stub-project:finance.refunds
  assert_success
  run call_args gcloud 1
  assert_line thriftbq-ingest-step8
  assert_line '--parameters=^~^subscription=projects/stub-project/subscriptions/stub-events-ingest~outputTable=stub-project:stub_ds.events_{struct}~deadLetterTable=stub-project:stub_ds.events_dead_letter~tableForStruct=Refund=stub-project:finance.refunds~thriftIdl=gs://my-bucket/idl/shop_events.thrift~thriftStructs=Order,Refund~structAttribute=event_type~thriftProtocol=BINARY~bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE~formatToStore=PROTO_MESSAGE~useStorageApiConnectionPool=true'
  run call_args gcloud 2
  assert_line --regexp '^--parameters=\^~\^outputTopic=.*~thriftIdl=gs://my-bucket/idl/shop_events.thrift~thriftStructs=Order:5,Refund:1~structAttribute=event_type~'
  refute_line --regexp 'tableForStruct'

  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 8 --union AnyEvent
  assert_failure 2
  assert_output --partial "add --idl FILE"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 8 --idl /tmp/shop.thrift --union AnyEvent
  assert_failure 2
  assert_output --partial "--idl must be a gs:// path"
}

@test "export-schema.sh --structs writes one schema per struct and the Terraform map" {
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$IDL" --structs Order,Refund,Click --include-metadata
  assert_success
  assert_line "java -cp $THRIFTBQ_INGEST_JAR $EXPORTER --thriftIdl=$IDL --thriftStructs=Order,Refund,Click --includePubsubMessageId=true --includePublishTime=true --includeAttributes=true '--output=$TF/schemas/{struct}.json' --deadLetterOutput=$TF/schemas/dead_letter_table.json --terraformVarsOutput=$TF/schemas/event_tables.tfvars.json --terraformDir=$TF"
  assert_output --partial "apply -var-file=$TF/schemas/event_tables.tfvars.json"

  # Change mode: the exporter checks each struct's key and writes it into the map's entries.
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$IDL" --structs Order,Refund \
    --primary-key 'Order=order_id;Refund=refund_id' --max-staleness PT1H
  assert_success
  assert_output --partial "--terraformVarsOutput=$TF/schemas/event_tables.tfvars.json --terraformDir=$TF '--primaryKey=Order=order_id;Refund=refund_id' --maxStaleness=PT1H"
  refute_output --partial "event_table.tfvars.json"

  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$IDL" --union AnyEvent --output-dir "$BATS_TEST_TMPDIR"
  assert_success
  assert_output --partial "--thriftUnion=AnyEvent '--output=$BATS_TEST_TMPDIR/{struct}.json'"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"

  run "$SCRIPTS/export-schema.sh" --dry-run --structs Order,Refund
  assert_failure 2
  assert_output --partial "add --idl FILE"
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$IDL" --structs Order,Refund --proto-message OrderRow
  assert_failure 2
  assert_output --partial "--proto-message writes the message of one struct"
  run "$SCRIPTS/export-schema.sh" --dry-run --idl "$IDL" --structs Order --thrift-class a.B
  assert_failure 2
  assert_output --partial "not both"
}

@test "--help of the launch scripts, flex-template-run and export-schema lists the many-types flags" {
  for s in 5-storage-write-exactly-once-beamrow.sh flex-template-run.sh; do
    run "$SCRIPTS/$s" --help
    assert_success
    for flag in --structs --union --struct-attribute --table-for-struct; do
      assert_output --partial "  $flag "
    done
  done
  run "$SCRIPTS/export-schema.sh" --help
  assert_output --partial "  --structs A,B,C"
  assert_output --partial "  --union NAME"
}
