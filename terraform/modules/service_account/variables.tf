variable "project_id" {
  description = "Project of the service account."
  type        = string
}

variable "account_id" {
  description = "Service account id (6-30 characters: lowercase letters, digits, hyphens)."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.account_id))
    error_message = "account_id must be 6-30 lowercase letters, digits and hyphens, starting with a letter."
  }
}

variable "pubsub_access" {
  description = "Grant the Pub/Sub roles on subscription_id and topic_id (event_source = pubsub)."
  type        = bool
}

variable "subscription_id" {
  description = "Subscription the workers read (projects/P/subscriptions/S); null without pubsub_access."
  type        = string
  default     = null
}

variable "topic_id" {
  description = "Topic the generator publishes to (projects/P/topics/T); null without pubsub_access."
  type        = string
  default     = null
}

variable "kafka_client" {
  description = "Grant roles/managedkafka.client (event_source = kafka): the generator produces to and the ingestion job consumes from the Managed Kafka cluster."
  type        = bool
}

variable "dataset_id" {
  description = "Dataset the workers write to."
  type        = string
}

variable "bucket_name" {
  description = "Staging bucket."
  type        = string
}

variable "artifact_repository_id" {
  description = "Docker repository of the flex template images."
  type        = string
}

variable "artifact_location" {
  description = "Location of the Docker repository."
  type        = string
}

variable "launcher_members" {
  description = "Members allowed to act as the worker service account."
  type        = list(string)
}
