#!/usr/bin/env bats
# stop-pipelines.sh drains and waits; the flex template scripts use the same settings.

load test_helper

@test "stop drains the generator first, then the ingestion job, and waits" {
  export STUB_GCLOUD_JOBS=$'id-i thriftbq-ingest-step4\nid-g thriftbq-datagen-step4\nid-o other-job\n'
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project
  assert_success
  run bash -c "grep -P '^gcloud\tdataflow\tjobs\t(drain|cancel)' '$STUB_LOG' | cut -f5"
  assert_output $'id-g\nid-i'
  [[ -n "$(grep -P '^gcloud\tdataflow\tjobs\tdescribe\tid-i' "$STUB_LOG")" ]]
  [[ -z "$(grep -P 'id-o' "$STUB_LOG" | grep -v $'\tlist\t' || true)" ]]
}

@test "stop --step only touches that step" {
  export STUB_GCLOUD_JOBS=$'id-4 thriftbq-ingest-step4\nid-5 thriftbq-ingest-step5\n'
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --step 5 --cancel
  assert_success
  run bash -c "grep -P '^gcloud\tdataflow\tjobs\tcancel' '$STUB_LOG' | cut -f5"
  assert_output id-5
}

@test "stop fails after the timeout when a job keeps running" {
  export STUB_GCLOUD_JOBS=$'id-i thriftbq-ingest-step1\n'
  export STUB_GCLOUD_STATE=JOB_STATE_DRAINING
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --timeout 1
  assert_failure
  assert_output --partial "did not stop within 1s"
}

@test "stop --cancel-on-timeout cancels a job that does not drain" {
  export STUB_GCLOUD_JOBS=$'id-i thriftbq-ingest-step1\n'
  export STUB_GCLOUD_STATE=JOB_STATE_DRAINING
  # The stub never reports a terminal state, so this also ends on the second timeout.
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --timeout 1 --cancel-on-timeout
  assert_failure
  grep -qP '^gcloud\tdataflow\tjobs\tcancel\tid-i' "$STUB_LOG"
}

@test "stop --destroy destroys the infrastructure after the jobs stopped" {
  export STUB_GCLOUD_JOBS=$'id-i thriftbq-ingest-step7\n'
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project --destroy --auto-approve
  assert_success
  run bash -c "grep -P '^terraform' '$STUB_LOG' | grep -P '\tdestroy\t'"
  assert_output --partial $'destroy\t-input=false\t-auto-approve\t-var=project_id=stub-project'
  last="$(tail -n 1 "$STUB_LOG")"
  [[ "$last" == terraform*destroy* ]]
}

@test "no active job: stop says so and succeeds" {
  run "$SCRIPTS/stop-pipelines.sh" --project stub-project
  assert_success
  assert_output --partial "No active job"
}

@test "flex-template-run uses the step settings and the common settings as gcloud flags" {
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 4
  assert_success
  run call_args gcloud 1
  assert_line thriftbq-ingest-step4
  assert_line --template-file-gcs-location=gs://stub-bucket/templates/ingestion.json
  assert_line --enable-streaming-engine
  assert_line --additional-pipeline-options=autoscalingAlgorithm=THROUGHPUT_BASED
  assert_line --worker-machine-type=n2d-standard-4
  assert_line --max-workers=100
  assert_line --disable-public-ips
  assert_line --service-account-email=stub-worker@stub-project.iam.gserviceaccount.com
  assert_line --regexp '^--parameters=subscription=projects/stub-project/subscriptions/stub-events-ingest,outputTable=stub-project:stub_ds.events,.*,bigQueryWriteMethod=STORAGE_WRITE_API,formatToStore=TABLE_ROW,storageWriteApiTriggeringFrequencySec=10,enableBigQueryAutoshard=true$'
  run call_args gcloud 2
  assert_line thriftbq-datagen-step4
  assert_line --regexp '^--parameters=outputTopic=projects/stub-project/topics/stub-events,.*generatorRatePerSec=1000000,maxRecordsPerBatch=1'
}

@test "flex-template-run switches gcloud's delimiter when a value has a comma" {
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 7 --pipeline ingestion --parameter clusteringFields=a,b
  assert_success
  run call_args gcloud 1
  assert_line --regexp '^--parameters=\^~\^subscription=.*~clusteringFields=a,b$'
}

@test "flex-template-run hands an IDL in a bucket to both templates, the image unchanged" {
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 8 \
    --idl gs://my-bucket/idl/events.thrift --struct Click
  assert_success
  run call_args gcloud 1
  assert_line --regexp '^--parameters=.*thriftIdl=gs://my-bucket/idl/events.thrift,thriftStruct=Click,.*formatToStore=PROTO_MESSAGE'
  refute_line --regexp 'thriftClassName='
  run call_args gcloud 2
  assert_line --regexp '^--parameters=.*thriftIdl=gs://my-bucket/idl/events.thrift,thriftStruct=Click'
  refute_line --regexp 'className='

  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 8 --idl /tmp/events.thrift --struct Click
  assert_failure 2
  assert_output --partial "--idl must be a gs:// path"
}

@test "flex-template-build builds and registers both templates" {
  run "$SCRIPTS/flex-template-build.sh" --project stub-project --tag v1 --skip-build
  assert_success
  run calls gcloud
  assert_line --index 0 --partial $'builds\tsubmit'
  assert_line --index 0 --partial $'--tag=us-central1-docker.pkg.dev/stub-project/stub-templates/ingestion-pipeline:v1'
  assert_line --index 1 --partial $'flex-template\tbuild\tgs://stub-bucket/templates/ingestion.json'
  assert_line --index 1 --partial 'ingestion-pipeline/src/main/flex-template/metadata.json'
  assert_line --index 3 --partial $'flex-template\tbuild\tgs://stub-bucket/templates/datagen.json'
}
