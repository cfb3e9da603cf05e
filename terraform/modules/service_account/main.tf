# Worker service account with least privilege. On the project only roles/dataflow.worker (Dataflow
# requires it there) and, with Kafka, roles/managedkafka.client (the provider has no cluster- or
# topic-level IAM resource for Managed Kafka); every other role is granted on the one resource it
# needs.

resource "google_service_account" "worker" {
  project      = var.project_id
  account_id   = var.account_id
  display_name = "Dataflow workers of the thrift-pubsub-bigquery template"
}

locals {
  member = "serviceAccount:${google_service_account.worker.email}"
}

resource "google_project_iam_member" "dataflow_worker" {
  project = var.project_id
  role    = "roles/dataflow.worker"
  member  = local.member
}

# Ingestion: pull from the subscription; viewer lets the reader get the subscription's settings.
resource "google_pubsub_subscription_iam_member" "subscriber" {
  count = var.pubsub_access ? 1 : 0

  project      = var.project_id
  subscription = var.subscription_id
  role         = "roles/pubsub.subscriber"
  member       = local.member
}

resource "google_pubsub_subscription_iam_member" "viewer" {
  count = var.pubsub_access ? 1 : 0

  project      = var.project_id
  subscription = var.subscription_id
  role         = "roles/pubsub.viewer"
  member       = local.member
}

# Generator: publish to the event topic.
resource "google_pubsub_topic_iam_member" "publisher" {
  count = var.pubsub_access ? 1 : 0

  project = var.project_id
  topic   = var.topic_id
  role    = "roles/pubsub.publisher"
  member  = local.member
}

# Managed Kafka: connect with the OAUTHBEARER token of this account (GcpLoginCallbackHandler),
# produce and consume records, commit the consumer group's offsets. The role carries no admin
# permission (no topic or cluster changes).
resource "google_project_iam_member" "managed_kafka_client" {
  count = var.kafka_client ? 1 : 0

  project = var.project_id
  role    = "roles/managedkafka.client"
  member  = local.member
}

# Write rows (streaming inserts and the Storage Write API) and create the tables if needed, in
# this dataset only.
resource "google_bigquery_dataset_iam_member" "data_editor" {
  project    = var.project_id
  dataset_id = var.dataset_id
  role       = "roles/bigquery.dataEditor"
  member     = local.member
}

# Staged jars and temp files: objects in this bucket only; the legacy bucket reader role adds
# storage.buckets.get, which Beam calls to check the temp location.
resource "google_storage_bucket_iam_member" "object_admin" {
  bucket = var.bucket_name
  role   = "roles/storage.objectAdmin"
  member = local.member
}

resource "google_storage_bucket_iam_member" "bucket_reader" {
  bucket = var.bucket_name
  role   = "roles/storage.legacyBucketReader"
  member = local.member
}

# The flex template launcher VM runs as the worker account and pulls the launcher image.
resource "google_artifact_registry_repository_iam_member" "image_reader" {
  project    = var.project_id
  location   = var.artifact_location
  repository = var.artifact_repository_id
  role       = "roles/artifactregistry.reader"
  member     = local.member
}

# Whoever launches jobs must be allowed to act as the worker account, on this account only.
resource "google_service_account_iam_member" "launcher" {
  for_each = toset(var.launcher_members)

  service_account_id = google_service_account.worker.name
  role               = "roles/iam.serviceAccountUser"
  member             = each.value
}
