# Outputs read by scripts/lib/common.sh (tf_output NAME). scripts/ci/hcl_consistency.py checks
# that every name the scripts read is declared here.

output "project_id" {
  description = "Project that hosts the resources."
  value       = var.project_id
}

output "region" {
  description = "Region of the Dataflow workers."
  value       = var.region
}

output "name_prefix" {
  description = "Prefix the Dataflow job names are derived from."
  value       = var.name_prefix
}

output "event_source" {
  description = "Route of the events: pubsub or kafka (the launch scripts' --source)."
  value       = var.event_source
}

output "topic_id" {
  description = "Topic the generator publishes to (projects/P/topics/T); null with event_source = kafka."
  value       = local.pubsub ? module.pubsub[0].topic_id : null
}

output "subscription_id" {
  description = "Subscription the ingestion pipeline reads (projects/P/subscriptions/S); null with event_source = kafka."
  value       = local.pubsub ? module.pubsub[0].subscription_id : null
}

output "dead_letter_topic_id" {
  description = "Topic that receives messages Pub/Sub could not deliver after max_delivery_attempts; null with event_source = kafka."
  value       = local.pubsub ? module.pubsub[0].dead_letter_topic_id : null
}

output "kafka_bootstrap_servers" {
  description = "Bootstrap address of the Managed Kafka cluster, bootstrap.CLUSTER.REGION.managedkafka.PROJECT.cloud.goog:9092 (--kafkaBootstrapServers, with --kafkaAuthentication=GOOGLE_OAUTH); null with event_source = pubsub."
  value       = local.kafka ? module.kafka[0].bootstrap_servers : null
}

output "kafka_topic" {
  description = "Kafka topic the generator publishes to and the ingestion job reads (--kafkaTopic, --kafkaTopics); null with event_source = pubsub."
  value       = local.kafka ? module.kafka[0].topic_name : null
}

output "kafka_consumer_group" {
  description = "Consumer group of the ingestion job (--kafkaConsumerGroup): it resumes from the group's committed offsets; null with event_source = pubsub."
  value       = local.kafka ? local.kafka_consumer_group : null
}

output "event_table_spec" {
  description = "Event table as PROJECT:DATASET.TABLE (--outputTable)."
  value       = module.bigquery.event_table_spec
}

output "event_table_spec_template" {
  description = "Event table of each struct for a job with several event types, as PROJECT:DATASET.events_{struct} (--outputTable; the pipeline replaces {struct} by the struct's table name). Tables of event_tables with their own table_id need --tableForStruct."
  value       = "${var.project_id}:${module.bigquery.dataset_id}.${local.event_table_prefix}{struct}"
}

output "event_table_specs" {
  description = "Event tables created from event_tables, as PROJECT:DATASET.TABLE keyed by the struct's table name (empty for a single-type deployment)."
  value       = module.bigquery.struct_table_specs
}

output "dead_letter_table_spec" {
  description = "Dead-letter table as PROJECT:DATASET.TABLE (--deadLetterTable)."
  value       = module.bigquery.dead_letter_table_spec
}

output "staging_location" {
  description = "GCS folder for staged jars (--stagingLocation)."
  value       = "gs://${module.storage.bucket_name}/staging"
}

output "temp_location" {
  description = "GCS folder for temporary files (--tempLocation, --gcpTempLocation)."
  value       = "gs://${module.storage.bucket_name}/temp"
}

output "templates_location" {
  description = "GCS folder for flex template spec files."
  value       = "gs://${module.storage.bucket_name}/templates"
}

output "artifact_repository_url" {
  description = "Docker repository for the flex template images (REGION-docker.pkg.dev/PROJECT/REPO)."
  value       = module.storage.artifact_repository_url
}

output "worker_service_account_email" {
  description = "Service account the Dataflow workers run as (--serviceAccount)."
  value       = module.service_account.email
}

output "subnetwork_self_link" {
  description = "Subnetwork of the workers, with Private Google Access and Cloud NAT (--subnetwork)."
  value       = module.network.subnetwork_self_link
}
