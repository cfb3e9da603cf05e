# Root configuration: every cloud resource the seven launch scripts and the flex templates need.
# Names come from one prefix; BigQuery ids allow underscores but not hyphens, GCS buckets,
# service accounts, networks and Dataflow jobs allow hyphens, so the two forms are derived here
# rather than reused.

data "google_project" "this" {
  project_id = var.project_id
}

locals {
  name_hyphen     = var.name_prefix
  name_underscore = replace(var.name_prefix, "-", "_")

  labels = merge({ app = "thrift-pubsub-bigquery", managed-by = "terraform" }, var.labels)

  # One route from the generator to the ingestion job (event_source): Pub/Sub or Managed Kafka.
  pubsub = var.event_source == "pubsub"
  kafka  = var.event_source == "kafka"

  # Kafka names: the cluster, its event topic, and the consumer group the ingestion job commits
  # its offsets to (Kafka creates a group on its first commit; nothing to provision).
  kafka_cluster_id     = "${local.name_hyphen}-kafka"
  kafka_topic          = "${local.name_hyphen}-events"
  kafka_consumer_group = "${local.name_hyphen}-ingest"

  event_table_schema_file       = coalesce(var.event_table_schema_file, "${path.module}/schemas/event_table.json")
  dead_letter_table_schema_file = coalesce(var.dead_letter_table_schema_file, "${path.module}/schemas/dead_letter_table.json")

  # Many event types: one table per struct, named events_<struct table name> unless table_id says
  # otherwise, so that the launch's --outputTable=PROJECT:DATASET.events_{struct} finds it.
  # Partitioning, clustering and the change-mode key and staleness default to the single event
  # table's settings.
  event_table_prefix = "events_"
  struct_tables = {
    for key, t in var.event_tables : key => {
      table_id          = coalesce(t.table_id, "${local.event_table_prefix}${key}")
      schema            = file(t.schema_file)
      partition_type    = t.partition_type != null ? t.partition_type : var.event_table_partition_type
      partition_field   = t.partition_field != null ? t.partition_field : var.event_table_partition_field
      clustering_fields = t.clustering_fields != null ? t.clustering_fields : var.event_table_clustering_fields
      primary_key       = t.primary_key != null ? t.primary_key : var.event_table_primary_key
      max_staleness     = t.max_staleness != null ? t.max_staleness : var.event_table_max_staleness
    }
  }

  apis = concat([
    "artifactregistry.googleapis.com",
    "bigquery.googleapis.com",
    "bigquerystorage.googleapis.com",
    "cloudbuild.googleapis.com",
    "compute.googleapis.com",
    "dataflow.googleapis.com",
    "iam.googleapis.com",
    "storage.googleapis.com",
  ], local.pubsub ? ["pubsub.googleapis.com"] : ["managedkafka.googleapis.com"])
}

resource "google_project_service" "apis" {
  for_each = var.enable_apis ? toset(local.apis) : toset([])

  project            = var.project_id
  service            = each.value
  disable_on_destroy = false
}

module "network" {
  source = "./modules/network"

  project_id  = var.project_id
  region      = var.region
  name        = local.name_hyphen
  subnet_cidr = var.subnet_cidr

  depends_on = [google_project_service.apis]
}

module "pubsub" {
  source = "./modules/pubsub"
  count  = local.pubsub ? 1 : 0

  project_id                 = var.project_id
  project_number             = data.google_project.this.number
  name                       = local.name_hyphen
  ack_deadline_seconds       = var.ack_deadline_seconds
  message_retention_duration = var.message_retention_duration
  max_delivery_attempts      = var.max_delivery_attempts
  labels                     = local.labels

  depends_on = [google_project_service.apis]
}

module "kafka" {
  source = "./modules/kafka"
  count  = local.kafka ? 1 : 0

  project_id        = var.project_id
  region            = var.region
  cluster_id        = local.kafka_cluster_id
  topic_id          = local.kafka_topic
  subnetwork_id     = module.network.subnetwork_id
  vcpu_count        = var.kafka_vcpu_count
  memory_gib        = var.kafka_memory_gib
  partition_count   = var.kafka_partition_count
  retention_ms      = var.kafka_retention_hours * 3600 * 1000
  max_message_bytes = var.kafka_max_message_bytes
  labels            = local.labels

  depends_on = [google_project_service.apis]
}

module "bigquery" {
  source = "./modules/bigquery"

  project_id               = var.project_id
  location                 = var.bigquery_location
  dataset_id               = local.name_underscore
  event_table_id           = "events"
  dead_letter_table_id     = "events_dead_letter"
  event_table_schema       = file(local.event_table_schema_file)
  dead_letter_table_schema = file(local.dead_letter_table_schema_file)
  partition_type           = var.event_table_partition_type
  partition_field          = var.event_table_partition_field
  clustering_fields        = var.event_table_clustering_fields
  primary_key              = var.event_table_primary_key
  max_staleness            = var.event_table_max_staleness
  struct_tables            = local.struct_tables
  deletion_protection      = var.table_deletion_protection
  labels                   = local.labels

  depends_on = [google_project_service.apis]
}

module "storage" {
  source = "./modules/storage"

  project_id             = var.project_id
  region                 = var.region
  bucket_name            = "${var.project_id}-${local.name_hyphen}-dataflow"
  artifact_repository_id = "${local.name_hyphen}-templates"
  object_age_days        = var.staging_object_age_days
  force_destroy          = var.bucket_force_destroy
  labels                 = local.labels

  depends_on = [google_project_service.apis]
}

module "service_account" {
  source = "./modules/service_account"

  project_id             = var.project_id
  account_id             = "${local.name_hyphen}-df-worker"
  pubsub_access          = local.pubsub
  subscription_id        = local.pubsub ? module.pubsub[0].subscription_id : null
  topic_id               = local.pubsub ? module.pubsub[0].topic_id : null
  kafka_client           = local.kafka
  dataset_id             = module.bigquery.dataset_id
  bucket_name            = module.storage.bucket_name
  artifact_repository_id = module.storage.artifact_repository_id
  artifact_location      = var.region
  launcher_members       = var.launcher_members

  depends_on = [google_project_service.apis]
}
