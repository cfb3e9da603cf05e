output "cluster_id" {
  description = "Id of the cluster."
  value       = google_managed_kafka_cluster.this.cluster_id
}

output "bootstrap_servers" {
  description = "Bootstrap address of the cluster (SASL_SSL with OAUTHBEARER), as the clients' bootstrap.servers."
  # The service's naming, fixed by cluster, region and project; the provider exposes no attribute.
  value = "bootstrap.${google_managed_kafka_cluster.this.cluster_id}.${var.region}.managedkafka.${var.project_id}.cloud.goog:9092"
}

output "topic_name" {
  description = "Name of the event topic."
  value       = google_managed_kafka_topic.events.topic_id
}
