output "topic_id" {
  description = "Event topic as projects/P/topics/T."
  value       = google_pubsub_topic.events.id
}

output "topic_name" {
  description = "Short name of the event topic."
  value       = google_pubsub_topic.events.name
}

output "subscription_id" {
  description = "Ingestion subscription as projects/P/subscriptions/S."
  value       = google_pubsub_subscription.events.id
}

output "subscription_name" {
  description = "Short name of the ingestion subscription."
  value       = google_pubsub_subscription.events.name
}

output "dead_letter_topic_id" {
  description = "Dead-letter topic as projects/P/topics/T."
  value       = google_pubsub_topic.dead_letter.id
}
