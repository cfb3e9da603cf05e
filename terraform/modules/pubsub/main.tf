# Event topic (the generator publishes), the ingestion subscription, and a dead-letter topic for
# messages Pub/Sub could not deliver after max_delivery_attempts. Events the pipeline cannot
# decode or write go to the BigQuery dead-letter table instead; this topic catches delivery
# failures only.

resource "google_pubsub_topic" "events" {
  project = var.project_id
  name    = "${var.name}-events"
  labels  = var.labels
}

resource "google_pubsub_topic" "dead_letter" {
  project = var.project_id
  name    = "${var.name}-events-dead-letter"
  labels  = var.labels
}

# Without a subscription, messages published to the dead-letter topic would be lost.
resource "google_pubsub_subscription" "dead_letter" {
  project                    = var.project_id
  name                       = "${var.name}-events-dead-letter"
  topic                      = google_pubsub_topic.dead_letter.id
  message_retention_duration = "604800s"
  labels                     = var.labels

  expiration_policy {
    ttl = ""
  }
}

resource "google_pubsub_subscription" "events" {
  project                    = var.project_id
  name                       = "${var.name}-events-ingest"
  topic                      = google_pubsub_topic.events.id
  ack_deadline_seconds       = var.ack_deadline_seconds
  message_retention_duration = var.message_retention_duration
  labels                     = var.labels

  expiration_policy {
    ttl = ""
  }

  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.dead_letter.id
    max_delivery_attempts = var.max_delivery_attempts
  }
}

# Dead-lettering needs the Pub/Sub service agent to publish to the dead-letter topic and to
# subscribe to the source subscription (to acknowledge what it forwarded).
locals {
  pubsub_service_agent = "serviceAccount:service-${var.project_number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}

resource "google_pubsub_topic_iam_member" "dead_letter_publisher" {
  project = var.project_id
  topic   = google_pubsub_topic.dead_letter.name
  role    = "roles/pubsub.publisher"
  member  = local.pubsub_service_agent
}

resource "google_pubsub_subscription_iam_member" "dead_letter_subscriber" {
  project      = var.project_id
  subscription = google_pubsub_subscription.events.name
  role         = "roles/pubsub.subscriber"
  member       = local.pubsub_service_agent
}
