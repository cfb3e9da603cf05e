#!/usr/bin/env bats
# --source kafka: every step runs through Managed Service for Apache Kafka. Terraform applies
# event_source = kafka; the ingestion job reads the Terraform topic with its consumer group and the
# generator publishes to it, both as the worker service account (GOOGLE_OAUTH).

load test_helper

INGEST_MAIN=io.thriftbq.ingest.IngestionPipeline
DATAGEN_MAIN=io.thriftbq.datagen.DatagenPipeline
BOOTSTRAP=bootstrap.stub-kafka.us-central1.managedkafka.stub-project.cloud.goog:9092

# tfo NAME: what a dry run prints for a Terraform output.
tfo() {
  printf '$(terraform -chdir=%s output -raw %s)' "$(cd "$SCRIPTS/.." && pwd)/terraform" "$1"
}

@test "the dry run of a step with --source kafka prints the exact Kafka commands and calls nothing" {
  run "$SCRIPTS/7-storage-write-at-least-once-avro.sh" --project stub-project --dry-run --source kafka
  assert_success
  assert_line --regexp "^terraform -chdir=.*/terraform apply -input=false -var=project_id=stub-project -var=region=us-central1 -var=name_prefix=thriftbq -var=event_source=kafka$"
  assert_line --regexp "^java -cp .* $INGEST_MAIN .* --source=KAFKA \"--kafkaBootstrapServers=\\$\\(terraform .* output -raw kafka_bootstrap_servers\\)\" \"--kafkaTopics=\\$\\(terraform .* output -raw kafka_topic\\)\" \"--kafkaConsumerGroup=\\$\\(terraform .* output -raw kafka_consumer_group\\)\" --kafkaAuthentication=GOOGLE_OAUTH \"--outputTable="
  assert_output --partial " --sink=KAFKA \"--kafkaBootstrapServers=$(tfo kafka_bootstrap_servers)\" \"--kafkaTopic=$(tfo kafka_topic)\" --kafkaAuthentication=GOOGLE_OAUTH --className=io.thriftbq.sample.Event"
  refute_output --partial -- "--subscription="
  refute_output --partial -- "--outputTopic="
  assert_output --partial "Managed Service for Apache Kafka (--source kafka)"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "--source kafka: both jobs get the Terraform cluster, topic and group; the step is unchanged" {
  export STUB_EVENT_SOURCE=kafka
  run "$SCRIPTS/4-storage-write-exactly-once-tablerow.sh" --project stub-project --auto-approve --source kafka
  assert_success
  run calls terraform
  assert_line --regexp $'\tapply\t.*\t-var=event_source=kafka$'

  run java_call_for "$INGEST_MAIN"
  assert_line --source=KAFKA
  assert_line "--kafkaBootstrapServers=$BOOTSTRAP"
  assert_line --kafkaTopics=stub-events
  assert_line --kafkaConsumerGroup=stub-ingest
  assert_line --kafkaAuthentication=GOOGLE_OAUTH
  refute_line --partial --subscription
  assert_line --outputTable=stub-project:stub_ds.events
  assert_line --bigQueryWriteMethod=STORAGE_WRITE_API
  assert_line --storageWriteApiTriggeringFrequencySec=10

  run java_call_for "$DATAGEN_MAIN"
  assert_line --sink=KAFKA
  assert_line "--kafkaBootstrapServers=$BOOTSTRAP"
  assert_line --kafkaTopic=stub-events
  assert_line --kafkaAuthentication=GOOGLE_OAUTH
  refute_line --partial --outputTopic
  # The generator of the study, unchanged.
  assert_line --generatorRatePerSec=1000000
  assert_line --maxRecordsPerBatch=1
}

@test "--source takes any case and the Beam-style form, and reaches each job once" {
  export STUB_EVENT_SOURCE=kafka
  run "$SCRIPTS/8-storage-write-at-least-once-proto.sh" --project stub-project --auto-approve --source=KAFKA
  assert_success
  [[ "$(java_call_for "$INGEST_MAIN" | grep -c -- '^--source=')" == 1 ]]
  [[ "$(java_call_for "$DATAGEN_MAIN" | grep -c -- '^--source=')" == 0 ]]
}

@test "an ingestion flag after -- replaces the Kafka default (e.g. a second topic or another group)" {
  export STUB_EVENT_SOURCE=kafka
  run "$SCRIPTS/7-storage-write-at-least-once-avro.sh" --project stub-project --auto-approve \
    --source kafka -- --kafkaConsumerGroup=replay-1 --kafkaStartOffset=EARLIEST
  assert_success
  run java_call_for "$INGEST_MAIN"
  assert_line --kafkaConsumerGroup=replay-1
  refute_line --kafkaConsumerGroup=stub-ingest
  assert_line --kafkaStartOffset=EARLIEST
}

@test "--source kafka against infrastructure applied for Pub/Sub fails before any job starts" {
  run "$SCRIPTS/6-storage-write-exactly-once-avro.sh" --project stub-project --skip-terraform \
    --skip-build --source kafka
  assert_failure 1
  assert_output --partial "--source kafka, but the infrastructure was applied with event_source = pubsub"
  [[ -z "$(calls java)" ]] || fail "a job started: $(calls java)"
}

@test "a bad --source fails with a clear message and calls nothing" {
  run "$SCRIPTS/1-streaming-inserts-tablerow.sh" --project stub-project --source kinesis
  assert_failure 2
  assert_output --partial "--source must be pubsub or kafka, got 'kinesis'"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 1 --source
  assert_failure 2
  assert_output --partial "--source needs a value"
  [[ ! -s "$STUB_LOG" ]]
}

@test "flex-template-run --source kafka hands the Kafka parameters to both templates" {
  export STUB_EVENT_SOURCE=kafka
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 7 --source kafka
  assert_success
  run call_args gcloud 1
  assert_line thriftbq-ingest-step7
  assert_line "--parameters=source=KAFKA,kafkaBootstrapServers=$BOOTSTRAP,kafkaTopics=stub-events,kafkaConsumerGroup=stub-ingest,kafkaAuthentication=GOOGLE_OAUTH,outputTable=stub-project:stub_ds.events,deadLetterTable=stub-project:stub_ds.events_dead_letter,thriftClassName=io.thriftbq.sample.Event,thriftProtocol=BINARY,bigQueryWriteMethod=STORAGE_API_AT_LEAST_ONCE,formatToStore=AVRO_GENERIC_RECORD,useStorageApiConnectionPool=true"
  run call_args gcloud 2
  assert_line thriftbq-datagen-step7
  assert_line "--parameters=sink=KAFKA,kafkaBootstrapServers=$BOOTSTRAP,kafkaTopic=stub-events,kafkaAuthentication=GOOGLE_OAUTH,className=io.thriftbq.sample.Event,thriftProtocol=BINARY,generatorRatePerSec=1000000,maxRecordsPerBatch=1,maxEvents=0"

  : >"$STUB_LOG"
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 7 --source kafka --dry-run
  assert_success
  assert_output --partial "\"--parameters=source=KAFKA,kafkaBootstrapServers=$(tfo kafka_bootstrap_servers),kafkaTopics=$(tfo kafka_topic),kafkaConsumerGroup=$(tfo kafka_consumer_group),kafkaAuthentication=GOOGLE_OAUTH,"
  assert_output --partial "\"--parameters=sink=KAFKA,kafkaBootstrapServers=$(tfo kafka_bootstrap_servers),kafkaTopic=$(tfo kafka_topic),kafkaAuthentication=GOOGLE_OAUTH,"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "--help of the launch scripts and flex-template-run lists --source" {
  for s in 1-streaming-inserts-tablerow.sh 8-storage-write-at-least-once-proto.sh flex-template-run.sh; do
    run "$SCRIPTS/$s" --help
    assert_success
    assert_output --partial "--source pubsub|kafka"
  done
}
