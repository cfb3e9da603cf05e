variable "project_id" {
  description = "Project of the topics and subscriptions."
  type        = string
}

variable "project_number" {
  description = "Project number, used to name the Pub/Sub service agent."
  type        = string
}

variable "name" {
  description = "Hyphenated name prefix of the topics and subscriptions."
  type        = string
}

variable "ack_deadline_seconds" {
  description = "Initial ack deadline of the ingestion subscription."
  type        = number
}

variable "message_retention_duration" {
  description = "Retention of unacknowledged messages on the ingestion subscription."
  type        = string
}

variable "max_delivery_attempts" {
  description = "Deliveries before a message moves to the dead-letter topic."
  type        = number
}

variable "labels" {
  description = "Labels of the topics and subscriptions."
  type        = map(string)
}
